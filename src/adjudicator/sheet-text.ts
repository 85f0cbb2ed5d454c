// The characters of an order sheet: what mail clients put in place of the symbols players mean
// (MAIL.md, R-ORD-2), how a line that is not plain ASCII is normalised, and the scanner that reads
// cells and orders where they stand in the text (R-BOARD-1, R-ORD-2). sheet.ts reads lines with
// these; a line is a stretch of a string, from a start to an end, so nothing is sliced to read it.
import type { Board, CellIndex } from './map.ts';
import type { WrittenOrder } from './types.ts';

export type SubstitutionKind = 'normalised-dash' | 'normalised-symbol' | 'normalised-space' | 'normalised-zero-width';

// What mail clients substitute (MAIL.md, R-ORD-2). Tabs are ordinary whitespace, read as spaces
// without comment. The leading byte order mark is dropped silently before this table applies.
const SUBSTITUTES = new Map<string, { kind: SubstitutionKind; to: string }>();
const put = (chars: string, kind: SubstitutionKind, to: string) => {
  for (const c of chars) SUBSTITUTES.set(c, { kind, to });
};
put('\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D', 'normalised-dash', '-');
put('\uFF1D', 'normalised-symbol', '=');
put('\uFF03', 'normalised-symbol', '#');
put('\uFF1A', 'normalised-symbol', ':');
put('\u00A0\u0085\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A', 'normalised-space', ' ');
put('\u2028\u2029\u202F\u205F\u3000', 'normalised-space', ' ');
put('\u200B\u200C\u200D\u200E\u200F\u2060\uFEFF\u00AD', 'normalised-zero-width', '');
const SUBSTITUTE_RE = new RegExp(
  `[${[...SUBSTITUTES.keys()].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`,
  'g',
);

