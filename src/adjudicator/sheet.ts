// The order sheet as a player types it (R-ORD-1..8) → ParsedSheet. Pure: no I/O, never throws,
// linear in the text (read character by character, and anchored patterns without nested
// quantifiers for the rare lines that need them). The parser reads; judging orders against the
// position (whose unit, adjacency, superseding under R-ORD-5, self-hostility, a Chancellor naming
// Imperiali) is the engine's job.
import { Board, type CellIndex } from './map.ts';
import type { Problem, ParsedSheet, Side } from './types.ts';
import { foldName, isNobody, nameTable, readNameList, resolveSideName } from './faction-names.ts';
import { sheetProblem, type BoardSpan, type Substitution } from './sheet-messages.ts';
import {
  BULLET,
  COLON,
  COMMA,
  CR,
  DASH,
  DOT,
  LF,
  NO_SUBS,
  SEMICOLON,
  SPACE,
  STAR,
  charAt,
  isAsciiLetter,
  normaliseLine,
  scanOrders,
  shown,
  skipSpace,
  type SubstitutionKind,
  type OrderList,
  type Subs,
} from './sheet-text.ts';

// `H:` / `V:` / `E:` and their Italian and English spellings (compared folded: `Ostilità` ok).
const KEYWORDS = new Map<string, 'H' | 'V' | 'E'>([
  ...['h', 'ostili', 'ostilita', 'hostile', 'hostility'].map((k) => [k, 'H'] as const),
  ...['v', 'voto', 'vote'].map((k) => [k, 'V'] as const),
  ...['e', 'elimina', 'eliminate'].map((k) => [k, 'E'] as const),
]);
// The keyword line when its first word is not plain ASCII (`Ostilità:`); ASCII is read by hand.
const KEYWORD_LINE = /^(\p{L}+) ?: ?(.*)$/u;
const CELL_ONLY = /^[A-Za-z] ?\d{1,3}$/;

/** A sheet as the engine takes it: the parsed sheet, and the cells of its orders read once. */
export interface SheetReading {
  sheet: ParsedSheet;
  /** For each of `sheet.orders`, the cell of its unit as an index; -1 off the board. */
  from: CellIndex[];
  /** For each of `sheet.orders`, its target (or troop placement) as an index; -1 off the board or none written. */
  to: CellIndex[];
}

/** Read an order sheet. Problems come in line order; `normalised` once per kind of substitution. */
export function parseSheet(text: string, board: Board): ParsedSheet {
  return readSheet(text, board).sheet;
}

/**
 * parseSheet for the engine: the same sheet, plus each order's cells as indices. Lines are read in
 * place, in the text as it came: a line becomes a string of its own only when it must be
 * normalised or quoted, and a cell's text is the board's own name for it.
 */
export function readSheet(text: string, board: Board): SheetReading {
  const reader = new SheetReader(board);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Lines end at \r\n, \n or \r. Finding the end also tells whether the line is plain: printable
  // ASCII with single spaces, nothing to substitute or collapse (the usual line).
  let start = 0;
  for (let line = 1; ; line++) {
    let end = start;
    let plain = true;
    let prevSpace = false;
    for (; end < body.length; end++) {
      const c = body.charCodeAt(end);
      if (c === LF || c === CR) break;
      if (c < SPACE || c > 126 || (c === SPACE && prevSpace)) plain = false;
      prevSpace = c === SPACE;
    }
    if (plain) {
      // A plain line has at most one space at either end: trimmed by moving its bounds.
      const a = body.charCodeAt(start) === SPACE ? start + 1 : start;
      const b = end > a && body.charCodeAt(end - 1) === SPACE ? end - 1 : end;
      reader.readLine(body, a, b, line, null, NO_SUBS);
    } else {
      const written = body.slice(start, end);
      const { text: read, subs } = normaliseLine(written);
      reader.readLine(read, 0, read.length, line, written.trim(), subs);
    }
    if (end >= body.length) break;
    start = end + (body.charCodeAt(end) === CR && body.charCodeAt(end + 1) === LF ? 2 : 1);
  }
  return reader.finish();
}

/**
 * The state of reading one sheet. The line being read lies in `text` between `start` and `end`:
 * the sheet itself for a plain line, a normalised copy otherwise. The hot path of adjudication
 * (every order of every sheet) slices nothing it does not keep and creates no closure per line.
 */
