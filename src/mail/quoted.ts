// Quoted history, signatures and mobile footers out of a plain-text reply (MAIL.md "Which text is
// the sheet"): the old sheet a player replies to must never be read as this week's orders.
//
// Two kinds of quote exist in the wild. Marked quotes (`>` lines — Gmail, Apple Mail,
// Thunderbird, and our html-text for <blockquote>) can sit anywhere, so they are removed where
// they are and text below them is read (bottom-posting, interleaving). Unmarked history (Outlook's
// separator and header block, forwards) has no end, so everything after it goes. An attribution
// line ("On … wrote:") is removed with the marked quote that follows it; when no marked quote
// follows, the client quoted without marks and the rest is history.

export type Cut = 'quote' | 'attribution' | 'history' | 'signature' | 'footer';

export interface StrippedText {
  text: string;
  /** What was taken out, once per kind, in the order first met. */
  cuts: Cut[];
}

const QUOTE = /^\s*>/;

// "On … wrote:" and its translations (Gmail, Apple Mail, Thunderbird, Outlook for Mac, Yahoo).
// Thunderbird in Italian writes "Il 03/03/2025 10:12, Mario ha scritto:" — no "giorno".
const ATTRIBUTION = [
  /^on\b.{0,400}\bwrote\s?:$/i,
  /^il\b.{0,400}\bha scritto\s?:$/i,
  /^le\b.{0,400}\ba écrit\s?:$/i,
  /^am\b.{0,400}\bschrieb\b.{0,300}:$/i,
  /^el\b.{0,400}\bescribió\s?:$/i,
];
// "Mario Rossi <mario@example.it> ha scritto:" with no lead word: only trusted when a marked
// quote follows, since a chatty player may well write "… as Mario wrote:".
const LOOSE_ATTRIBUTION = /^.{1,300}\b(?:wrote|ha scritto|scrive|a écrit|schrieb|escribió)\s?:$/i;

// Separators after which everything is history (Outlook, Gmail and Thunderbird forwards, Apple).
const SEPARATOR = [
  /^-{2,}\s*(?:original message|messaggio originale|message d'origine|ursprüngliche nachricht|mensaje original|mensagem original)\s*-{2,}$/i,
  /^-{2,}\s*(?:forwarded message|messaggio inoltrato|message transféré|weitergeleitete nachricht|mensaje reenviado)\s*-{2,}$/i,
  /^(?:begin forwarded message|inizio messaggio inoltrato|début du message réexpédié)\s?:$/i,
];
const RULE = /^_{10,}$/;

// Outlook's header block of the message replied to, plain or (Gmail's rendering) starred.
const HDR_FROM = /^\*?(?:from|da|de|von|van)\s?:\*?\s*\S/i;
const HDR_DATE = /^\*?(?:sent|date|inviato|data|envoyé|gesendet|datum|enviado)\s?:\*?/i;
const HDR_SUBJECT = /^\*?(?:subject|oggetto|objet|betreff|asunto|assunto|onderwerp)\s?:\*?/i;

// Lines mobile clients append under the new text.
const FOOTER =
  /^(?:inviato da(?:l mio)? .{1,60}|sent from (?:my )?.{1,60}|get outlook for (?:ios|android)|(?:ottieni|scarica) outlook per (?:ios|android)|envoyé de mon .{1,60}|von meinem .{1,60} gesendet|enviado desde mi .{1,60})\s*(?:<[^>]*>|\[[^\]]*\])?$/i;

/**
 * Whether a line looks like part of a sheet: an order, or an `H:` / `V:` / `E:` line (in any of
 * the spellings the parser knows). A shape test, not a parser: it only decides which part of a
 * mail to hand to the parser, never what an order means.
 */
