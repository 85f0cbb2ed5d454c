// From written orders to the order each unit will carry out (R-ORD-5, R-ORD-7, R-MOVE-1,
// R-HYP-1, R-POL-1, R-TURN-1). Every written order gets an outcome; invalid ones leave the unit
// holding. Results of valid orders are filled in by the later steps.
import type { CellIndex } from './map.ts';
import type { EffectiveOrder, TurnContext, UnitRecord } from './turn-context.ts';
import { IMPERIAL, type FactionId, type OrderOutcome, type Side, type WrittenOrder } from './types.ts';

const MAX_JUMP = 4; // R-HYP-1

/** Sides a sheet may order: its own, plus the Imperial Troops for the Chancellor (R-ORD-6). */
function ownsSide(faction: FactionId, side: Side, chancellor: FactionId | null): boolean {
  return side === faction || (side === IMPERIAL && faction === chancellor);
}

type Verdict = { order: EffectiveOrder } | { invalid: string; rule: string };

function judge(ctx: TurnContext, unit: UnitRecord, w: WrittenOrder): Verdict {
  const { board } = ctx;
  const to: CellIndex | null = w.to === null ? null : board.parseCell(w.to);
  if (w.to !== null && to === null) {
    return { invalid: 'off-board', rule: w.kind === 'jump' ? 'R-HYP-1' : w.kind === 'move' ? 'R-MOVE-1' : 'R-ORD-7' };
  }
  switch (w.kind) {
    case 'move':
      if (!board.isMoveAdjacent(unit.start, to!)) return { invalid: 'not-adjacent', rule: 'R-MOVE-1' };
      if (ctx.isNoMansLand(to!)) return { invalid: 'no-mans-land', rule: 'R-SETUP-3' };
      return { order: { kind: 'move', to: to! } };
    case 'jump': {
      const d = board.distance(unit.start, to!);
      if (d < 1 || d > MAX_JUMP) return { invalid: d < 1 ? 'same-cell' : 'too-far', rule: 'R-HYP-1' };
      return { order: { kind: 'jump', to: to! } };
    }
    case 'politics':
      if (!board.isCapital[unit.start]) return { invalid: 'not-on-capital', rule: 'R-POL-1' };
      return { order: { kind: 'politics', place: to } };
  }
}

function outcome(faction: FactionId, side: Side | null, w: WrittenOrder, result: OrderOutcome['result'], rule: string, reason?: string): OrderOutcome {
  const o: OrderOutcome = { faction, side, order: w.canonical, kind: w.kind, line: w.line, result, rule };
  if (reason !== undefined) o.reason = reason;
  return o;
}

/**
 * Applies one faction's written orders to its units. Returns one outcome per written order, in
 * the order written. `ignoreAll` is turn 1, when units take no orders (R-TURN-1).
 */
export function assignOrders(ctx: TurnContext, faction: FactionId, written: readonly WrittenOrder[], ignoreAll: boolean): OrderOutcome[] {
  const { board } = ctx;
  const lastFor = new Map<number, number>(); // unit id → index of its last order (R-ORD-5)
  const froms = written.map((w) => board.parseCell(w.from));
  const units: (UnitRecord | null)[] = froms.map((from, i) => {
    const unit = from === null ? null : ctx.unitAt(from);
    if (unit && ownsSide(faction, unit.side, ctx.chancellor)) lastFor.set(unit.id, i);
    return unit;
  });

  return written.map((w, i) => {
    const unit = units[i]!;
    if (froms[i] === null) return outcome(faction, null, w, 'invalid', 'R-ORD-7', 'off-board');
    if (!unit) return outcome(faction, null, w, 'ignored', 'R-ORD-5', 'no-unit');
    if (!ownsSide(faction, unit.side, ctx.chancellor)) return outcome(faction, unit.side, w, 'ignored', 'R-ORD-5', 'not-your-unit');
    if (lastFor.get(unit.id) !== i) return outcome(faction, unit.side, w, 'superseded', 'R-ORD-5', 'superseded');
    if (ignoreAll) return outcome(faction, unit.side, w, 'ignored', 'R-TURN-1', 'turn-1');
    const v = judge(ctx, unit, w);
    if ('invalid' in v) return outcome(faction, unit.side, w, 'invalid', v.rule, v.invalid);
    unit.order = v.order;
    // Provisional; the step that carries the order out replaces result, rule and reason.
    const o = outcome(faction, unit.side, w, 'moved', 'R-ORD-2');
    unit.outcome = o;
    return o;
  });
}
