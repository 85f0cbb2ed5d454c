// Maps are data (R-BOARD-5): a JSON file validated with zod, turned into a Board with numeric
// cell indices so that resolution works on arrays, not strings.
import { z } from 'zod';
import classicJson from '../../maps/classic.json' with { type: 'json' };
import { IMPERIAL, type FactionId, type Side } from './types.ts';

const cellText = z.string().regex(/^[A-Za-z]\d{1,3}$/);

const namesSchema = z.object({
  it: z.array(z.string().min(1)).min(1),
  en: z.array(z.string().min(1)).min(1),
});

/**
 * The Italian article of a side's Italian display name (`gli Hutt`, `i Sith`, `le Truppe Imperiali`),
 * as the Italian rulebook writes them ("i Cavalieri", "i Mercanti", "i Fondatori"): sentences such
 * as "inviato agli Aristocratici" need it. Optional: without it a rule guesses (src/text/italian.ts).
 */
const articleSchema = z.object({ it: z.enum(['il', 'lo', 'la', 'i', 'gli', 'le']) }).optional();

const mapSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    columns: z
      .array(z.string().regex(/^[A-Z]$/))
      .min(1)
      .max(26),
    rows: z.number().int().min(1).max(999),
    capital: z.array(cellText).min(1),
    imperial: z.object({ names: namesSchema, article: articleSchema }),
    factions: z
      .array(
        z.object({
          id: z.string().regex(/^[a-z][a-z0-9-]*$/),
          home: cellText,
          homeName: z.string().min(1),
          system: z.array(cellText),
          article: articleSchema,
          names: namesSchema,
        }),
      )
      .min(1),
    extraPlanets: z.array(cellText).default([]),
  })
  .strict();

export type MapData = z.infer<typeof mapSchema>;
export type FactionData = MapData['factions'][number];

/** A cell as an index: column-major, so ascending index is board order (R-BOARD-3). */
export type CellIndex = number;

export class Board {
  readonly map: MapData;
  readonly cols: number;
  readonly rows: number;
  readonly size: number;
  /** Capital cells in the map's order (R-ELEC-5 fills them in this order). */
  readonly capital: readonly CellIndex[];
  readonly isCapital: Uint8Array;
  readonly isPlanet: Uint8Array;
  /** Every planet cell, in board order. */
  readonly planets: readonly CellIndex[];
  /** Faction whose home or system planet a cell is, or undefined. */
  readonly planetOwner: (FactionId | undefined)[];
  readonly factionIds: readonly FactionId[];
  readonly factions: ReadonlyMap<FactionId, FactionData>;
  readonly homeCell: ReadonlyMap<FactionId, CellIndex>;
  /** The side number (`sides`) of the faction whose home or system planet a cell is, -1 for none. */
  readonly planetOwnerNo: readonly number[];
  /** The side number of the faction whose home planet a cell is, -1 for none (R-CTRL-2). */
  readonly homeOwnerNo: readonly number[];
  /**
   * Every side, numbered: the factions in map order (R-SETUP-1), then the Imperial Troops. The
   * engine keeps per-side tables (hostility, counts) in arrays indexed by these numbers.
   */
  readonly sides: readonly Side[];
  private readonly sideNumbers: ReadonlyMap<Side, number>;
  private readonly columnIndex: Map<string, number>;
  private readonly names: string[];
  /** Column index by character code of an upper-case letter, -1 for none: parseCell's fast path. */
  private readonly columnByCode: Int8Array;
  private readonly moveNbrs: CellIndex[][];
  /** North, west, south, east of each cell (-1 off the board), 4 per cell: combat reads it. */
  private readonly orth: Int32Array;
  /** Column and row of each cell, for distances without division. */
  private readonly colOf: Int16Array;
  private readonly rowOf: Int16Array;

