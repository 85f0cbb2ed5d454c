// Hyperspace jumps, after the move step and all at once (R-HYP-2..5).
import type { CellIndex } from './map.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import type { Destruction } from './types.ts';

export function resolveJumps(ctx: TurnContext): Destruction[] {
  const jumpers = ctx.units.filter((u) => u.alive && u.order.kind === 'jump');
  const to = (u: UnitRecord): CellIndex => (u.order.kind === 'jump' ? u.order.to : -1);
  // Jumpers leave first, so another jump may land where one took off (R-HYP-2).
  for (const j of jumpers) if (ctx.occupant[j.at] === j.id) ctx.occupant[j.at] = -1;
  const landing = new Map<CellIndex, UnitRecord[]>();
  for (const j of jumpers) landing.set(to(j), [...(landing.get(to(j)) ?? []), j]);

  const destroyed: Destruction[] = [];
  for (const j of jumpers) {
    const cell = to(j);
    const from = ctx.cellName(j.start);
    let fate: Destruction | null = null;
    if (ctx.board.isPlanet[cell]) {
      fate = { side: j.side, from, at: ctx.cellName(cell), rule: 'R-HYP-3', reason: 'planet' };
    } else if (ctx.occupant[cell] !== -1) {
      fate = { side: j.side, from, at: ctx.cellName(cell), rule: 'R-HYP-4', reason: 'occupied', with: [ctx.cellName(cell)] };
    } else if (landing.get(cell)!.length > 1) {
      const others = landing.get(cell)!.filter((o) => o !== j).map((o) => ctx.cellName(o.start));
      fate = { side: j.side, from, at: ctx.cellName(cell), rule: 'R-HYP-5', reason: 'collision', with: others };
    }
    if (fate) {
      j.alive = false;
      destroyed.push(fate);
      if (j.outcome) {
        const reason = ctx.isNoMansLand(cell) ? 'no-mans-land' : fate.reason === 'occupied' ? 'occupied-after-moves' : fate.reason;
        Object.assign(j.outcome, { result: 'destroyed', rule: fate.rule, reason }, fate.with ? { with: fate.with } : {});
      }
    } else if (j.outcome) {
      Object.assign(j.outcome, { result: 'jumped', rule: 'R-HYP-2' });
    }
  }
  // Survivors land together, after every fate was decided against the post-move position.
  for (const j of jumpers) {
    if (!j.alive) continue;
    j.at = to(j);
    ctx.occupant[j.at] = j.id;
  }
  return destroyed;
}
