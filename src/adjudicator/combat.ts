// Combat: every unit checked at once on the position after movement (R-COMB-1..5).
import type { CellIndex } from './map.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import { IMPERIAL } from './types.ts';

export interface Fall {
  unit: UnitRecord;
  cell: CellIndex;
  /** The hostile units that counted: for an Imperial Troop, only complete opposite pairs (R-ADV-1). */
  by: UnitRecord[];
  rule: string;
}

/** Returns the falls in board order, each with its hostile units in board order. */
export function resolveCombat(ctx: TurnContext): Fall[] {
  const { board } = ctx;
  /** The unit on `cell` if it counts against `target`. */
  const hostileAt = (cell: CellIndex | null, target: UnitRecord): UnitRecord | null => {
    if (cell === null) return null;
    const u = ctx.unitAt(cell);
    return u && ctx.isHostile(u, target) ? u : null;
  };
  const falls: Fall[] = [];
  for (const u of ctx.units) {
    if (!u.alive) continue;
    // West, north, south, east is board order: cells are numbered down each column (map.ts).
    const w = hostileAt(board.west(u.at), u);
    const n = hostileAt(board.north(u.at), u);
    const s = hostileAt(board.south(u.at), u);
    const e = hostileAt(board.east(u.at), u);
    let by: UnitRecord[];
    let rule: string;
    if (u.side === IMPERIAL) {
      // R-COMB-4: only hostile units on two opposite sides bring a troop down.
      const ns = n !== null && s !== null;
      const we = w !== null && e !== null;
      if (!ns && !we) continue;
      by = we && ns ? [w, n, s, e] : ns ? [n, s] : [w!, e!];
      rule = 'R-COMB-4';
    } else {
      if (+(w !== null) + +(n !== null) + +(s !== null) + +(e !== null) < 2) continue;
      by = [];
      if (w) by.push(w);
      if (n) by.push(n);
      if (s) by.push(s);
      if (e) by.push(e);
      rule = 'R-COMB-1';
    }
    falls.push({ unit: u, cell: u.at, by, rule });
  }
  // Units were visited by id, which after the moves is no longer board order.
  falls.sort((a, b) => a.cell - b.cell);
  // Simultaneous (R-COMB-5): decide everything first, then remove.
  for (const f of falls) {
    ctx.remove(f.unit);
    // R-POL-1: politics counts only if the unit is still on the board after combat.
    if (f.unit.order === 'politics' && f.unit.outcome) {
      f.unit.outcome.result = 'politics-lost';
      f.unit.outcome.rule = 'R-POL-1';
      f.unit.outcome.reason = 'eliminated';
    }
  }
  return falls;
}
