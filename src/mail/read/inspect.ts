// What the intake would make of one mail, without touching a game: extraction plus the sheet
// parser. Used by `sf mail inspect` and by the fixture corpus, so both read mail the same way.
import { classicMap, type Board } from '../../adjudicator/map.ts';
import { parseSheet } from '../../adjudicator/sheet.ts';
import type { Problem, Side } from '../../adjudicator/types.ts';
import { readPlayerCommand } from '../../games/player-commands.ts';
import { inBoth } from '../../text/define.ts';
import { mailDamageTexts } from '../../text/mail-damage.ts';
import { extractMail, type ExtractedMail, type ExtractOptions, type SheetSource } from './extract.ts';

export interface InspectResult {
  automatic: boolean;
  /**
   * A command the mail gives (STATUS, HELP, ABSENCE), read as intake reads it; then the mail is not
   * a sheet. `absence-dates`: an ABSENCE whose dates cannot be read.
   */
  command: 'status' | 'help' | 'absence' | 'absence-dates' | 'press' | null;
  gameTag: string | null;
  secret: string | null;
  sheetText: string;
  /** Canonical (`B2-C3`, `B2=F6`, `N9#`), in the order written, superseded ones included. */
  orders: string[];
  /** Faction ids from `H:` lines; null when the sheet has no `H:` line. */
  hostility: Side[] | null;
  vote: Side | null;
  eliminate: string | null;
  /** Extraction problems (line 0) first, then the parser's, in line order. */
  problems: Problem[];
  /** Lines that are text, not orders (D-PARSE-16): noted to the player, never problems. */
  ignored: Problem[];
  normalised: Problem[];
  // What extraction saw, for the referee reading the output.
  from: string | null;
  fromName: string | null;
  subject: string | null;
  automaticReasons: string[];
  secretSource: ExtractedMail['secretSource'];
  sheetSource: SheetSource;
  oversized: boolean;
  broken: string | null;
}

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** Problems about the mail itself, before any sheet line (MAIL.md "Size and shape"). */
export function mailProblems(mail: ExtractedMail, maxBytes: number): Problem[] {
  const out: Problem[] = [];
  if (mail.automatic) return out; // never answered: nobody to tell
  if (mail.oversized)
    out.push({
      line: 0,
      code: 'mail-oversized',
      message: inBoth(mailDamageTexts, (t) => t.oversized(mb(maxBytes))),
    });
  for (const r of mail.brokenReasons)
    out.push({
      line: 0,
      code: 'mail-broken',
      message: inBoth(mailDamageTexts, (t, lang) => t.damaged(r[lang])),
    });
  if (!mail.oversized && mail.sheetText.trim() === '')
    out.push({
      line: 0,
      code: 'mail-no-sheet',
      message: inBoth(mailDamageTexts, (t) => t.noSheet),
    });
  return out;
}

/** Extract and parse one raw mail. Never throws. */
export async function inspectMail(raw: Buffer, opts: ExtractOptions & { board?: Board }): Promise<InspectResult> {
  const mail = await extractMail(raw, opts);
  // The same reading as intake's (decidePlayerMail): a command first, else a sheet. ABSENCE dates
  // like `1/4` are read from the day the mail was received, in UTC (no game's zone here).
  const day = () => (mail.receivedAt ?? new Date().toISOString()).slice(0, 10);
  const command = mail.automatic || mail.oversized ? null : (readPlayerCommand(mail.sheetText, mail.subject, day)?.kind ?? null);
  const read = !mail.automatic && !mail.oversized && mail.sheetText !== '' && command === null;
  const sheet = read ? parseSheet(mail.sheetText, opts.board ?? classicMap()) : null;
  return {
    automatic: mail.automatic,
    gameTag: mail.gameTag,
    secret: mail.secret,
    sheetText: mail.sheetText,
    orders: sheet ? sheet.orders.map((o) => o.canonical) : [],
    hostility: sheet?.hostilityDeclared ? sheet.hostility : null,
    vote: sheet?.vote?.side ?? null,
    eliminate: sheet?.eliminate?.cell ?? null,
    problems: command ? [] : [...mailProblems(mail, opts.maxBytes), ...(sheet?.problems ?? [])],
    ignored: sheet?.ignored ?? [],
    normalised: sheet?.normalised ?? [],
    from: mail.from,
    fromName: mail.fromName,
    subject: mail.subject,
    automaticReasons: mail.automaticReasons,
    secretSource: mail.secretSource,
    sheetSource: mail.sheetSource,
    oversized: mail.oversized,
    broken: mail.broken,
    command,
  };
}
