// The order sheet as a player types it (R-ORD-1..8) → ParsedSheet. Pure: no I/O, never throws,
// linear in the text (sticky regexes and anchored patterns without nested quantifiers). The
// parser reads; judging orders against the position (whose unit, adjacency, superseding under
// R-ORD-5, self-hostility, a Chancellor naming Imperiali) is the engine's job.
import { Board } from './map.ts';
import type { Problem, ParsedSheet, Side, WrittenOrder } from './types.ts';
import { foldName, isNobody, nameTable, readNameList, resolveSideName } from './faction-names.ts';
import { sheetProblem, type BoardSpan, type Substitution } from './sheet-messages.ts';

type Kind = 'normalised-dash' | 'normalised-symbol' | 'normalised-space' | 'normalised-zero-width';

// What mail clients substitute (MAIL.md, R-ORD-2). Tabs are ordinary whitespace, read as spaces
// without comment. The leading byte order mark is dropped silently before this table applies.
const SUBSTITUTES = new Map<string, { kind: Kind; to: string }>();
const put = (chars: string, kind: Kind, to: string) => {
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
function shown(c: string, kind: Kind): string {
  if (kind === 'normalised-dash' || kind === 'normalised-symbol') return c;
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Printable ASCII with single spaces: nothing to substitute or collapse (the usual line). */
function isPlainLine(raw: string): boolean {
  let prevSpace = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 32 || c > 126) return false;
    if (c === 32) {
      if (prevSpace) return false;
      prevSpace = true;
    } else prevSpace = false;
  }
  return true;
}

const NO_SUBS: { kind: Kind; from: string; to: string }[] = [];

function normaliseLine(raw: string): { text: string; subs: { kind: Kind; from: string; to: string }[] } {
  if (isPlainLine(raw)) return { text: raw.trim(), subs: NO_SUBS };
  const subs: { kind: Kind; from: string; to: string }[] = [];
  const text = raw.replace(SUBSTITUTE_RE, (c) => {
    const s = SUBSTITUTES.get(c)!;
    subs.push({ kind: s.kind, from: c, to: s.to });
    return s.to;
  });
  // Spaces are free around symbols and inside cells (R-BOARD-1, R-ORD-2): collapse them once here.
  return { text: text.replace(/\s+/g, ' ').trim(), subs };
}

// `H:` / `V:` / `E:` and their Italian and English spellings (compared folded: `Ostilità` ok).
const KEYWORDS = new Map<string, 'H' | 'V' | 'E'>([
  ...['h', 'ostili', 'ostilita', 'hostile', 'hostility'].map((k) => [k, 'H'] as const),
  ...['v', 'voto', 'vote'].map((k) => [k, 'V'] as const),
  ...['e', 'elimina', 'eliminate'].map((k) => [k, 'E'] as const),
]);
const KEYWORD_LINE = /^(\p{L}+) ?: ?(.*)$/u;
const CODE_LINE = /^code ?:/i;
// A list bullet a mail client or a tidy player puts in front of a line: `- B2-C3`, `• H: Sith`.
const BULLET = /^[-*•] /;
const CELL_ONLY = /^[A-Za-z] ?\d{1,3}$/;

interface Scan {
  orders: { kind: WrittenOrder['kind']; from: string; to: string | null }[];
  ok: boolean;
}

// The scanner's position in the line it reads. Module state rather than closures: this is the
// hot path of adjudication (every order of every sheet), so it allocates nothing it can avoid.
let pos = 0;

function skipSpace(t: string): void {
  if (t.charCodeAt(pos) === 32) pos++;
}

/**
 * A cell as written at `pos` (R-BOARD-1): a letter, an optional space, 1–3 digits not followed by
 * another digit. Returns its canonical spelling (`b 02` → `B2`) and moves past it, or null.
 */
function readCell(t: string): string | null {
  let p = pos;
  let c = t.charCodeAt(p);
  if (c >= 97 && c <= 122) c -= 32;
  if (c < 65 || c > 90) return null;
  p++;
  if (t.charCodeAt(p) === 32) p++;
  const first = p;
  let row = 0;
  while (p - first < 4) {
    const d = t.charCodeAt(p) - 48;
    if (!(d >= 0 && d <= 9)) break;
    row = row * 10 + d;
    p++;
  }
  if (p === first || p - first > 3) return null;
  pos = p;
  return String.fromCharCode(c) + row;
}

/**
 * Orders on one line (R-ORD-2): `B2-C3`, `B2=F6`, `N9#`, `N9#M9`, separated by commas,
 * semicolons, full stops or spaces, with an optional trailing separator. The whole line must be
 * orders: `B2-C3 please` is not understood (R-ORD-8), never half-read.
 */