/** How a substitution is shown to the player: invisible characters by code point. */
export function shown(c: string, kind: SubstitutionKind): string {
  if (kind === 'normalised-dash' || kind === 'normalised-symbol') return c;
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A line's substitutions, in the order met. */
export type Subs = { kind: SubstitutionKind; from: string; to: string }[];

/**
 * A line that is not plain ASCII: substitutions applied and reported, and spaces collapsed once
 * here, since they are free around symbols and inside cells (R-BOARD-1, R-ORD-2).
 */
export function normaliseLine(line: string): { text: string; subs: Subs } {
  const subs: Subs = [];
  const text = line.replace(SUBSTITUTE_RE, (c) => {
    const s = SUBSTITUTES.get(c)!;
    subs.push({ kind: s.kind, from: c, to: s.to });
    return s.to;
  });
  return { text: text.replace(/\s+/g, ' ').trim(), subs };
}

export const NO_SUBS: Subs = [];

// Character codes the reader looks for.
export const SPACE = 32;
const HASH = 35;
export const STAR = 42;
export const COMMA = 44;
export const DASH = 45;
export const DOT = 46;
export const COLON = 58;
export const SEMICOLON = 59;
const EQUALS = 61;
export const BULLET = 0x2022;
export const LF = 10;
export const CR = 13;

export const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isOrderSymbol = (c: number) => c === DASH || c === EQUALS || c === HASH;
/** What may separate orders on a line (R-ORD-2): spaces, commas, semicolons, full stops. */
const isOrderSeparator = (c: number) => c === SPACE || c === COMMA || c === SEMICOLON || c === DOT;

// The scanner reads the text of a line up to `end` (the line may lie inside the whole sheet): plain
// functions of the text and a position, so the hot loop works on local variables.

/** The character at `p`, or -1 past the end of the line. */
export const charAt = (t: string, p: number, end: number) => (p < end ? t.charCodeAt(p) : -1);

/** Past one space at `p`, if there is one: spaces are free around symbols and in cells (R-ORD-2). */
export const skipSpace = (t: string, p: number, end: number) => (p < end && t.charCodeAt(p) === SPACE ? p + 1 : p);

/**
 * The cell readCell found last: the character code of its column letter (upper case), its row,
 * and whether the letter was written in lower case. Scratch, rather than an object per cell: its
 * caller reads it at once.
 */
const cell = { letter: 0, row: 0, lower: false };

/**
 * A cell as written at `p` (R-BOARD-1): a letter, an optional space, 1–3 digits not followed by
 * another digit (`b 02` is B2). Returns the position past it, with its letter and row in `cell`;
 * -1 when there is no cell at `p`.
 */
function readCell(t: string, p: number, end: number): number {
  let c = charAt(t, p, end);
  const lower = c >= 97 && c <= 122;
  if (lower) c -= 32;
  if (c < 65 || c > 90) return -1;
  p = skipSpace(t, p + 1, end);
  const first = p;
  let row = 0;
  while (p - first < 4) {
    const d = charAt(t, p, end) - 48;
    if (!(d >= 0 && d <= 9)) break;
    row = row * 10 + d;
    p++;
  }
  if (p === first || p - first > 3) return -1;
  cell.letter = c;
  cell.row = row;
  cell.lower = lower;
  return p;
}

/** Canonical text of the cell just read: the board's name for it, or built when off the board (`Z9`). */
function cellText(board: Board, index: CellIndex): string {
  return index >= 0 ? board.name(index) : String.fromCharCode(cell.letter) + cell.row;
}

/** Orders read from a sheet, and the cells of each as indices (-1 off the board, or none written). */
export interface OrderList {
  orders: WrittenOrder[];
  from: CellIndex[];
  to: CellIndex[];
}

/**
 * Orders on the line in `text` from `t` to `end` (R-ORD-2): `B2-C3`, `B2=F6`, `N9#`, `N9#M9`,
 * separated by commas, semicolons, full stops or spaces, with an optional trailing separator.
 * Appends them to `into`; false when the line is not all orders (the caller takes them back).
 */
export function scanOrders(board: Board, text: string, t: number, end: number, line: number, into: OrderList): boolean {
  let p = t;
  for (;;) {
    const start = skipSpace(text, p, end);
    p = readCell(text, start, end);
    if (p < 0) return false;
    const from = board.cellAt(cell.letter, cell.row) ?? -1;
    const fromText = cellText(board, from);
    let lower = cell.lower;
    p = skipSpace(text, p, end);
    const op = charAt(text, p++, end);
    let to = -1;
    let toText: string | null = null;
    if (op === HASH) {
      const after = readCell(text, skipSpace(text, p, end), end);
      // `N9# M9-M10` is politics then a move: a placement cell followed by a symbol starts the next order.
      const startsNext = after >= 0 && isOrderSymbol(charAt(text, skipSpace(text, after, end), end));
      if (after < 0) p = skipSpace(text, p, end);
      else if (!startsNext) {
        p = after;
        to = board.cellAt(cell.letter, cell.row) ?? -1;
        toText = cellText(board, to);
        lower ||= cell.lower;
      }
    } else if (op === DASH || op === EQUALS) {
      p = readCell(text, skipSpace(text, p, end), end);
      if (p < 0) return false;
      to = board.cellAt(cell.letter, cell.row) ?? -1;
      toText = cellText(board, to);
      lower ||= cell.lower;
    } else return false;
    const kind = op === DASH ? 'move' : op === EQUALS ? 'jump' : 'politics';
    // Written in capitals and no longer than its canonical spelling (no space, no leading zero),
    // the usual order is its own canonical text.
    const canonical =
      !lower && p - start === fromText.length + 1 + (toText?.length ?? 0)
        ? text.slice(start, p)
        : `${fromText}${String.fromCharCode(op)}${toText ?? ''}`;
    into.orders.push({ kind, from: fromText, to: toText, line, canonical });
    into.from.push(from);
    into.to.push(to);
    const sepStart = p;
    while (p < end && isOrderSeparator(text.charCodeAt(p))) p++;
    if (p >= end) return true;
    if (p === sepStart) return false;
  }
}
