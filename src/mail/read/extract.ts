// One raw mail → what the intake needs from it: who, for which game, automatic or not, and the
// sheet text. Pure (no I/O), never throws: whatever the bytes, the mail gets stored and, when a
// person wrote it, answered — so a failure here is reported in `broken`, never raised.
import { mailDamageTexts } from '../../text/mail-damage.ts';
import { automaticReasons } from './automatic.ts';
import type { Body } from './body.ts';
import { parseBody } from './extract-body.ts';
import { addresses, decodeWords, header, headers, readHead, receivedAt, type Head } from './extract-headers.ts';
import { mimeProblems, type MimeProblem } from './extract-mime.ts';
import { htmlToText } from './html-text.ts';
import { identify, removeCodeLines, type Recipient, type SecretSource } from './identify.ts';
import { looksLikeSheetLine, stripQuoted } from './quoted.ts';
import { messageIdOrNull, visible } from './visible.ts';
import { pressTokenFromRecipients } from '../../games/press/press-token.ts';
import { hasPressHeader } from '../../games/press/read-press.ts';

export interface ExtractOptions {
  /** Larger mail is not parsed: headers only (MAIL.md, default cap 10 MB in config). */
  maxBytes: number;
  ourDomain: string;
  ordersLocalPart: string;
  /** Addresses the moderator sends from: mail From them is our own, echoed back. */
  ourAddresses?: string[];
}

export type SheetSource = 'text' | 'html' | 'attachment' | 'none';

export interface ExtractedMail {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  /** Address only, lower-cased. Never the display name: that is what spoofers fake. */
  from: string | null;
  fromName: string | null;
  subject: string | null;
  replyTo: string | null;
  /** To, Cc, Delivered-To and X-Original-To addresses, as written (secrets are case-sensitive). */
  recipients: string[];
  automatic: boolean;
  automaticReasons: string[];
  oversized: boolean;
  /** Why (part of) the MIME could not be read; the sheet is still read as far as it goes. */
  broken: string | null;
  /** The same reasons, one by one, in both languages of the reply. */
  brokenReasons: MimeProblem[];
  gameTag: string | null;
  secret: string | null;
  secretSource: SecretSource | null;
  /** The new text to hand to the sheet parser: no quotes, signature, footer or `Code:` line. */
  sheetText: string;
  sheetSource: SheetSource;
  /** Topmost Received: date, ISO; a fallback for when the server's own date is unknown. */
  receivedAt: string | null;
  /** The press reply token of the address it was sent to (a Reply to a relayed message), or null. */
  pressToken: string | null;
  /** How many attachments the mail carried, when it carried any: press relays text only, and says so. */
  attached?: number;
}

// Only printable ASCII ids: they go back out in our replies' In-Reply-To and References headers.
const ids = (value: string | null): string[] => (value ?? '').match(/<[\x21-\x3b\x3d\x3f-\x7e]+>/g) ?? [];

function envelope(head: Head) {
  const fromAddr = addresses(header(head, 'from'))[0] ?? null;
  const recipients: Recipient[] = [];
  for (const name of ['to', 'cc', 'delivered-to', 'x-original-to'])
    for (const value of headers(head, name))
      // Delivered-To and X-Original-To are bare addresses; addressparser reads them too.
      for (const a of addresses(value)) recipients.push({ header: name, address: a.address });
  const subject = header(head, 'subject');
  return {
    messageId: ids(header(head, 'message-id'))[0] ?? messageIdOrNull(header(head, 'message-id')),
    inReplyTo: ids(header(head, 'in-reply-to'))[0] ?? null,
    references: ids(headers(head, 'references').join(' ')),
    from: fromAddr ? fromAddr.address.toLowerCase() : null,
    // Shown in replies and pages: control and direction characters escaped, so that a name
    // cannot hide or reorder the text around it.
    fromName: fromAddr?.name ? visible(fromAddr.name) : null,
    subject: subject === null ? null : visible(decodeWords(subject)),
    replyTo: addresses(header(head, 'reply-to'))[0]?.address.toLowerCase() ?? null,
    recipients,
    receivedAt: receivedAt(head),
  };
}

interface Sheet {
  text: string;
  source: SheetSource;
  codeSecret: string | null;
  attached?: number;
}

const hasSheet = (text: string) => text.split('\n').some(looksLikeSheetLine);

/**
 * The sheet: the new text of the body (text/plain, else HTML), unless it has no sheet line and a
 * `.txt` attachment has one — or the body says nothing at all and there is a text attachment.
 * A reply by press token is the body's text alone: what it says is relayed, and an attachment
 * never is (docs/press.md §1). Press written in the body above a sheet attached is kept, above
 * the attachment's text (D-PRESS-35).
 */
