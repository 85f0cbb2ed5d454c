// From written orders to the order each unit will carry out (R-ORD-5, R-ORD-7, R-MOVE-1,
// R-HYP-1, R-POL-1, R-TURN-1). Every written order gets an outcome; invalid ones leave the unit
// holding. Results of valid orders are filled in by the later steps.
import type { CellIndex } from './map.ts';
import type { SheetReading } from './sheet.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import { IMPERIAL, type FactionId, type OrderOutcome, type Side, type WrittenOrder } from './types.ts';

const MAX_JUMP = 4; // R-HYP-1

/** Sides a sheet may order: its own, plus the Imperial Troops for the Chancellor (R-ORD-6). */
function ownsSide(faction: FactionId, side: Side, chancellor: FactionId | null): boolean {
  return side === faction || (side === IMPERIAL && faction === chancellor);
}

/** Why a written order is not carried out: a reason the renderer knows and the rule behind it. */
interface Invalid {
  invalid: string;
  rule: string;
}
const invalid = (reason: string, rule: string): Invalid => Object.freeze({ invalid: reason, rule });
const OFF_BOARD = {
  jump: invalid('off-board', 'R-HYP-1'),
  move: invalid('off-board', 'R-MOVE-1'),
  politics: invalid('off-board', 'R-ORD-7'),
};
const NOT_ADJACENT = invalid('not-adjacent', 'R-MOVE-1');
const NO_MANS_LAND = invalid('no-mans-land', 'R-SETUP-3');
const SAME_CELL = invalid('same-cell', 'R-HYP-1');
const TOO_FAR = invalid('too-far', 'R-HYP-1');
const NOT_ON_CAPITAL = invalid('not-on-capital', 'R-POL-1');

/** Why `unit` cannot carry out `w`, whose target cell is `to` (-1 off the board or none written); null when it can. */
function judge(ctx: TurnContext, unit: UnitRecord, w: WrittenOrder, to: CellIndex): Invalid | null {
  const { board } = ctx;
  if (w.to !== null && to < 0) return OFF_BOARD[w.kind];
  switch (w.kind) {
    case 'move':
      if (!board.isMoveAdjacent(unit.start, to)) return NOT_ADJACENT;
      if (ctx.isNoMansLand(to)) return NO_MANS_LAND;
      return null;
    case 'jump': {
      const d = board.distance(unit.start, to);
      if (d < 1 || d > MAX_JUMP) return d < 1 ? SAME_CELL : TOO_FAR;
      return null;
    }
    case 'politics':
      return board.isCapital[unit.start] ? null : NOT_ON_CAPITAL;
  }
}

function outcome(
  faction: FactionId,
  side: Side | null,
  w: WrittenOrder,
  result: OrderOutcome['result'],
  rule: string,
  reason?: string,
): OrderOutcome {
  const { canonical: order, kind, line } = w;
  return reason === undefined
    ? { faction, side, order, kind, line, result, rule }
    : { faction, side, order, kind, line, result, rule, reason };
}

/**
 * Applies one faction's written orders to its units. Returns one outcome per written order, in
 * the order written. `ignoreAll` is turn 1, when units take no orders (R-TURN-1).
 */
export function assignOrders(ctx: TurnContext, faction: FactionId, sheet: SheetReading, ignoreAll: boolean): OrderOutcome[] {
  const written = sheet.sheet.orders;
  // The unit each order names, and each unit's last order from this sheet (R-ORD-5). A unit
  // takes orders from one sheet only, its faction's (or the Chancellor's), so the index can be
  // kept on the unit.
  const units: (UnitRecord | null)[] = [];
  for (let i = 0; i < written.length; i++) {
    const from = sheet.from[i]!;
    const unit = from < 0 ? null : ctx.unitAt(from);
    if (unit && ownsSide(faction, unit.side, ctx.chancellor)) unit.lastOrder = i;
    units.push(unit);
  }

  const out: OrderOutcome[] = [];
  for (let i = 0; i < written.length; i++) {
    const w = written[i]!;
    const unit = units[i]!;
    if (sheet.from[i]! < 0) out.push(outcome(faction, null, w, 'invalid', 'R-ORD-7', 'off-board'));
    else if (!unit) out.push(outcome(faction, null, w, 'ignored', 'R-ORD-5', 'no-unit'));
    else if (!ownsSide(faction, unit.side, ctx.chancellor)) out.push(outcome(faction, unit.side, w, 'ignored', 'R-ORD-5', 'not-your-unit'));
    else if (unit.lastOrder !== i) out.push(outcome(faction, unit.side, w, 'superseded', 'R-ORD-5', 'superseded'));
    else if (ignoreAll) out.push(outcome(faction, unit.side, w, 'ignored', 'R-TURN-1', 'turn-1'));
    else {
      const invalid = judge(ctx, unit, w, sheet.to[i]!);
      if (invalid) out.push(outcome(faction, unit.side, w, 'invalid', invalid.rule, invalid.invalid));
      else {
        unit.order = w.kind;
        unit.target = sheet.to[i]!;
        // Provisional; the step that carries the order out replaces result, rule and reason.
        const o = outcome(faction, unit.side, w, 'moved', 'R-ORD-2');
        unit.outcome = o;
        out.push(o);
      }
    }
  }
  return out;
}
