// Advance after combat (R-ADV-1..4): each freed cell takes one hostile unit that counted towards
// the elimination and is still on the board; the unit that ordered a move into the cell first,
// then board order, in two passes over the freed cells in board order.
import type { CellIndex } from './map.ts';
import type { Fall } from './combat.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';
import type { Advance } from './types.ts';

interface Freed {
  cell: CellIndex;
  /** The hostile units that counted and are still on the board, in board order. */
  candidates: UnitRecord[];
  advance: Advance | null;
}

/**
 * `chosen`: freed cell → the cell of the candidate the referee chose for it, in an amendment after a
 * dispute (R-ADV-2: "the Chancellor's different choice may be applied by the referee"). A choice
 * that names no candidate of that cell is ignored.
 */
export function resolveAdvances(
  ctx: TurnContext,
  falls: readonly Fall[],
  chosen: ReadonlyMap<CellIndex, CellIndex> = new Map(),
): Advance[] {
  // Falls come in board order of their cells, and the units of each in board order (combat.ts);
  // nobody has moved since.
  const freed: Freed[] = falls.map((f) => ({ cell: f.cell, candidates: f.by.filter((u) => u.alive), advance: null }));
  const advanced = new Set<number>();
  const orderedInto = (u: UnitRecord, cell: CellIndex) => u.order === 'move' && u.target === cell;

  const fill = (f: Freed, pool: UnitRecord[], unit: UnitRecord, byReferee = false) => {
    const from = unit.at;
    ctx.place(unit, f.cell);
    advanced.add(unit.id);
    f.advance = {
      side: unit.side,
      from: ctx.cellName(from),
      to: ctx.cellName(f.cell),
      rule: byReferee || orderedInto(unit, f.cell) ? 'R-ADV-2' : pool.length > 1 ? 'R-ADV-4' : 'R-ADV-1',
      contested: pool.length > 1,
      candidates: pool.map((u) => ctx.cellName(u.at === f.cell ? from : u.at)),
      ...(byReferee ? { chosenByReferee: true } : {}),
    };
  };

  // Pass 0: the referee's choices in an amendment.
  for (const f of freed) {
    const want = chosen.get(f.cell);
    const pool = f.candidates.filter((u) => !advanced.has(u.id));
    const unit = want === undefined ? undefined : pool.find((u) => u.at === want);
    if (unit) fill(f, pool, unit, true);
  }
  // Pass 1: cells with a candidate that ordered a move into them (R-ADV-4).
  for (const f of freed) {
    if (f.advance) continue;
    const pool = f.candidates.filter((u) => !advanced.has(u.id));
    const mover = pool.find((u) => orderedInto(u, f.cell));
    if (mover) fill(f, pool, mover);
  }
  // Pass 2: every cell still empty takes its first remaining candidate in board order.
  for (const f of freed) {
    if (f.advance) continue;
    const pool = f.candidates.filter((u) => !advanced.has(u.id));
    if (pool.length) fill(f, pool, pool[0]!);
  }
  const out: Advance[] = [];
  for (const f of freed) if (f.advance) out.push(f.advance);
  return out;
}