function chooseSheet(body: Body, pressReply: boolean): Sheet {
  let source: SheetSource = 'none';
  let bodyText = body.text === null ? '' : stripQuoted(body.text);
  if (bodyText.trim() !== '') source = 'text';
  else if (body.html !== null) {
    bodyText = stripQuoted(htmlToText(body.html));
    source = bodyText.trim() === '' ? 'none' : 'html';
  }
  const fromBody = removeCodeLines(bodyText);
  const attached = body.attached ? { attached: body.attached } : {};
  if (pressReply)
    return { text: fromBody.text.trim(), source: fromBody.text.trim() === '' ? 'none' : source, codeSecret: null, ...attached };
  const attachments = body.attachments.map((a) => removeCodeLines(a.text));
  const sheet = hasSheet(fromBody.text)
    ? undefined
    : (attachments.find((a) => hasSheet(a.text)) ?? (fromBody.text.trim() === '' ? attachments[0] : undefined));
  const codeSecret = fromBody.secret ?? attachments.find((a) => a.secret !== null)?.secret ?? null;
  if (sheet) {
    // Messages in the body go with the sheet attached, never silently dropped: the body's new
    // text first, so the acknowledgement's line numbers count from the top of the mail.
    const press = hasPressHeader(fromBody.text) ? `${fromBody.text.trim()}\n\n` : '';
    return { text: press + sheet.text.trim(), source: 'attachment', codeSecret, ...attached };
  }
  return { text: fromBody.text.trim(), source: fromBody.text.trim() === '' ? 'none' : source, codeSecret, ...attached };
}

/** Read a raw mail; see ExtractedMail. Every string in it can be stored (see storable). */
export async function extractMail(raw: Buffer, opts: ExtractOptions): Promise<ExtractedMail> {
  return storable(await readMail(raw, opts));
}

// PostgreSQL text cannot hold NUL, and its JSON parser refuses half a surrogate pair: one such
// character anywhere (a body, a Subject, an Auto-Submitted header) would make the mail impossible
// to record. NUL is dropped (it is never meant), a lone surrogate becomes U+FFFD. The raw bytes
// stay as they came.
// eslint-disable-next-line no-control-regex -- NUL is exactly what must go
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Nearly every string is storable: a plain character class finds out sooner than the lookarounds.
// eslint-disable-next-line no-control-regex -- as above
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const clean = (s: string): string => (SUSPECT.test(s) ? s.replace(UNSTORABLE, (c) => (c === '\u0000' ? '' : '\uFFFD')) : s);

function storable<T>(value: T): T {
  if (typeof value === 'string') return clean(value) as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) copy[key] = storable((value as Record<string, unknown>)[key]);
    return copy as T;
  }
  return value;
}

async function readMail(raw: Buffer, opts: ExtractOptions): Promise<ExtractedMail> {
  let env: ReturnType<typeof envelope> | null = null;
  try {
    const head = readHead(raw);
    env = envelope(head);
    const reasons = automaticReasons(head, opts.ourAddresses, { domain: opts.ourDomain, localPart: opts.ordersLocalPart });
    const oversized = raw.length > opts.maxBytes;
    let problems: MimeProblem[] = [];
    let sheet: Sheet = { text: '', source: 'none', codeSecret: null };
    // Automatic mail is never read as a sheet, and oversized mail is not read at all (MAIL.md).
    if (reasons.length === 0 && !oversized) {
      problems = mimeProblems(raw, head);
      const pressReply = pressTokenFromRecipients(env.recipients, opts.ourDomain, opts.ordersLocalPart) !== null;
      try {
        sheet = chooseSheet(await parseBody(raw), pressReply);
      } catch {
        // What went wrong inside a library is no business of the sender's, and may reveal ours:
        // replies quote these reasons, so they never quote the error.
        problems.push({ en: mailDamageTexts.en.notParsed, it: mailDamageTexts.it.notParsed });
      }
    }
    const id = identify({
      recipients: env.recipients,
      subject: env.subject,
      codeLineSecret: sheet.codeSecret,
      ourDomain: opts.ourDomain,
      ordersLocalPart: opts.ordersLocalPart,
    });
    // Written out, not spread from env and id: the two spreads cost about as much as the rest of
    // reading an ordinary mail (bench:ingest). The field order is the one the
    // spreads gave (receivedAt after recipients), which the stored JSON keeps.
    return {
      messageId: env.messageId,
      inReplyTo: env.inReplyTo,
      references: env.references,
      from: env.from,
      fromName: env.fromName,
      subject: env.subject,
      replyTo: env.replyTo,
      recipients: env.recipients.map((r) => r.address),
      receivedAt: env.receivedAt,
      automatic: reasons.length > 0,
      automaticReasons: reasons,
      oversized,
      broken: problems.length ? problems.map((p) => p.en).join('; ') : null,
      brokenReasons: problems,
      gameTag: id.gameTag,
      secret: id.secret,
      secretSource: id.secretSource,
      sheetText: sheet.text,
      sheetSource: sheet.source,
      pressToken: id.pressToken,
      ...(sheet.attached ? { attached: sheet.attached } : {}),
    };
  } catch {
    // Last resort: something above failed on input nobody foresaw. Keep what was read; the
    // reason is not quoted (replies show it).
    return {
      messageId: env?.messageId ?? null,
      inReplyTo: env?.inReplyTo ?? null,
      references: env?.references ?? [],
      from: env?.from ?? null,
      fromName: env?.fromName ?? null,
      subject: env?.subject ?? null,
      replyTo: env?.replyTo ?? null,
      recipients: env?.recipients.map((r) => r.address) ?? [],
      automatic: false,
      automaticReasons: [],
      oversized: raw.length > opts.maxBytes,
      broken: mailDamageTexts.en.notRead,
      brokenReasons: [{ en: mailDamageTexts.en.notRead, it: mailDamageTexts.it.notRead }],
      gameTag: null,
      secret: null,
      secretSource: null,
      sheetText: '',
      sheetSource: 'none',
      receivedAt: env?.receivedAt ?? null,
      pressToken: null,
    };
  }
}
