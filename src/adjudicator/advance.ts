// Advance after combat (R-ADV-1..4): each freed cell takes one hostile unit that counted towards
// the elimination and is still on the board; the unit that ordered a move into the cell first,
// then board order, in two passes over the freed cells in board order.
import type { CellIndex } from './map.ts';
import type { Fall } from './combat.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import type { Advance } from './types.ts';

export function resolveAdvances(ctx: TurnContext, falls: readonly Fall[]): Advance[] {
  const freed = falls
    .map((f) => ({ cell: f.cell, candidates: f.by.filter((u) => u.alive).sort((a, b) => a.at - b.at) }))
    .sort((a, b) => a.cell - b.cell);
  const advanced = new Set<number>();
  const taken = new Set<CellIndex>();
  const out: Advance[] = [];
  const orderedInto = (u: UnitRecord, cell: CellIndex) => u.order.kind === 'move' && u.order.to === cell;

  const fill = (cell: CellIndex, pool: UnitRecord[], chosen: UnitRecord) => {
    const from = chosen.at;
    ctx.place(chosen, cell);
    advanced.add(chosen.id);
    taken.add(cell);
    out.push({
      side: chosen.side,
      from: ctx.cellName(from),
      to: ctx.cellName(cell),
      rule: orderedInto(chosen, cell) ? 'R-ADV-2' : pool.length > 1 ? 'R-ADV-4' : 'R-ADV-1',
      contested: pool.length > 1,
      candidates: pool.map((u) => ctx.cellName(u.at === cell ? from : u.at)),
    });
  };

  // Pass 1: cells with a candidate that ordered a move into them (R-ADV-4).
  for (const f of freed) {
    const pool = f.candidates.filter((u) => !advanced.has(u.id));
    const mover = pool.find((u) => orderedInto(u, f.cell));
    if (mover) fill(f.cell, pool, mover);
  }
  // Pass 2: every cell still empty takes its first remaining candidate in board order.
  for (const f of freed) {
    if (taken.has(f.cell)) continue;
    const pool = f.candidates.filter((u) => !advanced.has(u.id));
    if (pool.length) fill(f.cell, pool, pool[0]!);
  }
  return out.sort((a, b) => ctx.board.parseCell(a.to)! - ctx.board.parseCell(b.to)!);
}
