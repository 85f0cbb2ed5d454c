// Press and disputes in a player's mail (docs/press.md): the text intake already read as the sheet
// (quotes, signature and `Code:` lines gone) split into the sheet part, read exactly as before,
// and blocks the sheet reader never sees — messages to factions, to everyone or to the referees
// (`PRESS TO Sith` / `STAMPA A Sith`, `BROADCAST` / `A TUTTI`, `PRESS TO REFEREE` /
// `STAMPA ALL'ARBITRO`), and disputes of the latest edict (`DISPUTE` / `CONTESTA`), each ended by
// `ENDPRESS` / `FINE` or by the end of the mail. Pure: no I/O, no clock, never throws; linear in
// the text (a line is looked at as a header only when short, and then once).
//
// What the reader decides is only what was written. Whether the game allows it (press off, signed
// only, private messages, closed until the next edict, the size and hourly caps, a faction not in
// play or the writer itself) is the press policy's, which knows the game.
import { foldName } from '../../adjudicator/faction-names.ts';
import { looksLikeSheetLine } from '../../adjudicator/sheet-shape.ts';
import { cleanText } from '../../text/typed-text.ts';

export type PressAudience =
  /** Faction ids, in the order written, each once. */
  { kind: 'factions'; factions: string[] } | { kind: 'all' } | { kind: 'referee' };

/** As written: `null` when the message says neither, and the game's default applies (D-PRESS-3). */
export type PressSign = 'signed' | 'anonymous' | null;

/** Where a block lies in the text, 1-based lines. */
export interface BlockLines {
  /** The `PRESS …` / `DISPUTE` line. */
  header: number;
  /** The first and last lines of its text (the header's own line for a dispute written on it). */
  first: number;
  last: number;
  /** The `ENDPRESS` / `FINE` line; null when the block ran to the end of the mail, or to the next header. */
  end: number | null;
}

export interface PressPart {
  audience: PressAudience;
  sign: PressSign;
  /** The message as written: lines right-trimmed, blank lines around it dropped, never empty. */
  text: string;
  lines: BlockLines;
}

export interface DisputePart {
  /** The reason as written, never empty. */
  text: string;
  lines: BlockLines;
}

export type PressProblemCode =
  /** A word on a header line that is neither a modifier nor an audience (`PRESS FAKE TO Sith`). */
  | 'unknown-keyword'
  /** A name in the list that is no faction; `text` quotes it. */
  | 'unknown-faction'
  /** `PRESS` / `STAMPA` with nobody to send to. */
  | 'no-audience'
  /** The referees, everyone and factions are three audiences: one per message. */
  | 'mixed-audience'
  /** Both SIGNED and ANONYMOUS on one header. */
  | 'both-signs'
  /** A block with no text. */
  | 'empty'
  /** A block with no end line that holds order-shaped lines (`line`: the first): nothing relayed, nothing read as orders. */
  | 'unterminated'
  /** `ENDPRESS` / `FINE` where no message is open. */
  | 'stray-end'
  /** More blocks than one mail may hold; the rest are neither relayed nor read as the sheet. */
  | 'too-many-blocks'
  /** More problems than are listed. */
  | 'too-many-problems';

export interface PressProblem {
  code: PressProblemCode;
  /** 1-based line in the text given. */
  line: number;
  /** The words at fault, folded (lower case, no accents) and cut short; absent when the code says it all. */
  text?: string;
}

export interface PressReading {
  /** The text with every block's lines made blank: same line count, so the sheet's line numbers stay those of the mail. */
  sheetText: string;
  /** Whether anything is left outside the blocks. A mail of press alone is not a sheet (D-PRESS-2). */
  hasSheet: boolean;
  press: PressPart[];
  disputes: DisputePart[];
  /**
   * In line order, at most MAX_PROBLEMS and a `too-many-problems`, and one `too-many-blocks`. A block
   * with a problem is in neither list: nothing of it is relayed.
   */
  problems: PressProblem[];
  /** Characters looked at, about one per character of the text: the linearity test reads it. */
  work: number;
}

