// RFC 3676 §4.5: in format=flowed text, lines of different quote depth are never joined. The
// flowed decoder mailparser runs (and fast-body.ts mirrors) ignores quote depth, so a quoted line
// that ends in a space swallows the unquoted line after it, and the player's new text disappears
// into the quote. Both decoders are kept as they are; instead, before either runs, a line whose
// soft break would cross a change of quote depth loses its trailing blanks (and a trailing `=20`,
// the quoted-printable spelling of that space), which makes it a hard break. Trailing blanks never
// matter anywhere else in a mail we read for a sheet, so the whole raw mail is treated, once, and
// only when it mentions "flowed"; the stored raw mail keeps its bytes.

const GT = 0x3e;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Number of `>` at the start of the line from `start` to `end` (spaces between them allowed). */
function depthAt(raw: Buffer, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const b = raw[i];
    if (b === GT) depth++;
    else if (b !== SPACE || depth === 0) break;
  }
  return depth;
}

/** How many bytes of a soft break (blanks, `=20`s) end the line [start, end); 0 when none. */
function softBreakLength(raw: Buffer, start: number, end: number): number {
  let k = end;
  for (;;) {
    if (k > start && (raw[k - 1] === SPACE || raw[k - 1] === TAB)) k--;
    else if (k - 3 >= start && raw[k - 3] === 0x3d && raw[k - 2] === 0x32 && raw[k - 1] === 0x30) k -= 3;
    else break;
  }
  return end - k;
}

/** The raw mail with every soft break across a change of quote depth made hard; see above. */
export function hardenDepthChanges(raw: Buffer): Buffer {
  if (!/flowed/i.test(raw.toString('latin1'))) return raw;
  const cuts: [number, number][] = []; // [from, to) ranges to drop
  let prev: { start: number; end: number } | null = null;
  for (let start = 0; start <= raw.length;) {
    let lf = raw.indexOf(LF, start);
    if (lf < 0) lf = raw.length;
    const end = lf > start && raw[lf - 1] === CR ? lf - 1 : lf;
    if (prev) {
      const soft = softBreakLength(raw, prev.start, prev.end);
      const signature = prev.end - prev.start === 3 && raw.toString('latin1', prev.start, prev.end) === '-- ';
      if (soft > 0 && !signature && depthAt(raw, prev.start, prev.end) !== depthAt(raw, start, end)) cuts.push([prev.end - soft, prev.end]);
    }
    // A quoted-printable soft line break (`=` at the end) continues the line, it does not end it.
    prev = raw[end - 1] === 0x3d && softBreakLength(raw, start, end) === 0 ? null : { start, end };
    start = lf + 1;
  }
  if (cuts.length === 0) return raw;
  const parts: Buffer[] = [];
  let from = 0;
  for (const [a, b] of cuts) {
    parts.push(raw.subarray(from, a));
    from = b;
  }
  parts.push(raw.subarray(from));
  return Buffer.concat(parts);
}