function scanOrders(t: string): Scan {
  const orders: Scan['orders'] = [];
  pos = 0;
  for (;;) {
    skipSpace(t);
    const from = readCell(t);
    if (from === null) return { orders, ok: false };
    skipSpace(t);
    const op = t[pos++];
    let to: string | null = null;
    if (op === '#') {
      // `N9# M9-M10` is politics then a move: a placement cell followed by a symbol starts the next order.
      const before = pos;
      skipSpace(t);
      to = readCell(t);
      const after = pos;
      skipSpace(t);
      if (to !== null && '-=#'.includes(t[pos] ?? ' ')) {
        to = null;
        pos = before;
      } else pos = after;
    } else if (op === '-' || op === '=') {
      skipSpace(t);
      to = readCell(t);
      if (to === null) return { orders, ok: false };
    } else return { orders, ok: false };
    orders.push({ kind: op === '-' ? 'move' : op === '=' ? 'jump' : 'politics', from, to });
    const sepStart = pos;
    while (pos < t.length && ' ,;.'.includes(t[pos]!)) pos++;
    if (pos >= t.length) return { orders, ok: true };
    if (pos === sepStart) return { orders, ok: false };
  }
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

/** Read an order sheet. Problems come in line order; `normalised` once per kind of substitution. */
export function parseSheet(text: string, board: Board): ParsedSheet {
  const sheet: ParsedSheet = {
    hostility: [],
    hostilityDeclared: false,
    orders: [],
    vote: null,
    eliminate: null,
    problems: [],
    normalised: [],
  };
  const seen = new Map<Kind, { line: number; subs: Substitution[] }>();
  const known = nameTable(board).display;
  let span: BoardSpan | undefined;
  const offBoard = (cells: string[], order: string, line: number, raw: string, rule: string) => {
    const bad = [...new Set(cells.filter((c) => board.parseCell(c) === null))];
    if (bad.length === 0) return;
    span ??= spanOf(board);
    sheet.problems.push(sheetProblem('off-board', line, { order, cells: bad, span }, { rule, text: raw }));
  };

  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.includes('\r') ? body.split(/\r\n|\n|\r/) : body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i]!.trim();
    const { text: read, subs } = normaliseLine(lines[i]!);
    // Blank lines say nothing; a `Code:` line carries the secret (MAIL.md) and is never read.
    if (read === '' || (read.includes(':') && CODE_LINE.test(read))) continue;
    for (const s of subs) {
      const entry = seen.get(s.kind) ?? { line, subs: [] };
      const from = shown(s.from, s.kind);
      if (!entry.subs.some((x) => x.from === from)) entry.subs.push({ from, to: s.to });
      seen.set(s.kind, entry);
    }
    const t = BULLET.test(read) ? read.slice(2) : read;

    const kw = t.includes(':') ? KEYWORD_LINE.exec(t) : null;
    const key = kw ? KEYWORDS.get(foldName(kw[1]!)) : undefined;
    if (kw && key) {
      const rest = kw[2]!.replace(/[ .]+$/, '');
      if (key === 'H') readHostility(rest, line, raw);
      else if (key === 'V') readVote(rest, line, raw);
      else readEliminate(rest, line, raw);
      continue;
    }

    const scan = scanOrders(t);
    if (!scan.ok) {
      const trailing = scan.orders.length > 0;
      sheet.problems.push(sheetProblem('not-understood', line, { text: read, trailing }, { rule: 'R-ORD-8', text: raw }));
      continue;
    }
    for (const o of scan.orders) {
      const canonical = o.kind === 'move' ? `${o.from}-${o.to}` : o.kind === 'jump' ? `${o.from}=${o.to}` : `${o.from}#${o.to ?? ''}`;
      // Kept even when off the board: the last order for a unit wins, invalid or not (R-ORD-5, R-ORD-7).
      sheet.orders.push({ kind: o.kind, from: o.from, to: o.to, line, canonical });
      if (board.parseCell(o.from) === null || (o.to !== null && board.parseCell(o.to) === null)) {
        offBoard(o.to === null ? [o.from] : [o.from, o.to], canonical, line, raw, 'R-ORD-7');
      }
    }
  }

  // R-ORD-1: several H: lines add up; unknown names are reported and the rest applied. Self-naming
  // and a Chancellor naming Imperiali stay in the list: the parser does not know the sender.
  function readHostility(rest: string, line: number, raw: string) {
    sheet.hostilityDeclared = true;
    if (rest === '' || isNobody(rest)) return;
    for (const item of readNameList(rest, board)) {
      if (item.side === null) {
        const args = { name: item.text, known, in: 'hostility' as const };
        sheet.problems.push(sheetProblem('unknown-faction', line, args, { rule: 'R-ORD-1', text: raw }));
      } else if (!sheet.hostility.includes(item.side)) sheet.hostility.push(item.side);
    }
  }

  // R-ORD-3: the last V: line wins, and a line that casts nothing (Imperiali, an unknown name, no
  // name) still is the last one: a later invalid V: cancels an earlier valid vote (vote = null).
  // `V: nessuno` / `V: none` is a deliberate abstention: null, not a problem.
  function readVote(rest: string, line: number, raw: string) {
    sheet.vote = null;
    const problem = (p: Problem) => sheet.problems.push(p);
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
    problem(sheetProblem('unknown-faction', line, { name: rest, known, in: 'vote' }, { rule: 'R-ORD-3', text: raw }));
  }

  // R-ORD-4: the last E: line wins, with the same reading as V:: a later line that names no cell
  // cancels an earlier one. `E:` alone or `E: nessuno` withdraws the choice without a problem.
  // An off-board cell is kept (the engine ignores it under R-ELEC-5) and reported now.
  function readEliminate(rest: string, line: number, raw: string) {
    sheet.eliminate = null;
    if (rest === '' || isNobody(rest)) return;
    if (!CELL_ONLY.test(rest)) {
      sheet.problems.push(sheetProblem('eliminate-not-cell', line, { text: rest }, { rule: 'R-ORD-4', text: raw }));
      return;
    }
    const cell = Board.canonical(rest);
    sheet.eliminate = { cell, line };
    offBoard([cell], `E: ${cell}`, line, raw, 'R-ORD-4');
  }

  // Map order is first-occurrence order, so `normalised` is already in line order.
  for (const [code, { line, subs }] of seen) {
    const rule = code === 'normalised-dash' || code === 'normalised-symbol' ? { rule: 'R-ORD-2' } : {};
    sheet.normalised.push(sheetProblem(code, line, { subs }, rule));
  }
  return sheet;
}
