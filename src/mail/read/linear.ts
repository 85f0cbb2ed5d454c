// Linear-time replacements for the string operations that backtrack on hostile mail.
// A trailing-blank regex such as `/[ \t]+$/` is tried at every position of a run of blanks that
// does not end the line, so one 200 KB run costs 200 000² steps; these loops look at each
// character once or twice, whatever the input.

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;

/** `s.replace(/[ \t]+$/, '')` (and with `\r` when `cr`), in linear time. */
export function trimEndBlanks(s: string, cr = false): string {
  let end = s.length;
  for (; end > 0; end--) {
    const c = s.charCodeAt(end - 1);
    if (c !== SPACE && c !== TAB && !(cr && c === CR)) break;
  }
  return end === s.length ? s : s.slice(0, end);
}

/** The text with `(comments)` removed, as `/\([^)]*\)/g` would remove them, in one pass. */
export function withoutComments(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) !== 0x28) continue;
    const close = s.indexOf(')', i + 1);
    if (close < 0) break; // no `)` anywhere after: nothing more can match
    out += s.slice(from, i);
    from = i = close + 1;
    i--; // the loop's i++ lands on close + 1
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * The raw mail with every run of more than `max` spaces and tabs cut to `max`, for mailparser:
 * its quoted-printable decoder (libqp, `/[\t ]+$/gm` over the whole part) is quadratic in the
 * length of a run of blanks inside a line. No run that long means anything in a mail we read for
 * a sheet — spaces between words do not matter (MAIL.md), base64 ignores them, headers fold them
 * — and the stored raw mail keeps them. A copy is made only when such a run exists.
 */
export function shortenBlankRuns(raw: Buffer, max = 8): Buffer {
  let first = -1;
  for (let i = 0, run = 0; i < raw.length; i++) {
    const b = raw[i];
    run = b === SPACE || b === TAB ? run + 1 : 0;
    if (run > max) {
      first = i;
      break;
    }
  }
  if (first < 0) return raw;
  const out = Buffer.allocUnsafe(raw.length);
  raw.copy(out, 0, 0, first);
  let n = first;
  let run = max;
  for (let i = first; i < raw.length; i++) {
    const b = raw[i]!;
    if (b === SPACE || b === TAB) {
      if (++run > max) continue;
    } else run = 0;
    out[n++] = b;
  }
  return out.subarray(0, n);
}
