// A sheet read against the position it will be adjudicated in: what intake answers at once.
// The same code as adjudication judges the orders, so the reply never disagrees with the edict.
import { assignAllOrders, declareHostility } from './declarations.ts';
import type { Board } from './map.ts';
import { orderProblem } from './order-messages.ts';
import { abstentionNote, eliminateProblem } from './review-notes.ts';
import { readSheet } from './sheet.ts';
import { TurnContext } from './turn-context.ts';
import type { FactionId, GameState, ParsedSheet, Problem, Side } from './types.ts';

export interface SheetReview {
  parsed: ParsedSheet;
  /** Orders in the order written, canonical (`B2-C3`), with what will become of each. */
  orders: { order: string; line: number; applies: boolean }[];
  hostility: Side[];
  vote: Side | null;
  problems: Problem[];
  normalised: Problem[];
  /**
   * Confirmed without being problems: an abstention (D-PARSE-15), text that is not orders
   * (D-PARSE-16). Absent when none.
   */
  notes?: Problem[];
  status: 'valid' | 'problems';
}

export function reviewSheet(board: Board, state: GameState, faction: FactionId, text: string): SheetReview {
  const reading = readSheet(text, board);
  const parsed = reading.sheet;
  const factions = board.factionIds.filter((f) => state.factions.includes(f));
  const sheets = new Map([[faction, reading]]);
  const electionTurn = state.turn === 1 || state.election;
  const { declarations, hostility, problems: worded } = declareHostility(board, state, factions, sheets, electionTurn);
  const ctx = new TurnContext(
    board,
    state.units,
    // Read without the checks of adjudication: intake answers whatever position it is given.
    { cells: state.units.map((u) => board.parseCell(u.at) ?? -1), sides: state.units.map((u) => board.sideNumber(u.side)) },
    factions,
    state.chancellor,
    hostility,
  );
  const mine = declarations.filter((d) => d.faction === faction);
  assignAllOrders(ctx, mine, sheets, state.turn === 1);
  const d = mine[0];
  const outcomes = d?.orders ?? [];
  // The parser already reported off-board cells on their line; say it once.
  const offBoardLines = new Set(parsed.problems.filter((p) => p.code === 'off-board').map((p) => p.line));
  const orderProblems = outcomes
    .map(orderProblem)
    .filter((p): p is Problem => p !== null && !(p.code === 'order-off-board' && offBoardLines.has(p.line)));
  const eliminate = eliminateProblem(board, parsed);
  const problems = [...(worded.get(faction) ?? parsed.problems), ...orderProblems, ...(eliminate ? [eliminate] : [])].sort(
    (a, b) => a.line - b.line,
  );
  const abstention = abstentionNote(text, parsed);
  // Text that is not orders is confirmed to its writer, never a problem (D-PARSE-16).
  const notes = abstention ? [...parsed.ignored, abstention].sort((a, b) => a.line - b.line) : parsed.ignored;
  return {
    parsed,
    orders: outcomes.map((o) => ({ order: o.order, line: o.line, applies: orderProblem(o) === null })),
    hostility: d?.hostility ?? parsed.hostility,
    vote: d?.vote ?? null,
    problems,
    normalised: parsed.normalised,
    ...(notes.length ? { notes } : {}),
    status: problems.length ? 'problems' : 'valid',
  };
}
