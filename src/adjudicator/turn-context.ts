// The working position of one turn: units as records with numeric cells, an occupancy array,
// and the hostility relation in force (R-COMB-2/3). Each step of adjudicate.ts reads and updates it.
import type { Board, CellIndex } from './map.ts';
import { IMPERIAL, type FactionId, type OrderOutcome, type Side } from './types.ts';

export type EffectiveOrder =
  | { kind: 'hold' }
  | { kind: 'move'; to: CellIndex }
  | { kind: 'jump'; to: CellIndex }
  | { kind: 'politics'; place: CellIndex | null };

export interface UnitRecord {
  id: number;
  side: Side;
  /** Cell at the start of the turn. */
  start: CellIndex;
  at: CellIndex;
  alive: boolean;
  order: EffectiveOrder;
  /** The outcome reported for the order that governs this unit, if any. */
  outcome: OrderOutcome | null;
}

const HOLD: EffectiveOrder = Object.freeze({ kind: 'hold' });

export class TurnContext {
  readonly board: Board;
  readonly units: UnitRecord[];
  /** Unit id on each cell, -1 when empty. */
  readonly occupant: Int32Array;
  readonly inPlay: ReadonlySet<FactionId>;
  /** The Chancellor in office while the turn is played (the outgoing one in an election turn, R-ELEC-2). */
  readonly chancellor: FactionId | null;
  private readonly hostileTo: ReadonlyMap<FactionId, ReadonlySet<Side>>;

  constructor(
    board: Board,
    units: { side: Side; at: CellIndex }[],
    inPlay: ReadonlySet<FactionId>,
    chancellor: FactionId | null,
    hostility: ReadonlyMap<FactionId, ReadonlySet<Side>>,
  ) {
    this.board = board;
    this.inPlay = inPlay;
    this.chancellor = chancellor;
    this.hostileTo = hostility;
    this.occupant = new Int32Array(board.size).fill(-1);
    // Ids in board order, so every step iterates the same way whatever order the units came in
    // (R-EDICT-2): mark the cells, then read them back in order (linear, no sort).
    units.forEach((u, i) => (this.occupant[u.at] = i));
    this.units = [];
    for (let cell = 0; cell < board.size; cell++) {
      const i = this.occupant[cell]!;
      if (i < 0) continue;
      const id = this.units.length;
      this.occupant[cell] = id;
      this.units.push({ id, side: units[i]!.side, start: cell, at: cell, alive: true, order: HOLD, outcome: null });
    }
  }

  unitAt(cell: CellIndex): UnitRecord | null {
    const id = this.occupant[cell]!;
    return id < 0 ? null : this.units[id]!;
  }

  /** A planet of a faction not in play (R-SETUP-3). */
  isNoMansLand(cell: CellIndex): boolean {
    const owner = this.board.planetOwner[cell];
    return owner !== undefined && !this.inPlay.has(owner);
  }

  /**
   * Does `attacker` count against `target`? One-way (R-COMB-2); the Imperial Troops use the
   * Chancellor's list, and the Chancellor's faction and the troops are never hostile to each
   * other (R-COMB-3).
   */
  isHostile(attacker: Side, target: Side): boolean {
    if (attacker === target) return false;
    if (attacker === IMPERIAL) {
      if (this.chancellor === null || target === this.chancellor) return false;
      return this.hostileTo.get(this.chancellor)?.has(target) ?? false;
    }
    if (target === IMPERIAL && attacker === this.chancellor) return false;
    return this.hostileTo.get(attacker)?.has(target) ?? false;
  }

  /** Puts a unit on a cell (creation, advance, landing). The cell must be empty. */
  place(unit: UnitRecord, cell: CellIndex): void {
    if (this.occupant[unit.at] === unit.id) this.occupant[unit.at] = -1;
    unit.at = cell;
    this.occupant[cell] = unit.id;
  }

  remove(unit: UnitRecord): void {
    if (this.occupant[unit.at] === unit.id) this.occupant[unit.at] = -1;
    unit.alive = false;
  }

  create(side: Side, cell: CellIndex): UnitRecord {
    const unit: UnitRecord = {
      id: this.units.length,
      side,
      start: cell,
      at: cell,
      alive: true,
      order: HOLD,
      outcome: null,
    };
    this.units.push(unit);
    this.occupant[cell] = unit.id;
    return unit;
  }

  /** Living units in board order (R-BOARD-3). */
  livingInBoardOrder(): UnitRecord[] {
    const out: UnitRecord[] = [];
    for (let c = 0; c < this.board.size; c++) {
      const id = this.occupant[c]!;
      if (id >= 0) out.push(this.units[id]!);
    }
    return out;
  }

  cellName(cell: CellIndex): string {
    return this.board.name(cell);
  }
}
