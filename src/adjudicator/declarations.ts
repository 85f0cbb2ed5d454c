// What each faction declared this turn: hostility in force (R-ORD-1, R-TURN-5, R-COMB-3), vote,
// orders and problems. The Chancellor's declaration comes first (R-EDICT-1). A declaration is
// public: its problems are kinds (R-EDICT-4); their words go back to the writer alone, by review.
import { engineProblem } from './engine-messages.ts';
import type { Board } from './map.ts';
import { assignOrders } from './orders.ts';
import { sideName } from './render/vocabulary.ts';
import type { SheetReading } from './sheet.ts';
import type { TurnContext } from './turn-context.ts';
import { IMPERIAL, type Declaration, type FactionId, type GameState, type Problem, type ProblemKind, type Side } from './types.ts';

// A faction named in a problem: its English name in both languages' messages, as always (only
// factions reach here, never the Imperial Troops).
const displayName = (board: Board, side: Side): string => sideName(board, side, 'en');

/** The sides of `list` that `f` may be hostile to, once each, in the order named. */
function cleanHostility(
  board: Board,
  f: FactionId,
  chancellor: FactionId | null,
  inPlay: readonly FactionId[],
  list: readonly Side[],
  problems: Problem[] | null,
  lines: readonly number[] = [],
): Side[] {
  const kept: Side[] = [];
  for (let i = 0; i < list.length; i++) {
    const side = list[i]!;
    const line = lines[i] ?? 0; // where the player named it, so the reply can point at the line
    if (side === f) problems?.push(engineProblem('self-hostility', line, displayName(board, side)));
    else if (side === IMPERIAL && f === chancellor) problems?.push(engineProblem('chancellor-imperial-hostility', line));
    else if (side !== IMPERIAL && !inPlay.includes(side))
      problems?.push(engineProblem('hostility-not-in-play', line, displayName(board, side)));
    else if (!kept.includes(side)) kept.push(side);
  }
  return kept;
}

/** A hostility list in board order, the Imperial Troops last: how the edict shows it. */
function inBoardOrder(board: Board, list: readonly Side[]): Side[] {
  const out: Side[] = [];
  for (const side of board.sides) if (list.includes(side)) out.push(side);
  return out;
}

export function declareHostility(
  board: Board,
  state: GameState,
  factions: readonly FactionId[],
  sheets: ReadonlyMap<FactionId, SheetReading>,
  electionTurn: boolean,
): { declarations: Declaration[]; hostility: Map<FactionId, Side[]>; problems: Map<FactionId, Problem[]> } {
  const inPlay = factions;
  const hostility = new Map<FactionId, Side[]>();
  const declarations: Declaration[] = [];
  const worded = new Map<FactionId, Problem[]>();
  const ordered =
    state.chancellor && inPlay.includes(state.chancellor)
      ? [state.chancellor, ...factions.filter((f) => f !== state.chancellor)]
      : factions;
  for (const f of ordered) {
    const sheet = sheets.get(f)?.sheet;
    const problems: Problem[] = sheet ? sheet.problems.slice() : [];
    let source: Declaration['hostilitySource'];
    let list: Side[];
    if (sheet) {
      // An empty sheet is not an NMR: hostile to nobody (R-TURN-5).
      list = cleanHostility(board, f, state.chancellor, inPlay, sheet.hostility, problems, sheet.hostilityLines);
      source = 'sheet';
    } else if (state.settings.nmrHostility === 'keep' && (state.hostility[f]?.length ?? 0) > 0) {
      list = cleanHostility(board, f, state.chancellor, inPlay, state.hostility[f]!, null);
      source = 'kept';
    } else {
      list = [];
      source = 'none';
    }
    hostility.set(f, list);
    let vote: Side | null = null;
    if (sheet?.vote) {
      if (!electionTurn) problems.push(engineProblem('vote-not-election', sheet.vote.line));
      else if (sheet.vote.side !== IMPERIAL && !inPlay.includes(sheet.vote.side)) {
        problems.push(engineProblem('vote-not-in-play', sheet.vote.line, displayName(board, sheet.vote.side)));
      } else vote = sheet.vote.side;
    }
    if (problems.length > 1) problems.sort((a, b) => a.line - b.line);
    worded.set(f, problems);
    declarations.push({
      faction: f,
      isChancellor: f === state.chancellor,
      submitted: sheet !== undefined,
      hostility: inBoardOrder(board, list),
      hostilitySource: source,
      vote,
      orders: [],
      problems: problems.map(problemKind),
    });
  }
  return { declarations, hostility, problems: worded };
}

/**
 * What the edict keeps of a problem (R-EDICT-4): a new object with the line, the code and the
 * rule, so that the words the player wrote never reach anything public, whoever renders it.
 */
export function problemKind(p: ProblemKind): ProblemKind {
  return p.rule === undefined ? { line: p.line, code: p.code } : { line: p.line, code: p.code, rule: p.rule };
}

/** Judges every faction's written orders against the starting position. */
export function assignAllOrders(
  ctx: TurnContext,
  declarations: Declaration[],
  sheets: ReadonlyMap<FactionId, SheetReading>,
  firstTurn: boolean,
): void {
  for (const d of declarations) {
    const sheet = sheets.get(d.faction);
    if (sheet) d.orders = assignOrders(ctx, d.faction, sheet, firstTurn);
  }
}
