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

export function resolveCombat(ctx: TurnContext): Fall[] {
  const { board } = ctx;
  const hostileAt = (cell: CellIndex | null, target: UnitRecord): UnitRecord | null => {
    if (cell === null) return null;
    const u = ctx.unitAt(cell);
    return u && ctx.isHostile(u.side, target.side) ? u : null;
  };
  const falls: Fall[] = [];
  for (const u of ctx.livingInBoardOrder()) {
    const n = hostileAt(board.north(u.at), u);
    const w = hostileAt(board.west(u.at), u);
    const s = hostileAt(board.south(u.at), u);
    const e = hostileAt(board.east(u.at), u);
    if (u.side === IMPERIAL) {
      // R-COMB-4: only hostile units on two opposite sides bring a troop down.
      const by: UnitRecord[] = [];
      if (n && s) by.push(n, s);
      if (w && e) by.push(w, e);
      if (by.length) falls.push({ unit: u, cell: u.at, by: sortByCell(by), rule: 'R-COMB-4' });
    } else {
      const by = [n, w, s, e].filter((x): x is UnitRecord => x !== null);
      if (by.length >= 2) falls.push({ unit: u, cell: u.at, by: sortByCell(by), rule: 'R-COMB-1' });
    }
  }
  // Simultaneous (R-COMB-5): decide everything first, then remove.
  for (const f of falls) {
    ctx.remove(f.unit);
    // R-POL-1: politics counts only if the unit is still on the board after combat.
    if (f.unit.order.kind === 'politics' && f.unit.outcome) {
      Object.assign(f.unit.outcome, { result: 'politics-lost', rule: 'R-POL-1', reason: 'eliminated' });
    }
  }
  return falls;
}

function sortByCell(list: UnitRecord[]): UnitRecord[] {
  return [...list].sort((a, b) => a.at - b.at);
}