/** A faction as players may name it: its id and its names in every language. */
export interface PressFaction {
  id: string;
  names: readonly string[];
}

export interface PressReadOptions {
  factions: readonly PressFaction[];
  /** Whether a line would be read as an order (for `unterminated`); by default the shape test intake uses for quotes. */
  orderShaped?: (line: string) => boolean;
}

/** A mail holds at most this many blocks (a press mail is a few messages, not a mailing list). */
export const MAX_BLOCKS = 20;
/** Problems listed at most; one `too-many-problems` follows. */
export const MAX_PROBLEMS = 50;
/** A header is a short line: a longer one is text, and is never folded. */
const MAX_HEADER = 400;
/** Words quoted in a problem, at most. */
const MAX_QUOTED = 60;

type Modifier = 'signed' | 'anonymous';
const MODIFIERS = new Map<string, Modifier>([
  ...['signed', 'white', 'firmato', 'firmata', 'firmati', 'firmate'].map((w) => [w, 'signed'] as const),
  ...['anonymous', 'anonymously', 'grey', 'gray', 'anonimo', 'anonima', 'anonimi', 'anonime', 'anonimamente'].map(
    (w) => [w, 'anonymous'] as const,
  ),
]);
/** Words that introduce an audience. Italian articles fold into it (`agli arbitri`, `all'arbitro`). */
const INTRODUCERS = new Set(['to', 'a', 'ad', 'al', 'ai', 'agli', 'alla', 'alle', 'per']);
/** The Italian introducers that may start a header by themselves: `A TUTTI`, `AGLI ARBITRI`. */
const STANDALONE = new Set(['a', 'al', 'ai', 'agli', 'alla', 'alle']);
const EVERYONE = new Set(['all', 'everyone', 'everybody', 'tutti', 'tutte']);
const REFEREE = new Set(['referee', 'referees', 'the referee', 'the referees', 'master', 'gm', 'arbitro', 'arbitri', 'arbitra', 'arbitre']);
const END = new Set([
  'end',
  'endpress',
  'end press',
  'endbroadcast',
  'end broadcast',
  'enddispute',
  'end dispute',
  'end message',
  'fine',
  'fine stampa',
  'fine messaggio',
  'fine contestazione',
]);
const PRESS_WORDS = new Set(['press', 'stampa', 'broadcast']);
const DISPUTE_WORDS = new Set(['dispute', 'contesta', 'contesto', 'contestazione']);
const LEADING_ARTICLES = /^(?:(?:to|a|ad|al|ai|agli|alla|alle|the|i|gli|il|lo|la|le) )+/;
/** Words joining names (`Sith e Hutt`), as in `H:` lists (D-PARSE-7). */
const CONNECTORS = new Set(['e', 'ed', 'and']);

type Header =
  | { kind: 'press'; audience: PressAudience | null; sign: PressSign; problems: Omit<PressProblem, 'line'>[] }
  | { kind: 'dispute'; text: string; alone: boolean; colon: boolean };

/** One block while it is being read. */
interface Open {
  header: Header;
  headerLine: number;
  /** Its text lines, as written. */
  lines: string[];
  firstLine: number;
  /** Its header is English (`PRESS`, `BROADCAST`, `DISPUTE`): then `fine` is a word, `FINE` an end (D-PRESS-39). */
  english: boolean;
}

