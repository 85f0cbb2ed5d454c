// How much of what a player wrote a reply may carry back: a sheet of one 50 KB line
// has thousands of problems, and each reply must stay a mail a phone can show. Every helper here
// is linear in what it keeps, never in what it was given.

/** Problems listed in an acknowledgement; the rest are counted. */
export const MAX_PROBLEMS_LISTED = 50;
/** Orders listed in an acknowledgement; the rest are counted. */
export const MAX_ORDERS_LISTED = 100;
/** Lines of the current sheet quoted by STATUS, and characters of each. */
export const MAX_STATUS_LINES = 60;
export const MAX_QUOTED_LINE = 120;
/** Reasons a damaged mail is listed with (each may quote a header). */
export const MAX_DAMAGE_LISTED = 5;

/** The first `maxLines` lines of a text, each cut at `maxChars`, and how many lines were left out. */
export function headLines(text: string, maxLines: number, maxChars: number): { lines: string[]; omitted: number } {
  const lines: string[] = [];
  let start = 0;
  let omitted = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (lines.length < maxLines) lines.push(clip(text.slice(start, Math.min(end, start + maxChars + 1)).replace(/\r$/, ''), maxChars));
    else omitted++;
    start = end + 1;
  }
  while (lines.length && lines[lines.length - 1] === '' && omitted === 0) lines.pop();
  return { lines, omitted };
}

/** A string cut at `max` characters, marked with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
