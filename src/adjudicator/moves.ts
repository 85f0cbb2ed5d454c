// Normal moves, all at once (R-MOVE-2..5). A move succeeds when its target is empty at the end
// of the step; standoffs and swaps stall; rings of three or more turn; a move into a cell whose
// occupant stays is an attack when the mover is hostile to it.
import type { CellIndex } from './map.ts';
import type { TurnContext, UnitRecord } from './turn-context.ts';

// A mover's status while the step is decided. The last three are failures, with their reason.
const UNKNOWN = 0;
const VISITING = 1;
const SUCCEEDS = 2;
const FAILS = 3;
const STANDOFF = 4; // R-MOVE-3
const SWAP = 5; // R-MOVE-4

/** Two or more movers into one cell, where the array otherwise holds the only one. */
const SEVERAL = -2;

/** Where a unit moves to, -1 if it does not move. */
function target(u: UnitRecord): CellIndex {
  return u.order === 'move' ? u.target : -1;
}

/**
 * The other units ordered into `cell`, in board order: they stand around it, as moves go to a
 * neighbour. Right after the step too, for a standoff: none of its movers moved (R-MOVE-3).
 */
function rivalsFor(ctx: TurnContext, mover: UnitRecord, cell: CellIndex): UnitRecord[] {
  const out: UnitRecord[] = [];
  for (const n of ctx.board.moveNeighbours(cell)) {
    const u = ctx.unitAt(n);
    if (u && u !== mover && target(u) === cell) out.push(u);
  }
  return out;
}

/** Carries out every valid move; an attacker (R-MOVE-5) keeps its order, which R-ADV-2 reads. */
export function resolveMoves(ctx: TurnContext): void {
  const movers: UnitRecord[] = [];
  for (const u of ctx.units) if (u.alive && u.order === 'move') movers.push(u);
  if (movers.length === 0) return;
  const status = new Uint8Array(ctx.units.length);
  // R-MOVE-3: two or more units moving into one cell all stall. The first mover into each cell,
  // or SEVERAL.
  const into = new Int32Array(ctx.board.size).fill(-1);
  for (const m of movers) into[target(m)] = into[target(m)] === -1 ? m.id : SEVERAL;
  for (const m of movers) if (into[target(m)] === SEVERAL) status[m.id] = STANDOFF;

  /** The unit that `m` follows: its target's occupant, before anyone moves. */
  const next = (m: UnitRecord): UnitRecord => ctx.unitAt(target(m))!;
  for (const first of movers) {
    if (status[first.id] !== UNKNOWN) continue;
    // Follow the chain of movers, each into the cell of the next, until one is decided.
    let cur = first;
    for (;;) {
      const s = status[cur.id]!;
      if (s === VISITING) {
        // Back to a unit of this chain: a closed ring. Three or more all turn, a swap of two
        // stalls (R-MOVE-4).
        let size = 0;
        let r = cur;
        do {
          size++;
          r = next(r);
        } while (r !== cur);
        const ring = size >= 3 ? SUCCEEDS : SWAP;
        do {
          status[r.id] = ring;
          r = next(r);
        } while (r !== cur);
        break;
      }
      if (s !== UNKNOWN) break;
      status[cur.id] = VISITING;
      const occ = ctx.unitAt(target(cur));
      if (occ === null) {
        status[cur.id] = SUCCEEDS;
        break;
      }
      // The occupant stays: it holds, jumps, does politics, or its own move already failed.
      if (occ.order !== 'move' || status[occ.id]! >= FAILS) {
        status[cur.id] = FAILS;
        break;
      }
      cur = occ;
    }
    // Everyone behind the decided unit follows it: a chain moves only if its head moves.
    let head = first;
    while (status[head.id] === VISITING) head = next(head);
    const fate = status[head.id] === SUCCEEDS ? SUCCEEDS : FAILS;
    for (let p = first; status[p.id] === VISITING; p = next(p)) status[p.id] = fate;
  }

  // Apply: vacate all successful movers first, then land them (simultaneous, R-MOVE-2).
  for (const m of movers) if (status[m.id] === SUCCEEDS) ctx.leave(m);
  for (const m of movers) {
    if (status[m.id] !== SUCCEEDS) continue;
    ctx.place(m, target(m));
    if (m.outcome) {
      m.outcome.result = 'moved';
      m.outcome.rule = 'R-MOVE-2';
    }
  }

  for (const m of movers) {
    const s = status[m.id]!;
    if (s === SUCCEEDS) continue;
    const occ = ctx.unitAt(target(m)); // after the step: the occupant that stayed, if any
    // Board order, not input order: the same position always gives the same edict (R-EDICT-2).
    const withCells = s === STANDOFF ? rivalsFor(ctx, m, target(m)).map((r) => ctx.cellName(r.start)) : occ ? [ctx.cellName(occ.at)] : [];
    if (occ && ctx.isHostile(m, occ)) {
      setOutcome(m, 'attacked', 'R-MOVE-5', s === STANDOFF ? 'standoff' : s === SWAP ? 'swap' : 'occupied', withCells);
    } else if (s === STANDOFF) {
      setOutcome(m, 'stalled', 'R-MOVE-3', 'standoff', withCells);
    } else if (s === SWAP) {
      setOutcome(m, 'stalled', 'R-MOVE-4', 'swap', withCells);
    } else {
      setOutcome(m, 'stalled', 'R-MOVE-5', occ && occ.order === 'jump' ? 'jumper-still-there' : 'occupied', withCells);
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
