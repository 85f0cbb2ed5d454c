// Faction names as players write them (R-ORD-1, R-ORD-3): Italian or English, singular or plural,
// any case, accents ignored. The names are map data (`factions[].names`, `imperial.names`), so
// nothing here hard-codes a faction (R-BOARD-5).
import type { Board } from './map.ts';
import { IMPERIAL, type Side } from './types.ts';

/**
 * The form names are compared in: accents stripped (NFD, combining marks dropped), lower case,
 * runs of whitespace collapsed to one space, trimmed. `Aristocràtici` → `aristocratici`.
 */
export function foldName(text: string): string {
  let folded = foldCache.get(text);
  if (folded === undefined) {
    folded = text
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim();
    // Players write the same few names every week: remember them, within a bound.
    if (foldCache.size >= 4096) foldCache.clear();
    foldCache.set(text, folded);
  }
  return folded;
}
const foldCache = new Map<string, string>();

/** Words that mean "nobody" in `H:` / `V:` / `E:` (R-ORD-1: hostile to nobody). */
const NOBODY = new Set(['nessuno', 'nessuna', 'niente', 'nulla', 'none', 'nobody', 'no one', 'nothing', '-']);

export function isNobody(text: string): boolean {
  if (text.length > 12) return false; // longer than any of the words, even with spaces and a dot
  return NOBODY.has(foldName(text).replace(/\.$/, '').trim());
}

/** Words joining names in an `H:` list (`Sith e Hutt`, `Sith and Hutt`); never inside a name. */
const CONNECTORS = new Set(['e', 'ed', 'and']);

export interface NameTable {
  /** Folded name → side; null when two sides share a name (then it names neither). */
  readonly byName: ReadonlyMap<string, Side | null>;
  /**
   * The names exactly as the map spells them (`Aristocratici`, `sith`) → what `byName` says: the
   * spelling players copy, looked up without folding.
   */
  readonly bySpelling: ReadonlyMap<string, Side | null>;
  /** Folded names split into words, longest first, for longest-match reading of lists. */
  readonly phrases: readonly { words: readonly string[]; side: Side | null }[];
  /** One display name per side, in map order then the Imperial Troops, for messages. */
  readonly display: { it: string[]; en: string[] };
}

const tables = new WeakMap<Board, NameTable>();

/** The names of a board's sides, built once per board. Faction ids count as names too. */
export function nameTable(board: Board): NameTable {
  const cached = tables.get(board);
  if (cached) return cached;
  const byName = new Map<string, Side | null>();
  const add = (name: string, side: Side) => {
    const key = foldName(name);
    if (key === '') return;
    const seen = byName.get(key);
    // A name shared by two sides would be a guess either way (R-ORD-8): it names neither.
    byName.set(key, seen === undefined || seen === side ? side : null);
  };
  const { factions, imperial } = board.map;
  const spellings = [
    ...factions.flatMap((f) => [f.id, ...f.names.it, ...f.names.en].map((n) => [n, f.id] as const)),
    ...[IMPERIAL, ...imperial.names.it, ...imperial.names.en].map((n) => [n, IMPERIAL] as const),
  ];
  for (const [n, side] of spellings) add(n, side);
  const bySpelling = new Map<string, Side | null>();
  for (const [n] of spellings) {
    const key = foldName(n);
    const named = byName.get(key);
    // Only a spelling that readPiece would take whole and quote as it is.
    if (named !== undefined && !CONNECTORS.has(key) && tidy(n) === n) bySpelling.set(n, named);
  }
  const phrases = [...byName].map(([name, side]) => ({ words: name.split(' '), side })).sort((a, b) => b.words.length - a.words.length);
  const display = {
    it: [...factions.map((f) => f.names.it[0]!), imperial.names.it[0]!],
    en: [...factions.map((f) => f.names.en[0]!), imperial.names.en[0]!],
  };
  const table: NameTable = { byName, bySpelling, phrases, display };
  tables.set(board, table);
  return table;
}

/**
 * One faction name, as a whole (`Mercanti indipendenti` → corellians, `Jedi` → knights,
 * `Imperiali` → imperial). A trailing full stop is allowed. Null when it names no side.
 */
export function resolveSideName(name: string, board: Board): Side | null {
  const key = foldName(name).replace(/\.$/, '').trim();
  return nameTable(board).byName.get(key) ?? null;
}

/** An item of a name list: a side, or the words that named none (as written). */
export interface ListedName {
  side: Side | null;
  text: string;
}

/**
 * A list of names (the part of an `H:` line after the colon). Items are separated by `,` `;` `/`
 * `&` `+`, or by the words `e` / `ed` / `and`. Within a piece, the longest known name that ends at
 * a connector word or at the end wins, so a connector inside a multi-word name never splits it.
 * A piece that is not exactly one name is one unknown item, quoted whole: `tutti tranne Sith` must
 * not be read as Sith (R-ORD-8). Linear in the text: each step consumes at least one word.
 */
export function readNameList(text: string, board: Board): ListedName[] {
  const table = nameTable(board);
  const out: ListedName[] = [];
  // Pieces end at a separator; each is taken without the spaces around it (folding ignores them).
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && !isListSeparator(text.charCodeAt(i))) continue;
    let a = start;
    let b = i;
    while (a < b && text.charCodeAt(a) === 32) a++;
    while (b > a && text.charCodeAt(b - 1) === 32) b--;
    readPiece(table, text.slice(a, b), out);
    start = i + 1;
  }
  return out;
}

/** `,` `;` `/` `&` `+`. */
function isListSeparator(c: number): boolean {
  return c === 44 || c === 59 || c === 47 || c === 38 || c === 43;
}

function readPiece(table: NameTable, piece: string, out: ListedName[]): void {
  // The usual piece is exactly one name, spelled as on the map, or else written some other way:
  // look it up whole before reading it word by word.
  const spelled = table.bySpelling.get(piece);
  if (spelled !== undefined) {
    out.push({ side: spelled, text: piece });
    return;
  }
  const whole = foldName(piece);
  const side = table.byName.get(whole);
  if (side !== undefined && !CONNECTORS.has(whole)) {
    out.push({ side, text: tidy(piece) });
    return;
  }
  const words = piece.split(/\s+/).filter((w) => w !== '');
  const folded = words.map(foldName);
  let i = 0;
  while (i < words.length) {
    if (CONNECTORS.has(folded[i]!)) {
      i++;
      continue;
    }
    const hit = longestName(table, folded, i);
    if (hit) {
      out.push({ side: hit.side, text: words.slice(i, hit.end).join(' ') });
      i = hit.end;
      continue;
    }
    let end = i;
    while (end < words.length && !CONNECTORS.has(folded[end]!)) end++;
    out.push({ side: null, text: words.slice(i, end).join(' ') });
    i = end;
  }
}

/** The text trimmed, runs of whitespace made one space; as written when it already is (the usual name). */
function tidy(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const clean = c === 32 ? i > 0 && i < text.length - 1 && text.charCodeAt(i + 1) !== 32 : c > 32 && c < 127;
    if (!clean) return text.trim().replace(/\s+/g, ' ');
  }
  return text;
}

function longestName(table: NameTable, folded: string[], start: number): { side: Side | null; end: number } | null {
  for (const { words, side } of table.phrases) {
    const end = start + words.length;
    if (end > folded.length) continue;
    // The name must fill the piece up to a connector or the end: `Sith Hutt` is not two names.
    if (end < folded.length && !CONNECTORS.has(folded[end]!)) continue;
    let k = 0;
    while (k < words.length && folded[start + k] === words[k]) k++;
    if (k === words.length) return { side, end };
  }
  return null;
}
