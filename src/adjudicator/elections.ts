// The election count (R-ELEC-3, R-ELEC-4) and the new Chancellor's unit (R-ELEC-5).
import type { CellIndex } from './map.ts';
import { planetsControlled } from './control.ts';
import { drawLot } from './lot.ts';
import type { TurnContext } from './turn-context.ts';
import type { SheetReading } from './sheet.ts';
import { IMPERIAL, type Ballot, type ElectionReport, type FactionId, type ParsedSheet } from './types.ts';

export interface ElectionInput {
  gameId: string;
  turn: number;
  /** Factions in play, R-SETUP-1 order. */
  factions: readonly FactionId[];
  /** The sheet of each faction; missing = NMR (R-TURN-5). */
  sheets: ReadonlyMap<FactionId, SheetReading>;
}

function ballot(ctx: TurnContext, f: FactionId, sheet: ParsedSheet | undefined, planets: number): Ballot {
  if (!sheet) return { voter: f, votes: 0, for: null, note: 'nmr' };
  const choice = sheet.vote?.side ?? null;
  if (choice === null) return { voter: f, votes: 0, for: null, note: 'no-vote' };
  if (choice === IMPERIAL) return { voter: f, votes: 0, for: null, note: 'imperial' };
  if (!ctx.factions.includes(choice)) return { voter: f, votes: 0, for: null, note: 'not-in-play' };
  if (planets === 0) return { voter: f, votes: 0, for: choice, note: 'no-planets' };
  return { voter: f, votes: planets, for: choice };
}

export function countElection(ctx: TurnContext, input: ElectionInput): ElectionReport {
  // Votes are counted after politics and before production (R-ELEC-3).
  const planets = planetsControlled(ctx, 'election');
  // `input.factions` are `ctx.factions`, the order planetsControlled counts in.
  const ballots = input.factions.map((f, i) => ballot(ctx, f, input.sheets.get(f)?.sheet, planets[i]!));
  const tally: Record<FactionId, number> = {};
  for (const b of ballots) if (b.for !== null && b.votes > 0) tally[b.for] = (tally[b.for] ?? 0) + b.votes;

  const outgoing = ctx.chancellor;
  const report: ElectionReport = { ballots, tally: sortedTally(tally), outgoing, elected: outgoing, how: 'majority', newUnit: null };
  const entries = Object.entries(tally);
  if (entries.length === 0) {
    report.how = outgoing === null ? 'no-votes' : 'no-votes-kept';
    return report;
  }
  const best = Math.max(...entries.map(([, v]) => v));
  const tied = entries.filter(([, v]) => v === best).map(([k]) => k);
  if (tied.length === 1) {
    report.elected = tied[0]!;
  } else if (outgoing !== null) {
    report.how = 'tie-kept';
  } else {
    const lot = drawLot(input.gameId, input.turn, tied);
    report.how = 'lot';
    report.elected = lot.winner;
    report.lot = { candidates: lot.candidates, seed: lot.seed, hash: lot.hash, index: lot.index };
  }
  return report;
}

/** Most votes first, then id: a stable order for the edict (R-EDICT-2). */
function sortedTally(tally: Record<FactionId, number>): Record<FactionId, number> {
  const out: Record<FactionId, number> = {};
  for (const [k, v] of Object.entries(tally).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out[k] = v;
  return out;
}

/**
 * R-ELEC-5: a newly elected faction gets a unit on the first free Capital cell; with none free it
 * takes the cell of the unit its `E:` names, else of the first Capital unit not its own.
 */
export function seatNewChancellor(ctx: TurnContext, report: ElectionReport, eliminate: string | null): void {
  const elected = report.elected;
  if (elected === null || elected === report.outgoing) return;
  const { board } = ctx;
  const free = board.capital.find((c) => ctx.isEmpty(c));
  if (free !== undefined) {
    ctx.create(elected, free);
    report.newUnit = { at: ctx.cellName(free), removed: null, rule: 'R-ELEC-5' };
    return;
  }
  const named = eliminate === null ? null : board.parseCell(eliminate);
  const removable = (c: CellIndex) => ctx.unitAt(c)!.side !== elected;
  let cell: CellIndex | undefined = named !== null && board.isCapital[named] && !ctx.isEmpty(named) && removable(named) ? named : undefined;
  cell ??= board.capital.find(removable);
  if (cell === undefined) return; // the Capital is wholly the elected faction's own
  const victim = ctx.unitAt(cell)!;
  ctx.remove(victim);
  ctx.create(elected, cell);
  report.newUnit = { at: ctx.cellName(cell), removed: { side: victim.side, at: ctx.cellName(cell) }, rule: 'R-ELEC-5' };
}