export function looksLikeSheetLine(line: string): boolean {
  const t = line.replace(/[\s\u00a0\u2000-\u200a\u202f\u3000]+/g, ' ').trim().replace(/^[-*•] /, '');
  return (
    /^(?:h|v|e|ostili|ostilità|ostilita|hostile|hostility|voto|vote|elimina|eliminate) ?[:：]/i.test(t) ||
    /^[A-Za-z] ?\d{1,3} ?[-=#\u2010-\u2015\u2212\ufe58\ufe63\uff0d\uff1d\uff03]/.test(t)
  );
}

type Kind = 'text' | 'quote' | 'footer' | 'signature' | 'loose-signature' | 'attribution' | 'blank';

/** Number of lines (1 to maxLines) an attribution at line i spans, or 0. */
function attributionAt(lines: string[], i: number, patterns: RegExp[], maxLines: number): number {
  let joined = '';
  for (let k = 0; k < maxLines && i + k < lines.length; k++) {
    const l = lines[i + k]!;
    if (l.length > 600 || l.trim() === '' || QUOTE.test(l)) return 0;
    joined = `${joined} ${l}`.replace(/\s+/g, ' ').trim();
    if (patterns.some((p) => p.test(joined))) return k + 1;
  }
  return 0;
}

function nextNonBlank(lines: string[], i: number): number {
  while (i < lines.length && lines[i]!.trim() === '') i++;
  return i;
}

/** An Outlook-style header block starting at line i: From/Da, then a date and a subject line. */
function headerBlockAt(lines: string[], i: number): boolean {
  if (!HDR_FROM.test(lines[i]!.trim())) return false;
  let date = false;
  let subject = false;
  for (let k = i + 1; k < Math.min(lines.length, i + 9); k++) {
    const t = lines[k]!.trim();
    if (t === '') break;
    date ||= HDR_DATE.test(t);
    subject ||= HDR_SUBJECT.test(t);
  }
  return date && subject;
}

/** Remove quoted history, signature and mobile footers; see the header for what counts. */
export function splitQuoted(input: string): StrippedText {
  const lines = input.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  const kinds: Kind[] = new Array<Kind>(lines.length).fill('text');
  let end = lines.length; // first line of unmarked history
  const cuts = new Set<Cut>();

  for (let i = 0; i < end; i++) {
    const line = lines[i]!;
    const t = line.trim();
    if (t === '') kinds[i] = 'blank';
    else if (QUOTE.test(line)) kinds[i] = 'quote';
    else if (line.replace(/\s+$/, '') === '--') kinds[i] = line === '-- ' ? 'signature' : 'loose-signature';
    else if (FOOTER.test(t) && t.length < 120) kinds[i] = 'footer';
    else if (SEPARATOR.some((p) => p.test(t)) || headerBlockAt(lines, i)) end = i;
    else if (RULE.test(t) && HDR_FROM.test(lines[nextNonBlank(lines, i + 1)]?.trim() ?? '')) end = i;
    else {
      // Wrapped attributions are joined only when they start with a lead word ("On", "Il"…): a
      // loose one joined to the line above would swallow a sheet line.
      const strict = attributionAt(lines, i, ATTRIBUTION, 3);
      const span = strict || attributionAt(lines, i, [LOOSE_ATTRIBUTION], 1);
      if (span === 0) continue;
      const after = nextNonBlank(lines, i + span);
      const marked = after < lines.length && QUOTE.test(lines[after]!);
      if (!marked && strict === 0) continue; // a loose one without a quote is just a sentence
      for (let k = i; k < i + span; k++) kinds[k] = 'attribution';
      cuts.add('attribution');
      if (!marked && after < lines.length) end = after;
      i += span - 1;
    }
  }
  if (end < lines.length) cuts.add('history');

  // A bare `--` is a signature delimiter that lost its trailing space (Outlook, some webmails)
  // unless sheet lines follow it: then it was the player's own separator and is skipped.
  const sheetAfter: boolean[] = new Array<boolean>(end + 1).fill(false);
  for (let i = end - 1; i >= 0; i--) sheetAfter[i] = sheetAfter[i + 1]! || (kinds[i] === 'text' && looksLikeSheetLine(lines[i]!));

  const out: string[] = [];
  for (let i = 0; i < end; i++) {
    const kind = kinds[i]!;
    if (kind === 'text' || kind === 'blank') out.push(lines[i]!);
    else if (kind === 'quote') cuts.add('quote');
    else if (kind === 'footer') cuts.add('footer');
    else if (kind === 'signature' || (kind === 'loose-signature' && !sheetAfter[i + 1])) {
      cuts.add('signature');
      break;
    }
  }
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  let first = 0;
  while (first < out.length && out[first]!.trim() === '') first++;
  return { text: out.slice(first).join('\n'), cuts: [...cuts] };
}

/** The new text of a plain-text reply. */
export function stripQuoted(text: string): string {
  return splitQuoted(text).text;
}