  constructor(map: MapData) {
    this.map = map;
    this.cols = map.columns.length;
    this.rows = map.rows;
    this.size = this.cols * this.rows;
    this.columnIndex = new Map(map.columns.map((c, i) => [c, i]));
    if (this.columnIndex.size !== this.cols) throw new Error(`map ${map.id}: repeated column letter`);
    this.names = [];
    for (let c = 0; c < this.cols; c++) for (let r = 1; r <= this.rows; r++) this.names.push(`${map.columns[c]}${r}`);
    this.columnByCode = new Int8Array(128).fill(-1);
    map.columns.forEach((c, i) => (this.columnByCode[c.charCodeAt(0)] = i));

    this.isCapital = new Uint8Array(this.size);
    this.isPlanet = new Uint8Array(this.size);
    this.planetOwner = new Array<FactionId | undefined>(this.size).fill(undefined);
    const mustCell = (t: string, what: string): CellIndex => {
      const i = this.parseCell(t);
      if (i === null) throw new Error(`map ${map.id}: ${what} ${t} is off the board`);
      return i;
    };
    const planet = (i: CellIndex, what: string) => {
      if (this.isPlanet[i]) throw new Error(`map ${map.id}: ${what} ${this.names[i]} is listed twice`);
      this.isPlanet[i] = 1;
    };
    this.capital = map.capital.map((t) => {
      const i = mustCell(t, 'capital cell');
      planet(i, 'capital cell');
      this.isCapital[i] = 1;
      return i;
    });
    const homeCell = new Map<FactionId, CellIndex>();
    for (const f of map.factions) {
      const home = mustCell(f.home, `home of ${f.id}`);
      homeCell.set(f.id, home);
      for (const c of [home, ...f.system.map((s) => mustCell(s, `system planet of ${f.id}`))]) {
        planet(c, `planet of ${f.id}`);
        this.planetOwner[c] = f.id;
      }
    }
    for (const t of map.extraPlanets) planet(mustCell(t, 'planet'), 'planet');
    this.homeCell = homeCell;
    this.planets = [...this.isPlanet.keys()].filter((i) => this.isPlanet[i]);
    this.factionIds = map.factions.map((f) => f.id);
    if (new Set(this.factionIds).size !== this.factionIds.length) throw new Error(`map ${map.id}: repeated faction id`);
    this.factions = new Map(map.factions.map((f) => [f.id, f]));
    this.sides = [...this.factionIds, IMPERIAL];
    this.sideNumbers = new Map(this.sides.map((side, i) => [side, i]));
    this.planetOwnerNo = this.planetOwner.map((f) => (f === undefined ? -1 : this.sideNumber(f)));
    const homeOwnerNo = new Array<number>(this.size).fill(-1);
    for (const [f, c] of homeCell) homeOwnerNo[c] = this.sideNumber(f);
    this.homeOwnerNo = homeOwnerNo;

    this.colOf = new Int16Array(this.size);
    this.rowOf = new Int16Array(this.size);
    for (let i = 0; i < this.size; i++) {
      this.colOf[i] = this.col(i);
      this.rowOf[i] = this.row(i);
    }
    this.orth = new Int32Array(this.size * 4);
    for (let i = 0; i < this.size; i++) {
      const c = this.col(i);
      const r = this.row(i);
      [this.at(c, r - 1), this.at(c - 1, r), this.at(c, r + 1), this.at(c + 1, r)].forEach((j, k) => (this.orth[i * 4 + k] = j ?? -1));
    }
    this.moveNbrs = [];
    for (let i = 0; i < this.size; i++) {
      const list: CellIndex[] = [];
      const c = this.col(i);
      const r = this.row(i);
      for (let dc = -1; dc <= 1; dc++)
        for (let dr = -1; dr <= 1; dr++) {
          if (dc === 0 && dr === 0) continue;
          const j = this.at(c + dc, r + dr);
          if (j !== null) list.push(j);
        }
      this.moveNbrs.push(list);
    }
  }

  col(i: CellIndex): number {
    return Math.floor(i / this.rows);
  }
  /** Zero-based row: 0 is the north edge (row 1). */
  row(i: CellIndex): number {
    return i % this.rows;
  }
  at(col: number, row: number): CellIndex | null {
    if (col < 0 || col >= this.cols || row < 0 || row >= this.rows) return null;
    return col * this.rows + row;
  }
  name(i: CellIndex): string {
    const n = this.names[i];
    if (n === undefined) throw new RangeError(`cell index ${i} is off the board`);
    return n;
  }

  /** Lenient reading (R-BOARD-1): any case, spaces, leading zeros. Null when off the board. */
  parseCell(text: string): CellIndex | null {
    const exact = this.parseCanonical(text);
    if (exact !== null) return exact;
    const m = /^\s*([A-Za-z])\s*0*(\d{1,3})\s*$/.exec(text);
    if (!m) return null;
    const c = this.columnIndex.get(m[1]!.toUpperCase());
    const r = Number(m[2]);
    if (c === undefined || r < 1 || r > this.rows) return null;
    return c * this.rows + (r - 1);
  }