class SheetReader {
  readonly sheet: ParsedSheet = {
    hostility: [],
    hostilityLines: [],
    hostilityDeclared: false,
    orders: [],
    vote: null,
    eliminate: null,
    problems: [],
    ignored: [],
    normalised: [],
  };
  /** The orders read so far, with their cells. */
  private readonly read: OrderList = { orders: this.sheet.orders, from: [], to: [] };
  private readonly board: Board;
  /** Substitutions by kind, in order of first occurrence; null until a line needs one. */
  private seen: Map<SubstitutionKind, { line: number; subs: Substitution[] }> | null = null;
  private span: BoardSpan | undefined;

  private text = '';
  private start = 0;
  private end = 0;
  private line = 0;
  /** The line as written and trimmed, when it is not the text read (a normalised line). */
  private written: string | null = null;

  constructor(board: Board) {
    this.board = board;
  }

  finish(): SheetReading {
    // Map order is first-occurrence order, so `normalised` is already in line order.
    for (const [code, { line, subs }] of this.seen ?? []) {
      const rule = code === 'normalised-dash' || code === 'normalised-symbol' ? { rule: 'R-ORD-2' } : {};
      this.sheet.normalised.push(sheetProblem(code, line, { subs }, rule));
    }
    return { sheet: this.sheet, from: this.read.from, to: this.read.to };
  }

  /** One line, already trimmed: `text` from `start` to `end`; `written` is the original when normalised. */
  readLine(text: string, start: number, end: number, line: number, written: string | null, subs: Subs): void {
    this.text = text;
    this.start = start;
    this.end = end;
    this.line = line;
    this.written = written;
    // Blank lines say nothing; a `Code:` line carries the secret (MAIL.md) and is never read.
    if (start === end || this.isCodeLine()) return;
    // A list bullet a mail client or a tidy player puts in front of a line: `- B2-C3`, `• H: Sith`.
    const c = charAt(text, start, end);
    const t = (c === DASH || c === STAR || c === BULLET) && charAt(text, start + 1, end) === SPACE ? start + 2 : start;
    // Characters are noted only on lines read as a sheet: a greeting's dash is nobody's business.
    if ((this.readKeywordLine(t) || this.readOrderLine(t)) && subs.length) this.noteSubstitutions(subs);
  }

  /** The line as read (normalised, bullet included), for messages. */
  private readText(): string {
    return this.text.slice(this.start, this.end);
  }

  /** The line as the player wrote it, trimmed: what a problem quotes. */
  private rawText(): string {
    return this.written ?? this.readText();
  }

  /** `Code:` in any case, a space allowed before the colon (`/^code ?:/i`). */
  private isCodeLine(): boolean {
    const { text, start: s, end } = this;
    if (end - s < 5) return false;
    // `| 32` lower-cases an ASCII letter, and only the two cases of a letter give its lower case.
    const c = text.charCodeAt(s) | 32;
    if (c !== 99 || (text.charCodeAt(s + 1) | 32) !== 111 || (text.charCodeAt(s + 2) | 32) !== 100 || (text.charCodeAt(s + 3) | 32) !== 101)
      return false;
    return charAt(text, skipSpace(text, s + 4, end), end) === COLON;
  }

  private noteSubstitutions(subs: Subs): void {
    this.seen ??= new Map();
    for (const s of subs) {
      const entry = this.seen.get(s.kind) ?? { line: this.line, subs: [] };
      const from = shown(s.from, s.kind);
      if (!entry.subs.some((x) => x.from === from)) entry.subs.push({ from, to: s.to });
      this.seen.set(s.kind, entry);
    }
  }

  /**
   * `H: …`, `V: …`, `E: …` in any of their spellings (a word of letters, an optional space, a colon,
   * an optional space); false when the line is something else. The rest of the line loses its
   * trailing spaces and the `.`, `,` or `;` a player adds at the end (R-ORD-9).
   */
  private readKeywordLine(t: number): boolean {
    const { text, end } = this;
    let k = t;
    while (isAsciiLetter(charAt(text, k, end))) k++;
    let key: 'H' | 'V' | 'E' | undefined;
    let rest: string;
    if (charAt(text, k, end) > 127) {
      // A word with a letter beyond ASCII: the regular expression knows which characters are letters.
      const line = text.slice(t, end);
      const kw = line.includes(':') ? KEYWORD_LINE.exec(line) : null;
      key = kw ? KEYWORDS.get(foldName(kw[1]!)) : undefined;
      if (!key) return false;
      const r = kw![2]!;
      rest = r.slice(0, trimLineEnd(r, 0, r.length));
    } else {
      if (k === t) return false;
      const colon = skipSpace(text, k, end);
      if (charAt(text, colon, end) !== COLON) return false;
      // Folding a word of ASCII letters is lower-casing it (`| 32` for a letter: the usual `H`).
      key = KEYWORDS.get(k - t === 1 ? String.fromCharCode(text.charCodeAt(t) | 32) : text.slice(t, k).toLowerCase());
      if (!key) return false;
      const p = skipSpace(text, colon + 1, end);
      rest = text.slice(p, trimLineEnd(text, p, end));
    }
    if (key === 'H') this.readHostility(rest);
    else if (key === 'V') this.readVote(rest);
    else this.readEliminate(rest);
    return true;
  }

