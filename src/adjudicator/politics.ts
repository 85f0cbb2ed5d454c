// Politics (R-POL-1..3), carried out by the units still on the board after combat.
import type { CellIndex } from './map.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import { IMPERIAL, type PoliticsReport } from './types.ts';

export interface PoliticsStep {
  report: PoliticsReport;
  /** Units whose `#` counted; R-POL-3 is judged later, against the Chancellor at the end of the turn. */
  completed: UnitRecord[];
}

/** A cell where a new Imperial Troop may appear (R-POL-2; no-man's land is impassable, D-POL-1). */
function isFreeOutsideCapital(ctx: TurnContext, cell: CellIndex | null): cell is CellIndex {
  return cell !== null && !ctx.board.isCapital[cell] && !ctx.isNoMansLand(cell) && ctx.isEmpty(cell);
}

function troopCell(ctx: TurnContext, capitalCell: CellIndex, named: CellIndex | null): CellIndex | null {
  const { board } = ctx;
  const around = [board.north(capitalCell), board.west(capitalCell), board.south(capitalCell), board.east(capitalCell)];
  if (named !== null && around.includes(named) && isFreeOutsideCapital(ctx, named)) return named;
  for (const c of around) if (isFreeOutsideCapital(ctx, c)) return c;
  return null;
}

export function resolvePolitics(ctx: TurnContext, capitalFullAtStart: boolean): PoliticsStep {
  // Ids follow board order of the starting cells: `completed` is in board order as it is built.
  const completed: UnitRecord[] = [];
  for (const u of ctx.units) if (u.alive && u.order === 'politics') completed.push(u);
  for (const u of completed) {
    if (!u.outcome) continue;
    u.outcome.result = 'politics';
    if (u.side === IMPERIAL) {
      u.outcome.rule = 'R-POL-2';
      u.outcome.reason = 'imperial-no-effect';
    } else u.outcome.rule = 'R-POL-1';
  }

  const report: PoliticsReport = { completed: [], troop: null, electionsCalledBy: [] };
  report.completed = completed.map((u) => ({ side: u.side, at: ctx.cellName(u.at) }));
  const chancellorUnits = completed.filter((u) => u.side === ctx.chancellor);
  if (chancellorUnits.length) {
    if (!capitalFullAtStart) report.troopRefused = 'capital-not-full';
    else {
      // At most one troop a turn: the first unit in board order that can place one (R-POL-2).
      for (const u of chancellorUnits) {
        const place = u.target >= 0 ? u.target : null;
        const cell = troopCell(ctx, u.start, place);
        if (cell === null) continue;
        ctx.create(IMPERIAL, cell);
        report.troop = { at: ctx.cellName(cell), by: ctx.cellName(u.start), rule: 'R-POL-2' };
        if (u.outcome) u.outcome.rule = 'R-POL-2';
        break;
      }
      if (!report.troop) report.troopRefused = 'no-free-cell';
    }
  }
  return { report, completed };
}

/** R-POL-3: a completed `#` by a unit not of the Chancellor's faction at the end of the turn. */
export function electionsCalled(completed: readonly UnitRecord[], chancellorAtEnd: string | null, ctx: TurnContext) {
  return completed.filter((u) => u.side !== IMPERIAL && u.side !== chancellorAtEnd).map((u) => ({ side: u.side, at: ctx.cellName(u.at) }));
}
