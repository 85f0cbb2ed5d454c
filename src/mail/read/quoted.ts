// Quoted history, signatures and mobile footers out of a plain-text reply (MAIL.md "Which text is
// the sheet"): the old sheet a player replies to must never be read as this week's orders.
//
// Two kinds of quote exist in the wild. Marked quotes (`>` lines — Gmail, Apple Mail,
// Thunderbird, and our html-text for <blockquote>) can sit anywhere, so they are removed where
// they are and text below them is read (bottom-posting, interleaving). Unmarked history (Outlook's
// separator and header block, forwards) has no end, so everything after it goes. An attribution
// line ("On … wrote:") is removed with the marked quote that follows it; when no marked quote
// follows, the client quoted without marks and the rest is history.
//
// Why our own reader and not email-reply-parser or planer: measured on the fixture
// corpus it reads every reply right, email-reply-parser misses Outlook's Italian "Messaggio
// originale" history and planer (plain text only without a DOM) misses more; running
// email-reply-parser first adds nothing. test/mail/reply-readers.test.ts keeps the comparison.

export type Cut = 'quote' | 'attribution' | 'history' | 'signature' | 'footer';

export interface StrippedText {
  text: string;
  /** What was taken out, once per kind, in the order first met. */
  cuts: Cut[];
}

const QUOTE = /^\s*>/;

// "On … wrote:" and its translations (Gmail, Apple Mail, Thunderbird, Outlook for Mac, Yahoo).
// Thunderbird in Italian writes "Il 03/03/2025 10:12, Mario ha scritto:" — no "giorno"; other
// Italian clients "In data 11 ottobre 2017 21:11:31 … ha scritto:" (email-reply-parser's
// email_italian fixture) or "Alle 09:00 di lunedì … ha scritto:".
const ATTRIBUTION = [
  /^on\b.{0,400}\bwrote\s?:$/i,
  /^(?:il|in data|alle|giorno)\b.{0,400}\b(?:ha scritto|scrive)\s?:$/i,
  /^le\b.{0,400}\ba écrit\s?:$/i,
  /^am\b.{0,400}\bschrieb\b.{0,300}:$/i,
  /^el\b.{0,400}\bescribió\s?:$/i,
  /^em\b.{0,400}\bescreveu\s?:$/i,
  // Gmail in German puts the name first and wraps inside the date (email-reply-parser's
  // email_gmail_split_datetime fixture): "Aa Bb <abc@abc.org> schrieb am So., 23.\nJuni 2024, 21:08:".
  /^.{0,200}<[^<>\s]{1,200}@[^<>\s]{1,200}>,? (?:schrieb am|wrote on|a écrit le|ha scritto il|escribió el)\b.{0,100}:$/i,
];
// "Mario Rossi <mario@example.it> ha scritto:" with no lead word, or only a date and an address
// ("2025-03-03 9:00 GMT+01:00 SF <orders@sf.example>:", older Gmail): only trusted when a marked
// quote follows, since a chatty player may well write "… as Mario wrote:".
const LOOSE_ATTRIBUTION = [
  // Gmail in Dutch, Polish, the Nordic languages, Finnish, Russian and Turkish too (a player's
  // client language is theirs, not the game's).
  /^.{1,300}(?:\b(?:wrote|ha scritto|scrive|a écrit|schrieb|escribió|escreveu|schreef|napisał(?:\(a\))?|skrev|kirjoitti|yazdı)|написал\p{L}{0,2}|пишет)\s?:$/iu,
  /^.{0,200}\d.{0,200}<[^<>\s]{1,200}@[^<>\s]{1,200}>\s?:$/,
];