  /**
   * Orders on one line (R-ORD-2, sheet-text.ts). The whole line must be orders: `B2-C3 please` is
   * not understood (R-ORD-8), never half-read — the orders it began with are taken back. A line
   * with no order shape at all (`Grazie!`, a name, a phone number) is text, ignored and noted for
   * its writer only (D-PARSE-16): false then.
   */
  private readOrderLine(t: number): boolean {
    const first = this.sheet.orders.length;
    if (!scanOrders(this.board, this.text, t, this.end, this.line, this.read)) {
      const trailing = this.sheet.orders.length > first;
      this.sheet.orders.length = this.read.from.length = this.read.to.length = first;
      const args = { text: this.readText(), trailing };
      if (!trailing && !hasOrderShape(this.text, t, this.end)) {
        this.sheet.ignored.push(sheetProblem('text-ignored', this.line, { text: this.readText() }));
        return false;
      }
      this.sheet.problems.push(sheetProblem('not-understood', this.line, args, { rule: 'R-ORD-8', text: this.rawText() }));
      return true;
    }
    // Kept even when off the board: the last order for a unit wins, invalid or not (R-ORD-5, R-ORD-7).
    for (let i = first; i < this.sheet.orders.length; i++) {
      const o = this.sheet.orders[i]!;
      if (this.read.from[i] === -1 || (o.to !== null && this.read.to[i] === -1)) {
        this.offBoard(o.to === null ? [o.from] : [o.from, o.to], o.canonical, 'R-ORD-7');
      }
    }
    return true;
  }

  private offBoard(cells: string[], order: string, rule: string): void {
    const bad = [...new Set(cells.filter((c) => this.board.parseCell(c) === null))];
    if (bad.length === 0) return;
    this.span ??= spanOf(this.board);
    this.sheet.problems.push(sheetProblem('off-board', this.line, { order, cells: bad, span: this.span }, { rule, text: this.rawText() }));
  }

  // R-ORD-1: several H: lines add up; unknown names are reported and the rest applied. Self-naming
  // and a Chancellor naming Imperiali stay in the list: the parser does not know the sender.
  private readHostility(rest: string): void {
    const sheet = this.sheet;
    sheet.hostilityDeclared = true;
    if (rest === '' || isNobody(rest)) return;
    for (const item of readNameList(rest, this.board)) {
      if (item.side === null) {
        const args = { name: item.text, known: nameTable(this.board).display, in: 'hostility' as const };
        sheet.problems.push(sheetProblem('unknown-faction', this.line, args, { rule: 'R-ORD-1', text: this.rawText() }));
      } else if (!sheet.hostility.includes(item.side)) {
        sheet.hostility.push(item.side);
        sheet.hostilityLines.push(this.line);
      }
    }
  }

  // R-ORD-3: the last V: line wins, and a line that casts nothing (Imperiali, an unknown name, no
  // name) still is the last one: a later invalid V: cancels an earlier valid vote (vote = null).
  // `V: nessuno` / `V: none` is a deliberate abstention: null, not a problem.
  private readVote(rest: string): void {
    const { sheet, board, line } = this;
    sheet.vote = null;
    const problem = (p: Problem): void => void sheet.problems.push(p);
    const raw = this.rawText();
    if (rest === '') return problem(sheetProblem('vote-empty', line, {}, { rule: 'R-ORD-3', text: raw }));
    if (isNobody(rest)) return;
    const side: Side | null = resolveSideName(rest, board);
    if (side === 'imperial') return problem(sheetProblem('vote-imperial', line, { name: rest }, { rule: 'R-ORD-3', text: raw }));
    if (side !== null) {
      sheet.vote = { side, line };
      return;
    }
    if (readNameList(rest, board).length > 1)
      return problem(sheetProblem('vote-several', line, { text: rest }, { rule: 'R-ORD-3', text: raw }));
    const known = nameTable(board).display;
    problem(sheetProblem('unknown-faction', line, { name: rest, known, in: 'vote' }, { rule: 'R-ORD-3', text: raw }));
  }