export function readPress(text: string, options: PressReadOptions): PressReading {
  const names = nameIndex(options.factions);
  const orderShaped = options.orderShaped ?? looksLikeSheetLine;
  const out: string[] = [];
  const press: PressPart[] = [];
  const disputes: DisputePart[] = [];
  const problems: PressProblem[] = [];
  let work = 0;
  let blocks = 0;
  let hasSheet = false;
  let open: Open | null = null;

  const problem = (p: PressProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
    else if (problems.length === MAX_PROBLEMS) problems.push({ code: 'too-many-problems', line: p.line });
  };

  const close = (end: number | null) => {
    const o = open!;
    open = null;
    blocks++;
    if (blocks > MAX_BLOCKS) {
      // Said once, whatever else was said: the rest of the mail was not read.
      if (blocks === MAX_BLOCKS + 1) problems.push({ code: 'too-many-blocks', line: o.headerLine });
      return;
    }
    if (o.header.kind === 'press' && o.header.problems.length) {
      for (const p of o.header.problems) problem({ ...p, line: o.headerLine });
      return;
    }
    // What others will read: controls and direction overrides gone, as from any typed text (D-INPUT-1).
    const clean = o.lines.map((l) => cleanText(l).trimEnd());
    // Blank lines around the text are not part of it; the line numbers follow.
    let a = 0;
    let b = clean.length;
    while (a < b && clean[a]!.trim() === '') a++;
    while (b > a && clean[b - 1]!.trim() === '') b--;
    if (a === b) {
      problem({ code: 'empty', line: o.headerLine });
      return;
    }
    if (end === null) {
      // Run to the end of the mail: a sheet under a message nobody closed must not go to its
      // readers, and is not read as orders either (R-ORD-8: never guessed at).
      for (let i = a; i < b; i++) {
        const l = o.lines[i]!;
        if (l.length <= MAX_HEADER && orderShaped(l)) {
          work += l.length;
          problem({ code: 'unterminated', line: o.firstLine + i });
          return;
        }
      }
    }
    const body = clean.slice(a, b).join('\n');
    const lines: BlockLines = { header: o.headerLine, first: o.firstLine + a, last: o.firstLine + b - 1, end };
    if (o.header.kind === 'press') press.push({ audience: o.header.audience!, sign: o.header.sign, text: body, lines });
    else disputes.push({ text: body, lines });
  };

  let start = 0;
  let line = 0;
  for (;;) {
    line++;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    work += raw.length + 1;

    // Only a short line whose first letter may start a keyword is folded and looked at.
    const folded = raw.length <= MAX_HEADER && mayBeKeyword(raw) ? fold(raw) : null;
    if (folded !== null) work += raw.length;

    if (open) {
      if (folded !== null && END.has(folded) && ends(open, folded, raw)) {
        close(line);
        out.push('');
      } else {
        // A header ends the open block: a second message whose end line was forgotten does not go
        // to the first one's readers — nor when its audience is misspelt (`PRESS TO Sitt`): that
        // one is refused, never sent to the readers of the message above (D-PRESS-34).
        // Only what reads as prose stays text: `Press on…` (no audience introduced), `Contesta pure…`.
        const next = folded !== null ? readHeader(folded, raw, names) : null;
        if (next && endsOpenBlock(next)) {
          close(null);
          open = opened(next, line, folded!);
        } else {
          open.lines.push(raw);
        }
        out.push('');
      }
    } else {
      const header = folded !== null ? readHeader(folded, raw, names) : null;
      if (header) {
        open = opened(header, line, folded!);
        out.push('');
      } else if (folded !== null && END.has(folded)) {
        problem({ code: 'stray-end', line });
        out.push('');
      } else {
        out.push(raw);
        if (!hasSheet && raw.trim() !== '') hasSheet = true;
      }
    }
    if (end >= text.length) break;
    start = end + 1;
  }
  if (open) close(null);
  problems.sort((x, y) => x.line - y.line);
  return { sheetText: out.join('\n'), hasSheet, press, disputes, problems, work };
}

/** A block opened by its header on `line` (`folded`): a dispute's reason may start on the header's own line. */
function opened(header: Header, line: number, folded: string): Open {
  const english = ENGLISH_HEADERS.has(words(folded)[0]!.replace(/[:：]$/, ''));
  if (header.kind === 'dispute' && header.text !== '') return { header, headerLine: line, lines: [header.text], firstLine: line, english };
  return { header, headerLine: line, lines: [], firstLine: line + 1, english };
}

const ENGLISH_HEADERS = new Set(['press', 'broadcast', 'dispute']);

