// Hyperspace jumps, after the move step and all at once (R-HYP-2..5).
import type { CellIndex } from './map.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import type { Destruction } from './types.ts';

/** Two or more jumpers into one cell, where the array otherwise holds the only one. */
const SEVERAL = -2;

/** Returns the destructions in board order of the cells the jumpers left. */
export function resolveJumps(ctx: TurnContext): Destruction[] {
  const jumpers: UnitRecord[] = [];
  for (const u of ctx.units) if (u.alive && u.order === 'jump') jumpers.push(u);
  if (jumpers.length === 0) return [];
  // Jumpers leave first, so another jump may land where one took off (R-HYP-2).
  for (const j of jumpers) ctx.leave(j);
  // R-HYP-5: the first jumper into each cell, or SEVERAL; collisions are rare, and only their
  // cells get the list of jumpers, in board order.
  const landing = new Int32Array(ctx.board.size).fill(-1);
  for (const j of jumpers) landing[j.target] = landing[j.target] === -1 ? j.id : SEVERAL;
  const collisions = new Map<CellIndex, UnitRecord[]>();
  for (const j of jumpers) {
    if (landing[j.target] !== SEVERAL) continue;
    const list = collisions.get(j.target);
    if (list) list.push(j);
    else collisions.set(j.target, [j]);
  }

  // Ids follow board order of the starting cells, and no jumper has moved: `destroyed` is in
  // board order of `from` as it is built.
  const destroyed: Destruction[] = [];
  for (const j of jumpers) {
    const cell = j.target;
    const from = ctx.cellName(j.start);
    let fate: Destruction | null = null;
    if (ctx.board.isPlanet[cell]) {
      fate = { side: j.side, from, at: ctx.cellName(cell), rule: 'R-HYP-3', reason: 'planet' };
    } else if (!ctx.isEmpty(cell)) {
      fate = { side: j.side, from, at: ctx.cellName(cell), rule: 'R-HYP-4', reason: 'occupied', with: [ctx.cellName(cell)] };
    } else if (collisions.has(cell)) {
      const others = collisions
        .get(cell)!
        .filter((o) => o !== j)
        .map((o) => ctx.cellName(o.start));
      fate = { side: j.side, from, at: ctx.cellName(cell), rule: 'R-HYP-5', reason: 'collision', with: others };
    }
    if (fate) {
      j.alive = false;
      destroyed.push(fate);
      if (j.outcome) {
        j.outcome.result = 'destroyed';
        j.outcome.rule = fate.rule;
        j.outcome.reason = ctx.isNoMansLand(cell) ? 'no-mans-land' : fate.reason === 'occupied' ? 'occupied-after-moves' : fate.reason;
        if (fate.with) j.outcome.with = fate.with;
      }
    } else if (j.outcome) {
      j.outcome.result = 'jumped';
      j.outcome.rule = 'R-HYP-2';
    }
  }
  // Survivors land together, after every fate was decided against the post-move position.
  for (const j of jumpers) if (j.alive) ctx.place(j, j.target);
  return destroyed;
}