  // R-ORD-4: the last E: line wins, with the same reading as V:: a later line that names no cell
  // cancels an earlier one. `E:` alone or `E: nessuno` withdraws the choice without a problem.
  // An off-board cell is kept (the engine ignores it under R-ELEC-5) and reported now.
  private readEliminate(rest: string): void {
    const sheet = this.sheet;
    sheet.eliminate = null;
    if (rest === '' || isNobody(rest)) return;
    if (!CELL_ONLY.test(rest)) {
      sheet.problems.push(sheetProblem('eliminate-not-cell', this.line, { text: rest }, { rule: 'R-ORD-4', text: this.rawText() }));
      return;
    }
    const cell = Board.canonical(rest);
    sheet.eliminate = { cell, line: this.line };
    this.offBoard([cell], `E: ${cell}`, 'R-ORD-4');
  }
}

/**
 * Whether a line that is not orders still has an order's shape (D-PARSE-16), and so is a problem
 * (R-ORD-8) rather than text: a cell standing as a word (`B2`, `b02`, `B 2`; a space only after a
 * capital, as Italian `a 3 minuti` is prose), or a first word that is a keyword without its colon
 * (`Voto Hutt`, `H Sith`, `V=Hutt`; a lone `E` only before a capital or a symbol, as `E poi…` is
 * prose). Phone numbers and street addresses have digits but no letter right before them. One
 * pass over the line, a bounded look-ahead at each letter.
 */
function hasOrderShape(text: string, start: number, end: number): boolean {
  if (startsWithKeyword(text, start, end)) return true;
  let prev = -1;
  for (let p = start; p < end; p++) {
    const c = text.charCodeAt(p);
    if (isAsciiLetter(c) && !isAsciiLetter(prev) && !isDigit(prev)) {
      let q = p + 1;
      if (charAt(text, q, end) === SPACE && c <= 90) q++;
      let digits = 0;
      while (digits < 4 && isDigit(charAt(text, q + digits, end))) digits++;
      const after = charAt(text, q + digits, end);
      if (digits >= 1 && digits <= 3 && !isAsciiLetter(after)) return true;
    }
    prev = c;
  }
  return false;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Commands a player mails on their own (D-ABS-1): written among orders they are not applied, so
 * such a line stays a problem and its writer is told how to send it (D-ABS-3), not "text ignored".
 */
const COMMAND_WORDS = new Set(['absence', 'assenza']);

/** A first word that is one of the keywords' spellings (D-PARSE-10), read as hasOrderShape says. */
function startsWithKeyword(text: string, start: number, end: number): boolean {
  let k = start;
  while (isAsciiLetter(charAt(text, k, end))) k++;
  let word: string;
  if (charAt(text, k, end) > 127) {
    // `Ostilità`: a keyword is short, so a few characters are enough to tell.
    const m = /^\p{L}+/u.exec(text.slice(start, Math.min(end, start + 12)));
    word = m ? foldName(m[0]) : '';
    k = start + (m ? m[0].length : 0);
  } else word = text.slice(start, k).toLowerCase();
  if (COMMAND_WORDS.has(word)) return true;
  if (!KEYWORDS.has(word)) return false;
  if (word.length > 1) return true;
  const next = charAt(text, k, end);
  if (next !== SPACE) return true; // end of line, or a symbol: `V:`, `H-Sith`, `V.`
  const after = charAt(text, k + 1, end);
  return !(after >= 97 && after <= 122);
}

/**
 * Where a keyword line's content ends: before trailing spaces and the `.` `,` `;` a player adds at
 * the end of a line (R-ORD-9; D-PARSE-14: a run of them, like `V: Hutt..`, reads the same, as it
 * does between orders). A loop rather than `/[ .,;]+$/`, which backtracks on long runs.
 */
function trimLineEnd(text: string, start: number, end: number): number {
  let e = end;
  for (; e > start; e--) {
    const c = text.charCodeAt(e - 1);
    if (c !== SPACE && c !== DOT && c !== COMMA && c !== SEMICOLON) break;
  }
  return e;
}

function spanOf(board: Board): BoardSpan {
  const cols = board.map.columns;
  const first = cols[0]!;
  const last = cols[cols.length - 1]!;
  const skipped: string[] = [];
  for (let c = first.charCodeAt(0); c <= last.charCodeAt(0); c++)
    if (!cols.includes(String.fromCharCode(c))) skipped.push(String.fromCharCode(c));
  return { first: `${first}1`, last: `${last}${board.rows}`, skipped };
}
