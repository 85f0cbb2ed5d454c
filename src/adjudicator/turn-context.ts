// The working position of one turn: units as records with numeric cells, an occupancy array,
// and the hostility relation in force (R-COMB-2/3). Each step of adjudicate.ts reads and updates it.
import type { Board, CellIndex } from './map.ts';
import type { Position } from './state-check.ts';
import { IMPERIAL, type FactionId, type OrderKind, type OrderOutcome, type Side, type Unit } from './types.ts';

/** What a unit carries out this turn: nothing, or a valid order of one of the kinds (R-ORD-2). */
type UnitOrder = 'hold' | OrderKind;

export interface UnitRecord {
  id: number;
  side: Side;
  /** `side` as a number (Board.sides), for the per-side tables. */
  sideNo: number;
  /** Cell at the start of the turn. */
  start: CellIndex;
  at: CellIndex;
  alive: boolean;
  order: UnitOrder;
  /** The cell its order names: a move's or a jump's target, where politics puts a troop (-1: none). */
  target: CellIndex;
  /** The outcome reported for the order that governs this unit, if any. */
  outcome: OrderOutcome | null;
  /** Index of the last order its sheet gives it (R-ORD-5), -1 for none: set while orders are assigned. */
  lastOrder: number;
}

/** Hostility in force, by faction: the sides it named, in the order named (R-ORD-1, R-TURN-5). */
export type Hostility = ReadonlyMap<FactionId, readonly Side[]>;

export class TurnContext {
  readonly board: Board;
  /** Every unit by id; the ids of the units at the start follow board order of their cells. */
  readonly units: UnitRecord[];
  /** Factions in play, in R-SETUP-1 order. */
  readonly factions: readonly FactionId[];
  /** The Chancellor in office while the turn is played (the outgoing one in an election turn, R-ELEC-2). */
  readonly chancellor: FactionId | null;
  /** `chancellor` as a side number, -1 for none. */
  readonly chancellorNo: number;
  /** Where each side stands in `factions`, by side number; -1 for the troops and factions not in play. */
  private readonly factionIndexOf: number[];
  /** Unit id on each cell, -1 when empty. */
  private readonly occupant: Int32Array;
  /** hostile[a * sides + t]: a unit of side a counts against one of side t (R-COMB-2/3), by side number. */
  private readonly hostile: boolean[];
  private readonly sideCount: number;

  /**
   * `units[i]` stands on `position.cells[i]`: a position checked by state-check.ts, or read as it
   * comes for a review (review.ts), where a unit off the board (cell -1) is left out.
   */
  constructor(
    board: Board,
    units: readonly { side: Side }[],
    position: Position,
    factions: readonly FactionId[],
    chancellor: FactionId | null,
    hostility: Hostility,
  ) {
    this.board = board;
    this.factions = factions;
    this.factionIndexOf = new Array<number>(board.sides.length).fill(-1);
    for (let i = 0; i < factions.length; i++) this.factionIndexOf[board.sideNumber(factions[i]!)] = i;
    this.chancellor = chancellor;
    this.chancellorNo = chancellor === null ? -1 : board.sideNumber(chancellor);
    this.hostile = hostilityTable(board, chancellor, hostility);
    this.sideCount = board.sides.length;
    this.occupant = new Int32Array(board.size).fill(-1);
    // Ids in board order, so every step iterates the same way whatever order the units came in
    // (R-EDICT-2): mark the cells, then read them back in order (linear, no sort).
    const { cells, sides } = position;
    for (let i = 0; i < cells.length; i++) if (cells[i]! >= 0) this.occupant[cells[i]!] = i;
    this.units = [];
    for (let cell = 0; cell < board.size; cell++) {
      const i = this.occupant[cell]!;
      if (i < 0) continue;
      const id = this.units.length;
      this.occupant[cell] = id;
      this.units.push({
        id,
        side: units[i]!.side,
        sideNo: sides[i]!,
        start: cell,
        at: cell,
        alive: true,
        order: 'hold',
        target: -1,
        outcome: null,
        lastOrder: -1,
      });
    }
  }

  unitAt(cell: CellIndex): UnitRecord | null {
    const id = this.occupant[cell]!;
    return id < 0 ? null : this.units[id]!;
  }

  isEmpty(cell: CellIndex): boolean {
    return this.occupant[cell] === -1;
  }

  /** Where a side stands in `factions`, by its number; -1 for the troops and factions not in play. */
  factionIndex(sideNo: number): number {
    return this.factionIndexOf[sideNo] ?? -1;
  }

  /** A planet of a faction not in play (R-SETUP-3). */
  isNoMansLand(cell: CellIndex): boolean {
    const owner = this.board.planetOwnerNo[cell]!;
    return owner >= 0 && this.factionIndexOf[owner]! < 0;
  }

  /**
   * Does `attacker` count against `target`? One-way (R-COMB-2); the Imperial Troops use the
   * Chancellor's list, and the Chancellor's faction and the troops are never hostile to each
   * other (R-COMB-3).
   */
  isHostile(attacker: UnitRecord, target: UnitRecord): boolean {
    return this.hostile[attacker.sideNo * this.sideCount + target.sideNo]!;
  }

  /** Moves a unit to a cell (a move, an advance, a landing). The cell must be empty. */
  place(unit: UnitRecord, cell: CellIndex): void {
    this.leave(unit);
    unit.at = cell;
    this.occupant[cell] = unit.id;
  }

  /** Takes a unit off its cell, keeping it alive: a mover or jumper in flight (R-MOVE-2, R-HYP-2). */
  leave(unit: UnitRecord): void {
    if (this.occupant[unit.at] === unit.id) this.occupant[unit.at] = -1;
  }

  remove(unit: UnitRecord): void {
    this.leave(unit);
    unit.alive = false;
  }

  create(side: Side, cell: CellIndex): UnitRecord {
    const unit: UnitRecord = {
      id: this.units.length,
      side,
      sideNo: this.board.sideNumber(side),
      start: cell,
      at: cell,
      alive: true,
      order: 'hold',
      target: -1,
      outcome: null,
      lastOrder: -1,
    };
    this.units.push(unit);
    this.occupant[cell] = unit.id;
    return unit;
  }

  /** The living units in board order (R-BOARD-3), as the edict lists them. */
  livingUnits(): Unit[] {
    const out: Unit[] = [];
    for (let c = 0; c < this.board.size; c++) {
      const id = this.occupant[c]!;
      if (id >= 0) out.push({ side: this.units[id]!.side, at: this.board.name(c) });
    }
    return out;
  }

  cellName(cell: CellIndex): string {
    return this.board.name(cell);
  }
}

/** The hostility relation of the turn as a table by side number, R-COMB-3 applied once here. */
function hostilityTable(board: Board, chancellor: FactionId | null, hostility: Hostility): boolean[] {
  const n = board.sides.length;
  const imperial = board.sideNumber(IMPERIAL);
  const ch = chancellor === null ? -1 : board.sideNumber(chancellor);
  const table = new Array<boolean>(n * n).fill(false);
  hostility.forEach((list, f) => {
    const a = board.sideNumber(f);
    for (const side of list) {
      const t = board.sideNumber(side);
      // The Chancellor's faction and the troops are never hostile to each other.
      if (a === t || (a === ch && t === imperial)) continue;
      table[a * n + t] = true;
      // The troops use the Chancellor's list.
      if (a === ch) table[imperial * n + t] = true;
    }
  });
  return table;
}
