// The one rule for text a person typed (game and player names, reasons, sheets shown back), and the
// last step of every writer that puts such text in a document (D-INPUT-1). Control characters and
// Unicode non-characters cannot be written in XML 1.0 (an Atom reader refuses the whole feed), a
// line break in an iCalendar property starts a property of its own, and bidi overrides make a name
// display as another one. A single line (a name) that holds one is refused, saying which and where:
// the person typing can fix it. A multi-line text (a reason, a sheet) keeps its line breaks and tabs
// and loses the rest: a sheet pasted from a word processor must not be refused for an invisible
// character. Old stored data is made safe where it is written out (xmlText, icalText).

/** C0 and C1 controls and DEL, but tab, line feed and carriage return (kept or turned by each reader). */
const CONTROL = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';
/** U+FDD0–FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE, …). */
const NONCHARACTER =
  '\\uFDD0-\\uFDEF\\uFFFE\\uFFFF' +
  Array.from({ length: 16 }, (_, i) => `\\u{${(i + 1).toString(16)}FFFE}\\u{${(i + 1).toString(16)}FFFF}`).join('');
/** Embeddings, overrides and isolates: LRE RLE PDF LRO RLO, LRI RLI FSI PDI. */
const BIDI = '\\u202A-\\u202E\\u2066-\\u2069';
/** A surrogate with no partner (a broken UTF-16 string): not a character at all. */
const LONE_SURROGATE = '\\p{Cs}';

const NEVER = new RegExp(`[${CONTROL}${NONCHARACTER}${BIDI}]|${LONE_SURROGATE}`, 'gu');
const NEVER_IN_A_LINE = new RegExp(`[\\t\\n\\r${CONTROL}${NONCHARACTER}${BIDI}]|${LONE_SURROGATE}`, 'u');

const describe = (c: string): string => {
  const code = c.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code === 0x0a || code === 0x0d) return `a line break (${hex})`;
  if (/[\u202A-\u202E\u2066-\u2069]/.test(c)) return `a text-direction control (${hex})`;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `a control character (${hex})`;
  return `a character that is not text (${hex})`;
};

/** Why a one-line text (a name) cannot be taken as typed, or null when it can. */
export function lineProblem(text: string): string | null {
  const m = NEVER_IN_A_LINE.exec(text);
  if (!m) return null;
  const position = [...text.slice(0, m.index)].length + 1;
  return `holds ${describe(m[0])} at character ${position}: type it again without it`;
}

/** A multi-line text as it is kept: line breaks as \n, tabs kept, every other forbidden character removed. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(NEVER, '');
}

/** Text for an XML document (XML 1.0 Char): the same removals; \n and \t stay. */
export function xmlText(text: string): string {
  return cleanText(text);
}

/**
 * Text for one iCalendar property value: no line break of its own (the library writes \n as the
 * escaped "\n", but not \r; a name holds none), so a stored name with a CR/LF cannot start a property.
 */
export function icalText(text: string, opts: { multiline?: boolean } = {}): string {
  const clean = cleanText(text);
  return opts.multiline ? clean : clean.replace(/[\n\t]+/g, ' ');
}