/**
 * Whether an end word (`folded`, from `raw`) ends the open block. `Fine` is Italian for "end" and
 * English for "all right": in a message begun in English it is a sentence ("Fine." on its own
 * line), and ends the message only in capitals, `FINE`, as the Italian texts teach it (D-PRESS-39).
 */
function ends(open: Open, folded: string, raw: string): boolean {
  if (folded !== 'fine' || !open.english) return true;
  return raw.replace(/[^\p{L}]/gu, '') === 'FINE';
}

/**
 * Whether a header met inside an open block ends it: any press header but one whose first word
 * after PRESS is neither a modifier nor `TO`/`A` (prose: `Press on`, `Stampa questo`), and a dispute
 * keyword alone on its line or followed by a colon (`CONTESTA: …`; `Contesta pure` is prose).
 */
function endsOpenBlock(h: Header): boolean {
  if (h.kind === 'dispute') return h.alone || h.colon;
  return !h.problems.some((p) => p.code === 'unknown-keyword');
}

/**
 * A line in the form headers are compared in: accents and case folded as names are (D-PARSE-8),
 * typographic apostrophes made plain, a trailing colon or full stop dropped.
 */
function fold(raw: string): string {
  // Format characters (zero-width spaces, a BOM, direction marks) are invisible: a header holding one reads as it looks.
  return foldName(raw.replace(/[\u2019\u02bc`´]/g, "'").replace(/\p{Cf}/gu, ''))
    .replace(/\s*[:.]$/, '')
    .trim();
}

/** The first letters of PRESS, STAMPA, BROADCAST, A TUTTI / ALL'ARBITRO, DISPUTE / CONTESTA, END / FINE. */
const FIRST_LETTERS = new Set('psbadcefPSBADCEF');

function mayBeKeyword(raw: string): boolean {
  let i = 0;
  // Clients indent with no-break and other Unicode spaces too (MAIL.md), or leave a BOM or a zero-width space.
  while (i < raw.length && LEADING.test(raw[i]!)) i++;
  return i < raw.length && FIRST_LETTERS.has(raw[i]!);
}
const LEADING = /[\s\p{Cf}]/u;

/** Splits `all'arbitro` into `a arbitro`: the article's apostrophe joins two words. */
function words(folded: string): string[] {
  return folded
    .replace(/\ball'/g, 'a ')
    .replace(/\bad'/g, 'a ')
    .split(' ')
    .filter((w) => w !== '');
}

/**
 * The header a line is, or null when it is text. A line is a press header when its first word is
 * PRESS / STAMPA / BROADCAST (then anything after is its options, right or wrong), or when it is
 * exactly `A TUTTI`, `ALL'ARBITRO` or `AGLI ARBITRI` with modifiers (so that `A tutti buona fortuna!` stays text).
 * It is a dispute when its first word is DISPUTE / CONTESTA; what follows (after a colon, if one)
 * is the reason's first line.
 */
function readHeader(folded: string, raw: string, names: NameIndex): Header | null {
  const w = words(folded);
  if (w.length === 0) return null;
  // `CONTESTA: …`, `PRESS: TO Sith`: a colon after the keyword is no word of its own.
  const first = w[0]!.replace(/[:：]$/, '');
  if (first !== w[0]) w[0] = first;
  if (DISPUTE_WORDS.has(first)) {
    // The reason may start on the header line: everything after the keyword and a colon.
    const after = raw.replace(/^\s*\S+\s*[:：]?\s*/, '');
    return { kind: 'dispute', text: after, alone: after.trim() === '', colon: /^\s*[^\s:：]+\s*[:：]/.test(raw) };
  }
  if (PRESS_WORDS.has(first)) return readPressOptions(w.slice(1), first === 'broadcast', names);
  if (STANDALONE.has(first) && w.length >= 2 && (EVERYONE.has(w[1]!) || REFEREE.has(w[1]!))) {
    const rest = w.slice(2);
    if (!rest.every((x) => MODIFIERS.has(x))) return null;
    return readPressOptions(w, false, names);
  }
  return null;
}

/** The words after PRESS: modifiers, then an introducer and its audience, modifiers at the end too. */
function readPressOptions(w: string[], broadcast: boolean, names: NameIndex): Header {
  const problems: Omit<PressProblem, 'line'>[] = [];
  const signs = new Set<Modifier>();
  let i = 0;
  while (i < w.length && MODIFIERS.has(w[i]!)) signs.add(MODIFIERS.get(w[i++]!)!);
  let audience: PressAudience | null = broadcast ? { kind: 'all' } : null;
  if (i < w.length) {
    if (!INTRODUCERS.has(w[i]!)) {
      problems.push({ code: 'unknown-keyword', text: clip(w.slice(i).join(' ')) });
      return { kind: 'press', audience, sign: null, problems };
    }
    i++;
    // Modifiers may close the line too: `PRESS TO Sith ANONYMOUS`.
    let j = w.length;
    while (j > i && MODIFIERS.has(w[j - 1]!)) signs.add(MODIFIERS.get(w[--j]!)!);
    audience = readAudience(w.slice(i, j), names, problems);
  }
  if (audience === null && problems.length === 0) problems.push({ code: 'no-audience' });
  if (signs.size === 2) problems.push({ code: 'both-signs' });
  const sign: PressSign = signs.size === 1 ? [...signs][0]! : null;
  return { kind: 'press', audience, sign, problems };
}

function readAudience(w: string[], names: NameIndex, problems: Omit<PressProblem, 'line'>[]): PressAudience | null {
  if (w.length === 0) return null;
  const all = w.join(' ');
  const bare = w[0] === 'the' ? w.slice(1).join(' ') : all;
  if (EVERYONE.has(bare)) return { kind: 'all' };
  if (REFEREE.has(bare)) return { kind: 'referee' };
  const factions: string[] = [];
  let others = false;
  for (const name of splitNameList(all, (piece) => names.has(piece))) {
    // `PRESS TO the Sith and to the Hutt`, `STAMPA AI Sith e AGLI Hutt`: articles and the
    // introducer repeated before a name are no part of it.
    const id = names.get(name) ?? names.get(name.replace(LEADING_ARTICLES, ''));
    if (id !== undefined) {
      if (!factions.includes(id)) factions.push(id);
    } else if ([name, name.replace(LEADING_ARTICLES, '')].some((n) => EVERYONE.has(n) || REFEREE.has(n))) {
      others = true;
    } else {
      problems.push({ code: 'unknown-faction', text: clip(name) });
    }
  }
  if (others) {
    problems.push({ code: 'mixed-audience' });
    return null;
  }
  return factions.length ? { kind: 'factions', factions } : null;
}

/**
 * A folded list of names as a press audience writes it (`sith, hutt e i cavalieri`, `sith and
 * hutt`, `sith/hutt`): its names, articles left on. `isName` keeps whole a name that holds a
 * connector. MUTE's list reads the same way (press-commands.ts).
 */
export function splitNameList(list: string, isName: (piece: string) => boolean): string[] {
  return list
    .split(/[,;/&+]/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .flatMap((piece) => splitConnectors(piece, isName));
}

/** A piece of the list: one name whole (`mercanti indipendenti`), or names joined by `e` / `and`. */
function splitConnectors(piece: string, isName: (piece: string) => boolean): string[] {
  if (isName(piece)) return [piece];
  const out: string[] = [];
  let current: string[] = [];
  for (const word of piece.split(' ')) {
    if (CONNECTORS.has(word) && current.length) {
      out.push(current.join(' '));
      current = [];
    } else if (!CONNECTORS.has(word)) current.push(word);
  }
  if (current.length) out.push(current.join(' '));
  return out;
}

type NameIndex = Map<string, string>;

/** Folded name → faction id; a name two factions share names neither (as in `H:`, D-PARSE-8). */
function nameIndex(factions: readonly PressFaction[]): NameIndex {
  const index = new Map<string, string | null>();
  for (const f of factions)
    for (const n of [f.id, ...f.names]) {
      const key = foldName(n);
      if (key === '') continue;
      const seen = index.get(key);
      index.set(key, seen === undefined || seen === f.id ? f.id : null);
    }
  return new Map([...index].flatMap(([k, v]) => (v === null ? [] : [[k, v] as const])));
}

function clip(raw: string): string {
  const s = cleanText(raw);
  return s.length > MAX_QUOTED ? `${s.slice(0, MAX_QUOTED - 1)}…` : s;
}

/**
 * Whether a text holds a line the reader takes for a press or dispute header (whoever it names):
 * how mail reading knows that a body is more than a note about the sheet attached.
 */
export function hasPressHeader(text: string): boolean {
  const none: NameIndex = new Map();
  for (const raw of text.split('\n')) {
    if (raw.length > MAX_HEADER || !mayBeKeyword(raw)) continue;
    if (readHeader(fold(raw), raw, none)) return true;
  }
  return false;
}

/** The factions of a map as press names them: ids and every name in every language. */
export function pressFactions(map: {
  factions: readonly { id: string; names: { it: readonly string[]; en: readonly string[] } }[];
}): PressFaction[] {
  return map.factions.map((f) => ({ id: f.id, names: [...f.names.it, ...f.names.en] }));
}

// The head of a relay as src/text/press.ts writes it (`Partita "…", turno 3` then `Da: …`): a copy
// of it in a reply is the message replied to, quoted by a client without marks or attribution.
const RELAY_HEAD = /^\s*(?:partita|game) ".{0,200}", (?:turno|turn) \d{1,6}$/i;
const RELAY_FROM = /^\s*(?:da|from): /i;

/** The line where a copy of one of our relays starts (nothing of it is the reply), or the line count. */
function ourRelayAt(lines: readonly string[]): number {
  for (let i = 0; i + 1 < lines.length; i++) {
    const l = lines[i]!;
    if (l.length <= MAX_HEADER && RELAY_HEAD.test(l) && RELAY_FROM.test(lines[i + 1]!.slice(0, 20))) return i;
  }
  return lines.length;
}

/**
 * A referee's reply as it is relayed (their words are words, REPORT included, D-PRESS-4): the same
 * cleaning as a player's, and the same end at a copy of our relay.
 */
export function refereeReplyText(text: string): string {
  const lines = cleanText(text).split('\n');
  return lines.slice(0, ourRelayAt(lines)).join('\n');
}

/** What a reply to a relayed message says (its Reply-To token names the thread): a report, or a message. */
export type PressReply = { kind: 'report'; reason: string } | { kind: 'message'; text: string } | { kind: 'empty' };

/**
 * A reply through a press token: the whole new text is the message, keywords and all — except a
 * first line `REPORT` / `SEGNALA` (with an optional reason after it, and on the lines below),
 * which sends the message replied to to the referees instead (docs/press.md) — and except a copy
 * of our relay that the quote readers did not recognise as one: nothing is relayed twice.
 */
export function readPressReply(text: string): PressReply {
  // What others will read: controls and direction overrides gone, as from any typed text (D-INPUT-1).
  const lines = cleanText(text)
    .split('\n')
    .map((l) => l.trimEnd());
  let a = 0;
  let b = ourRelayAt(lines);
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  if (a === b) return { kind: 'empty' };
  const first = lines[a]!;
  const m = first.length <= MAX_HEADER ? /^\s*(report|segnala|segnalo)\b\s*([:：\-–—]?)\s*(.*)$/i.exec(first) : null;
  // `Report back when you have moved`, `Segnala pure, non mi importa` are answers, not reports: the
  // keyword is a report alone on its line, before a colon or a dash, or written in capitals as the
  // relay's footer teaches (`SEGNALA insulti`) — D-PRESS-36.
  if (m && (/^[.!]*$/.test(m[3]!) || m[2] !== '' || m[1] === m[1]!.toUpperCase()))
    return { kind: 'report', reason: [m[3]!.replace(/^[.!]+$/, ''), ...lines.slice(a + 1, b)].join('\n').trim() };
  return { kind: 'message', text: lines.slice(a, b).join('\n') };
}