  /**
   * The cell in column `letter` (the character code of an upper-case letter) and 1-based `row`, or
   * null off the board: the sheet reader's way in, which never builds the cell's text.
   */
  cellAt(letter: number, row: number): CellIndex | null {
    const col = this.columnByCode[letter] ?? -1;
    return col < 0 || row < 1 || row > this.rows ? null : col * this.rows + row - 1;
  }

  /** `B2`, `N10`: the spelling nearly every cell arrives in, read without a regular expression. */
  private parseCanonical(t: string): CellIndex | null {
    const n = t.length;
    if (n < 2 || n > 4) return null;
    const col = this.columnByCode[t.charCodeAt(0)] ?? -1;
    if (col < 0 || t.charCodeAt(1) === 48) return null;
    let row = 0;
    for (let i = 1; i < n; i++) {
      const d = t.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return null;
      row = row * 10 + d;
    }
    return row <= this.rows ? col * this.rows + row - 1 : null;
  }

  /** Canonical spelling of something shaped like a cell, on the board or not (for messages). */
  static canonical(text: string): string {
    if (isCanonicalShape(text)) return text;
    const m = /^\s*([A-Za-z])\s*0*(\d{1,3})\s*$/.exec(text);
    return m ? `${m[1]!.toUpperCase()}${Number(m[2])}` : text.trim().toUpperCase();
  }

  /** The number of a side (see `sides`), -1 for none of this map's. */
  sideNumber(side: Side): number {
    return this.sideNumbers.get(side) ?? -1;
  }

  /** 8-neighbourhood, for normal moves (R-BOARD-3). */
  moveNeighbours(i: CellIndex): readonly CellIndex[] {
    return this.moveNbrs[i]!;
  }
  isMoveAdjacent(a: CellIndex, b: CellIndex): boolean {
    return a !== b && this.distance(a, b) === 1;
  }
  /** Chebyshev distance (R-BOARD-3). I and L are neighbours because distance counts list positions (R-BOARD-2). */
  distance(a: CellIndex, b: CellIndex): number {
    return Math.max(Math.abs(this.colOf[a]! - this.colOf[b]!), Math.abs(this.rowOf[a]! - this.rowOf[b]!));
  }
  north(i: CellIndex): CellIndex | null {
    const j = this.orth[i * 4 + 0]!;
    return j < 0 ? null : j;
  }
  south(i: CellIndex): CellIndex | null {
    const j = this.orth[i * 4 + 2]!;
    return j < 0 ? null : j;
  }
  west(i: CellIndex): CellIndex | null {
    const j = this.orth[i * 4 + 1]!;
    return j < 0 ? null : j;
  }
  east(i: CellIndex): CellIndex | null {
    const j = this.orth[i * 4 + 3]!;
    return j < 0 ? null : j;
  }
  /** The 4 orthogonal neighbours used by combat (R-COMB-1), in the order north, west, south, east. */
  combatNeighbours(i: CellIndex): CellIndex[] {
    const out: CellIndex[] = [];
    for (const j of [this.north(i), this.west(i), this.south(i), this.east(i)]) if (j !== null) out.push(j);
    return out;
  }

  /** Home planet and system planets of a faction: its starting cells (R-SETUP-2). */
  startingCells(f: FactionId): CellIndex[] {
    const data = this.factions.get(f);
    if (!data) throw new Error(`unknown faction ${f}`);
    return [data.home, ...data.system].map((t) => this.parseCell(t)!);
  }
}

/** Upper-case letter then 1–3 digits without a leading zero: already canonical (a fast path). */
function isCanonicalShape(t: string): boolean {
  const n = t.length;
  if (n < 2 || n > 4) return false;
  const c = t.charCodeAt(0);
  if (c < 65 || c > 90) return false;
  if (t.charCodeAt(1) === 48) return false;
  for (let i = 1; i < n; i++) {
    const d = t.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

export function loadMap(json: unknown): Board {
  return new Board(mapSchema.parse(json));
}

let classic: Board | undefined;
/** The default map (R-BOARD-4), validated once. */
export function classicMap(): Board {
  classic ??= loadMap(classicJson);
  return classic;
}
