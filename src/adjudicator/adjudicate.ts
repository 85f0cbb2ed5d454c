// One turn, in the rulebook's order (section 5 of RULES.md): moves, hyperspace, combat and
// advances, politics, the election count, production, victory. Pure: the same board, state and
// sheets always give the same result (R-EDICT-2).
import { resolveAdvances } from './advance.ts';
import { resolveCombat } from './combat.ts';
import { planetsControlled } from './control.ts';
import { countElection, seatNewChancellor } from './elections.ts';
import { assignAllOrders, declareHostility } from './declarations.ts';
import { resolveJumps } from './hyperspace.ts';
import type { Board, CellIndex } from './map.ts';
import { resolveMoves } from './moves.ts';
import { electionsCalled, resolvePolitics } from './politics.ts';
import { produce, victory } from './production.ts';
import { readSheet, type SheetReading } from './sheet.ts';
import { readPosition } from './state-check.ts';
import { TurnContext } from './turn-context.ts';
import type { AdjudicationChoices, AdjudicationResult, Edict, FactionId, GameState, PoliticsReport, Side } from './types.ts';

/** Sheets as the players wrote them, by faction; a faction without one is an NMR (R-TURN-5). */
export type Sheets = Readonly<Partial<Record<FactionId, string>>>;

export function adjudicate(board: Board, state: GameState, sheetTexts: Sheets, choices: AdjudicationChoices = {}): AdjudicationResult {
  const position = readPosition(board, state);
  const factions = board.factionIds.filter((f) => state.factions.includes(f)); // R-SETUP-1 order
  const sheets = new Map<FactionId, SheetReading>();
  for (const f of factions) {
    const text = sheetTexts[f];
    if (typeof text === 'string') sheets.set(f, readSheet(text, board));
  }
  const firstTurn = state.turn === 1; // R-TURN-1: only the election
  const electionTurn = firstTurn || state.election;
  const chancellorAtStart = state.chancellor;

  const { declarations, hostility } = declareHostility(board, state, factions, sheets, electionTurn);
  const ctx = new TurnContext(board, state.units, position, factions, chancellorAtStart, hostility);
  const capitalFullAtStart = board.capital.every((c) => !ctx.isEmpty(c));
  assignAllOrders(ctx, declarations, sheets, firstTurn);

  let politics: PoliticsReport = { completed: [], troop: null, electionsCalledBy: [] };
  let completed: ReturnType<typeof resolvePolitics>['completed'] = [];
  const edictParts: Pick<Edict, 'eliminations' | 'destructions' | 'advances'> = { eliminations: [], destructions: [], advances: [] };
  if (!firstTurn) {
    resolveMoves(ctx);
    edictParts.destructions = resolveJumps(ctx);
    const falls = resolveCombat(ctx);
    edictParts.eliminations = falls.map((f) => ({
      side: f.unit.side,
      at: board.name(f.cell),
      rule: f.rule,
      by: f.by.map((u) => ({ side: u.side, at: board.name(u.at) })),
    }));
    edictParts.advances = resolveAdvances(ctx, falls, advanceChoices(board, choices));
    ({ report: politics, completed } = resolvePolitics(ctx, capitalFullAtStart));
  }

  const election = electionTurn ? countElection(ctx, { gameId: state.gameId, turn: state.turn, factions, sheets }) : null;
  if (election && election.elected) {
    seatNewChancellor(ctx, election, sheets.get(election.elected)?.sheet.eliminate?.cell ?? null);
  }
  const chancellor = election ? election.elected : chancellorAtStart;
  politics.electionsCalledBy = electionsCalled(completed, chancellor, ctx);

  const production = firstTurn ? [] : produce(ctx);

  const planetCounts = planetsControlled(ctx, 'production');
  const planets: Record<FactionId, number> = {};
  factions.forEach((f, i) => (planets[f] = planetCounts[i]!));
  const electionReasons: Edict['electionReasons'] = [];
  if (chancellor === null) electionReasons.push('no-chancellor');
  else if (!board.capital.some((c) => ctx.unitAt(c)?.side === chancellor)) electionReasons.push('chancellor-off-capital');
  if (politics.electionsCalledBy.length) electionReasons.push('politics');

  const lastTurn = state.settings.lastTurn ?? null;
  const isLastTurn = lastTurn !== null && state.turn >= lastTurn; // D-WIN-2: at or past it
  const won = victory(factions, planetCounts, state.settings.victoryPlanets, isLastTurn);
  const finalUnits = ctx.livingUnits();
  const joining = board.factionIds.filter((f) => (state.joining ?? []).includes(f) && !factions.includes(f));
  const edict: Edict = {
    gameId: state.gameId,
    map: board.map.id,
    turn: state.turn,
    electionTurn,
    chancellorAtStart,
    factions,
    victoryPlanets: state.settings.victoryPlanets,
    declarations,
    eliminations: edictParts.eliminations,
    destructions: edictParts.destructions,
    advances: edictParts.advances,
    politics,
    election,
    production,
    units: finalUnits,
    planets,
    chancellor,
    electionNextTurn: electionReasons.length > 0,
    electionReasons,
    winners: won.winners,
    winRule: won.rule,
    lastTurn,
    gameOver: won.winners.length > 0 || isLastTurn,
    joiningNextTurn: joining,
  };

  // R-SETUP-4: a late joiner enters at the start of the next turn on its starting planets.
  const nextUnits = finalUnits.slice();
  for (const f of joining) {
    for (const c of board.startingCells(f)) if (ctx.isEmpty(c)) nextUnits.push({ side: f, at: board.name(c) });
  }

  // Hostility in force, as named (R-TURN-5 keeps it for a faction that misses the next turn).
  const nextHostility: Record<FactionId, Side[]> = {};
  hostility.forEach((list, f) => (nextHostility[f] = list.slice()));
  const next: GameState = {
    gameId: state.gameId,
    turn: state.turn + 1,
    factions: board.factionIds.filter((f) => factions.includes(f) || joining.includes(f)),
    chancellor,
    election: edict.electionNextTurn,
    hostility: nextHostility,
    units: nextUnits,
    settings: { ...state.settings },
  };
  return { state: next, edict };
}

/** The referee's advance choices as cell indices; names that are not cells are left out. */
function advanceChoices(board: Board, choices: AdjudicationChoices): Map<CellIndex, CellIndex> {
  const out = new Map<CellIndex, CellIndex>();
  for (const [to, from] of Object.entries(choices.advances ?? {})) {
    const t = board.parseCell(to);
    const f = board.parseCell(from);
    if (t !== null && f !== null) out.set(t, f);
  }
  return out;
}
