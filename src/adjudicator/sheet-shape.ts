// Whether a line of a mail looks like part of a sheet, for the readers that must find the sheet
// in a mail (quotes and forwards, press blocks) before the sheet reader reads it. Pure.

const MAYBE_SHEET = /[0-9:：]/;
const FOLDABLE = /[^\S ]|\s\s/;

/**
 * Whether a line looks like part of a sheet: an order, or an `H:` / `V:` / `E:` line (in any of
 * the spellings the parser knows). A shape test, not a parser: it only decides which part of a
 * mail to hand to the parser, never what an order means.
 */
export function looksLikeSheetLine(line: string): boolean {
  // Two exact shortcuts, as most lines are chatter with single spaces: both patterns below need a
  // colon or a digit, which folding never adds, and folding changes only a run of blanks or a
  // blank other than a space.
  if (!MAYBE_SHEET.test(line)) return false;
  const folded = FOLDABLE.test(line) ? line.replace(/[\s\u00a0\u2000-\u200a\u202f\u3000]+/g, ' ') : line;
  const t = folded.trim().replace(/^[-*•] /, '');
  return (
    /^(?:h|v|e|ostili|ostilità|ostilita|hostile|hostility|voto|vote|elimina|eliminate) ?[:：]/i.test(t) ||
    /^[A-Za-z] ?\d{1,3} ?[-=#\u2010-\u2015\u2212\ufe58\ufe63\uff0d\uff1d\uff03]/.test(t)
  );
}