// Separators after which everything is history (Outlook, Gmail and Thunderbird forwards, Apple;
// Zoho's "---- On … wrote ----", email-reply-parser's email_zoho fixture).
const SEPARATOR = [
  /^-{2,}\s*(?:original message|messaggio originale|message d'origine|ursprüngliche nachricht|mensaje original|mensagem original)\s*-{2,}$/i,
  /^-{2,}\s*(?:forwarded message|messaggio inoltrato|message transféré|weitergeleitete nachricht|mensaje reenviado)\s*-{2,}$/i,
  /^(?:begin forwarded message|inizio messaggio inoltrato|début du message réexpédié)\s?:$/i,
  /^-{2,}\s*(?:on|il|le|am|el|em)\b.{0,400}\b(?:wrote|ha scritto|a écrit|schrieb|escribió|escreveu)\s*:?\s*-{2,}$/i,
];
// Yahoo Mail writes a forward's marker and its header block on one indented line, the fields run
// together ("----- Messaggio inoltrato ----- Da: … A: … Inviato: … Oggetto: …"): the marker
// followed by a From label is history as surely as the marker alone.
import { looksLikeSheetLine } from '../../adjudicator/sheet-shape.ts';

export { looksLikeSheetLine };

const SEPARATOR_WITH_HEADERS =
  /^-{2,}\s*(?:original message|messaggio originale|forwarded message|messaggio inoltrato|message transféré|weitergeleitete nachricht|mensaje reenviado)\s*-{2,}\s*\*?(?:from|da|de|von|van)\s?:/i;
const RULE = /^_{10,}$/;
// Dashes a client may draw its separator with: Proton Mail writes "‐‐‐‐‐‐‐ Original Message ‐‐‐‐‐‐‐"
// with U+2010 hyphens; others en or em dashes, or the minus sign.
const OTHER_DASHES = /[\u2010-\u2015\u2212]/g;

/** A separator line after which everything is history, drawn with ASCII hyphens or other dashes. */
function isSeparator(t: string): boolean {
  const line = t.replace(OTHER_DASHES, '-');
  return SEPARATOR.some((p) => p.test(line)) || SEPARATOR_WITH_HEADERS.test(line);
}

// The header block of the message replied to or forwarded (Outlook, OWA, Hotmail, Apple's
// forwards), plain or (Gmail's rendering) starred, its fields in any order and in the languages
// players use: Hotmail puts Date: first (talon's html_replies/hotmail.html), Italian Outlook
// writes Da:/Inviato:/A: and may leave out Oggetto:.
const HDR_FROM = /^\*?(?:from|da|de|von|van)\s?:\*?\s*\S/i;
const HDR_DATE = /^\*?(?:sent|date|inviato|data|envoyé|gesendet|datum|enviado|fecha|verzonden)\s?:\*?/i;
const HDR_SUBJECT = /^\*?(?:subject|oggetto|objet|betreff|asunto|assunto|onderwerp)\s?:\*?/i;
const HDR_TO = /^\*?(?:to|a|à|an|para|aan|cc|ccn|bcc)\s?:\*?/i;
// The same labels inside a line: a forward whose whole header block sits on one line.
const INLINE_DATE = /\s\*?(?:sent|date|inviato|data|envoyé|gesendet|datum|enviado|fecha|verzonden)\s?:/i;
const INLINE_SUBJECT = /\s\*?(?:subject|oggetto|objet|betreff|asunto|assunto|onderwerp)\s?:/i;

// Lines mobile clients append under the new text.
// Proton Mail's default signature is one too ("Sent with Proton Mail secure email.", older
// "ProtonMail Secure Email", Italian "Inviato con l'email sicura di ProtonMail."): relayed, it
// names the writer's provider, which an anonymous message must not.
const FOOTER =
  /^(?:inviato da(?:l mio)? .{1,60}|sent from (?:my )?.{1,60}|sent with proton ?mail(?: secure email)?\.?|sent with spark|inviato con l['’]email sicura di proton ?mail\.?|get outlook for (?:ios|android)|(?:ottieni|scarica) outlook per (?:ios|android)|envoyé de mon .{1,60}|von meinem .{1,60} gesendet|enviado desde mi .{1,60})\s*(?:<[^>]*>|\[[^\]]*\])?$/i;

type Kind = 'text' | 'quote' | 'footer' | 'signature' | 'loose-signature' | 'attribution' | 'blank';

/** Whether a line's last non-blank character is a colon (`:` or the full-width `：`). */
function endsInColon(line: string): boolean {
  let k = line.length - 1;
  while (k >= 0 && /\s/.test(line[k]!)) k--;
  return k >= 0 && (line[k] === ':' || line[k] === '：');
}

/** Number of lines (1 to maxLines) an attribution at line i spans, or 0. */
function attributionAt(lines: string[], i: number, patterns: RegExp[], maxLines: number): number {
  for (let k = 0; k < maxLines && i + k < lines.length; k++) {
    const l = lines[i + k]!;
    if (l.length > 600 || l.trim() === '' || QUOTE.test(l)) return 0;
    // Every attribution ends in a colon: the lines are joined and tried only when this one does.
    if (!endsInColon(l)) continue;
    const joined = lines
      .slice(i, i + k + 1)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (patterns.some((p) => p.test(joined))) return k + 1;
  }
  return 0;
}

function nextNonBlank(lines: string[], i: number): number {
  while (i < lines.length && lines[i]!.trim() === '') i++;
  return i;
}

const isHeaderLine = (t: string) => HDR_FROM.test(t) || HDR_DATE.test(t) || HDR_SUBJECT.test(t) || HDR_TO.test(t);

/**
 * A header block starting at line i: consecutive `Label: value` lines, in any order, with a
 * sender and a date or a subject — or a From line that holds the date and subject itself.
 */
function headerBlockAt(lines: string[], i: number): boolean {
  const first = lines[i]!.trim();
  if (first.length > 2000 || !isHeaderLine(first)) return false;
  if (HDR_FROM.test(first) && INLINE_DATE.test(first) && INLINE_SUBJECT.test(first)) return true;
  let from = false;
  let dateOrSubject = false;
  for (let k = i; k < Math.min(lines.length, i + 9); k++) {
    const t = lines[k]!.trim();
    if (t === '' || !isHeaderLine(t)) break;
    from ||= HDR_FROM.test(t);
    dateOrSubject ||= HDR_DATE.test(t) || HDR_SUBJECT.test(t);
  }
  return from && dateOrSubject;
}

/** After a `____` rule (Outlook; an <hr> or a top-bordered <div> in HTML): a From line or a header block. */
function ruleStartsHistory(lines: string[], next: number): boolean {
  return next < lines.length && (HDR_FROM.test(lines[next]!.trim()) || headerBlockAt(lines, next));
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
    else if (line.trimEnd() === '--') kinds[i] = line === '-- ' ? 'signature' : 'loose-signature';
    else if (t.length < 120 && FOOTER.test(t)) kinds[i] = 'footer';
    else if (isSeparator(t) || headerBlockAt(lines, i)) end = i;
    else if (RULE.test(t) && ruleStartsHistory(lines, nextNonBlank(lines, i + 1))) end = i;
    else {
      // Wrapped attributions are joined only when they start with a lead word ("On", "Il"…): a
      // loose one joined to the line above would swallow a sheet line.
      const strict = attributionAt(lines, i, ATTRIBUTION, 3);
      const span = strict || attributionAt(lines, i, LOOSE_ATTRIBUTION, 1);
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
