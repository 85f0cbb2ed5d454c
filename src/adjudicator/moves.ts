// Normal moves, all at once (R-MOVE-2..5). A move succeeds when its target is empty at the end
// of the step; standoffs and swaps stall; rings of three or more turn; a move into a cell whose
// occupant stays is an attack when the mover is hostile to it.
import type { CellIndex } from './map.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';

const UNKNOWN = 0;
const VISITING = 1;
const SUCCEEDS = 2;
const FAILS = 3;

function target(u: UnitRecord): CellIndex {
  return u.order.kind === 'move' ? u.order.to : -1;
}

/** Carries out every valid move; an attacker (R-MOVE-5) keeps its order, which R-ADV-2 reads. */
export function resolveMoves(ctx: TurnContext): void {
  const movers = ctx.units.filter((u) => u.alive && u.order.kind === 'move');
  const status = new Uint8Array(ctx.units.length);
  const reason = new Map<number, 'standoff' | 'swap'>();
  // R-MOVE-3: two or more units moving into one cell all stall. Counted in an array, since
  // standoffs are rare; the lists of rivals are only built for the cells that have them.
  const movesInto = new Uint8Array(ctx.board.size);
  for (const m of movers) movesInto[target(m)] = movesInto[target(m)]! + 1; // at most 8: the neighbours
  const rivals = new Map<CellIndex, UnitRecord[]>();
  for (const m of movers) {
    const to = target(m);
    if (movesInto[to]! < 2) continue;
    const list = rivals.get(to);
    if (list) list.push(m);
    else rivals.set(to, [m]);
    status[m.id] = FAILS;
    reason.set(m.id, 'standoff');
  }

  /** The unit that currently blocks `m`, if it is itself a mover still to be decided. */
  const occupantMove = (m: UnitRecord): UnitRecord | null | 'stays' => {
    const occ = ctx.unitAt(target(m));
    if (!occ) return null;
    if (occ.order.kind !== 'move' || status[occ.id] === FAILS) return 'stays';
    return occ;
  };

  for (const first of movers) {
    if (status[first.id] !== UNKNOWN) continue;
    const path: UnitRecord[] = [];
    let cur: UnitRecord = first;
    for (;;) {
      if (status[cur.id] === VISITING) {
        // A closed ring: three or more all turn, a swap of two stalls (R-MOVE-4).
        const ring = path.slice(path.indexOf(cur));
        const ok = ring.length >= 3;
        for (const r of ring) {
          status[r.id] = ok ? SUCCEEDS : FAILS;
          if (!ok) reason.set(r.id, 'swap');
        }
        break;
      }
      if (status[cur.id] !== UNKNOWN) break;
      status[cur.id] = VISITING;
      path.push(cur);
      const next = occupantMove(cur);
      if (next === null) {
        status[cur.id] = SUCCEEDS;
        break;
      }
      if (next === 'stays') {
        status[cur.id] = FAILS;
        break;
      }
      cur = next;
    }
    // Everyone behind the decided unit follows it: a chain moves only if its head moves.
    for (let i = path.length - 1; i >= 0; i--) {
      const p = path[i]!;
      if (status[p.id] !== VISITING) continue;
      const next = ctx.unitAt(target(p))!;
      status[p.id] = status[next.id] === SUCCEEDS ? SUCCEEDS : FAILS;
    }
  }

  // Apply: vacate all successful movers first, then land them (simultaneous, R-MOVE-2).
  const winners = movers.filter((m) => status[m.id] === SUCCEEDS);
  for (const m of winners) if (ctx.occupant[m.at] === m.id) ctx.occupant[m.at] = -1;
  for (const m of winners) {
    m.at = target(m);
    ctx.occupant[m.at] = m.id;
    if (m.outcome) Object.assign(m.outcome, { result: 'moved', rule: 'R-MOVE-2' });
  }

  for (const m of movers) {
    if (status[m.id] === SUCCEEDS) continue;
    const to = target(m);
    const occ = ctx.unitAt(to); // after the step: the occupant that stayed, if any
    const why = reason.get(m.id);
    // Board order, not input order: the same position always gives the same edict (R-EDICT-2).
    const rivalCells = (rivals.get(to) ?? []).filter((r) => r !== m).sort((a, b) => a.start - b.start).map((r) => ctx.cellName(r.start));
    const withCells = why === 'standoff' ? rivalCells : occ ? [ctx.cellName(occ.at)] : [];
    if (occ && ctx.isHostile(m.side, occ.side)) {
      setOutcome(m, 'attacked', 'R-MOVE-5', why ?? 'occupied', withCells);
    } else if (why === 'standoff') {
      setOutcome(m, 'stalled', 'R-MOVE-3', 'standoff', withCells);
    } else if (why === 'swap') {
      setOutcome(m, 'stalled', 'R-MOVE-4', 'swap', withCells);
    } else {
      setOutcome(m, 'stalled', 'R-MOVE-5', occ && occ.order.kind === 'jump' ? 'jumper-still-there' : 'occupied', withCells);
    }
  }
}

function setOutcome(u: UnitRecord, result: 'attacked' | 'stalled', rule: string, reason: string, withCells: string[]): void {
  if (!u.outcome) return;
  u.outcome.result = result;
  u.outcome.rule = rule;
  u.outcome.reason = reason;
  if (withCells.length) u.outcome.with = withCells;
}
