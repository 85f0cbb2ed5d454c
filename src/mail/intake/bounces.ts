// Bounces that come back to the orders mailbox. What a report says about our mail, in
// the order of trust: a Message-ID of ours it quotes; the recipient it names in its machine-readable
// part (RFC 3464 Final-Recipient / Original-Recipient, or the X-Failed-Recipients header of Exim and
// Gmail); failing both, the addresses in its human-readable text (qmail, old Exim and Gmail send
// nothing else). Which of those we actually mailed is decided against the outbox (src/db/bounces.ts).
// Only a permanent failure (5.x.x) marks an address; a transient one (4.x.x, "delayed") is logged.
// Read line by line, linear and capped: a report is attacker-controlled text.
// The shape of a report is the data layer's, which records it.
import type { Bounce, BounceSeverity } from '../../db/bounces.ts';

export type { Bounce, BounceSeverity };

const MAX_REPORT_BYTES = 256 * 1024;
const MAX_LINE = 1000;
const MAX_IDS = 20;
const MAX_ADDRESSES = 50;

/**
 * The automatic reasons (src/mail/read/automatic.ts) that make a mail a non-delivery report: a
 * report by its type, or a mail system's own sender. A vacation reply (Auto-Submitted alone) is not.
 */
const REPORT_REASON =
  /^Content-Type: (multipart\/report|message\/delivery-status)|^(From|Sender): (mailer-daemon|postmaster)(@|$)|^Return-Path: <>$/i;

/** Where a report's copy of the original message begins: what follows is not the report's own words. */
const ORIGINAL_STARTS =
  /^content-type:\s*(message\/rfc822|text\/rfc822-headers)|^-{2,}.*(below this line|copy of the message|original message|headers of the original|undelivered message)/i;

const ENHANCED_CODE = /\b([245])\.\d{1,3}\.\d{1,3}\b/;
const PERMANENT_WORDS = /permanent (error|failure)|failed permanently|permanently failed/i;
const TRANSIENT_WORDS =
  /temporar(y|ily) (error|failure|failed)|delivery (has been )?delayed|still (being retried|undelivered)|will (keep trying|retry)/i;

/** A delivery report's bounce of our mail; null when the mail is not one or names nothing to go on. */
export function bounceOf(raw: Uint8Array, reasons: readonly string[], ourDomain: string): Bounce | null {
  if (!reasons.some((r) => REPORT_REASON.test(r))) return null;
  const text = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, MAX_REPORT_BYTES)).toString('latin1');
  const r = new ReportReader(`@${ourDomain.toLowerCase()}`);
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    r.line(text.slice(start, Math.min(end, start + MAX_LINE)).replace(/\r$/, ''));
    start = end + 1;
  }
  r.end();
  if (r.ids.size === 0 && r.recipients.size === 0 && r.mentioned.size === 0) return null;
  const status = r.status || r.firstCode;
  return {
    messageIds: [...r.ids],
    recipients: [...r.recipients],
    mentioned: [...r.mentioned],
    severity: severityOf(r.status, r.action, r.firstCode, r.words),
    reason: `bounced${status ? `: ${status}` : ''}${r.diagnostic ? ` (${r.diagnostic})` : ''}`,
  };
}

/** RFC 3464 §2.3.3: the class digit of Status decides; failing it, the first code or words in the text. */
function severityOf(status: string, action: string, firstCode: string, words: BounceSeverity): BounceSeverity {
  if (/^delayed$/i.test(action)) return 'transient';
  const cls = (status || firstCode).charAt(0);
  if (cls === '5') return 'permanent';
  if (cls === '4') return 'transient';
  return words;
}

class ReportReader {
  readonly ids = new Set<string>();
  readonly recipients = new Set<string>();
  readonly mentioned = new Set<string>();
  status = '';
  action = '';
  diagnostic = '';
  firstCode = '';
  words: BounceSeverity = 'unknown';
  private inTopHeaders = true;
  private inOriginal = false;
  /** A field whose value may continue on the next, indented line (folded, RFC 5322 §2.2.3). */
  private field: { name: string; value: string } | null = null;

  constructor(private readonly ourSuffix: string) {}

  line(line: string): void {
    if (/^[ \t]/.test(line) && this.field) {
      this.field.value += ` ${line.trim()}`;
      return;
    }
    this.flush();
    if (this.inTopHeaders) {
      if (line.trim() === '') this.inTopHeaders = false;
      else this.header(line);
      return; // the report's own headers name us and its mail system, not the recipient
    }
    if (ORIGINAL_STARTS.test(line)) this.inOriginal = true;
    if (this.header(line)) return;
    if (this.inOriginal) return;
    // The report's own words: its codes, its wording, the addresses it names.
    if (!this.firstCode) this.firstCode = ENHANCED_CODE.exec(line)?.[0] ?? '';
    if (this.words === 'unknown')
      this.words = PERMANENT_WORDS.test(line) ? 'permanent' : TRANSIENT_WORDS.test(line) ? 'transient' : 'unknown';
    for (const a of addressesIn(line)) if (this.mentioned.size < MAX_ADDRESSES) this.mentioned.add(a);
  }

  end(): void {
    this.flush();
  }

  /** Starts a field we read; true when the line was one. */
  private header(line: string): boolean {
    const m = /^([A-Za-z][A-Za-z0-9-]*):(.*)$/.exec(line);
    if (!m) return false;
    const name = m[1]!.toLowerCase();
    if (
      [
        'message-id',
        'original-message-id',
        'final-recipient',
        'original-recipient',
        'x-failed-recipients',
        'status',
        'action',
        'diagnostic-code',
      ].includes(name)
    )
      this.field = { name, value: m[2]!.trim() };
    return true;
  }

  private flush(): void {
    const f = this.field;
    this.field = null;
    if (!f) return;
    const v = f.value;
    switch (f.name) {
      case 'message-id':
      case 'original-message-id': {
        const id = v.replace(/^<|>$/g, '').trim();
        if (id.toLowerCase().endsWith(this.ourSuffix) && this.ids.size < MAX_IDS) this.ids.add(id);
        break;
      }
      case 'final-recipient':
      case 'original-recipient':
        // `rfc822; player@example.org` (the address type is rfc822 for mail; others are not ours).
        if (/^rfc822\s*;/i.test(v)) this.addRecipients(v.slice(v.indexOf(';') + 1));
        break;
      case 'x-failed-recipients':
        if (!this.inOriginal) this.addRecipients(v);
        break;
      case 'status':
        if (!this.status && /^\d\.\d{1,3}\.\d{1,3}/.test(v)) this.status = v.slice(0, 40);
        break;
      case 'action':
        if (!this.action) this.action = v.slice(0, 20);
        break;
      case 'diagnostic-code':
        if (!this.diagnostic) this.diagnostic = v.slice(0, 300);
        break;
    }
  }

  private addRecipients(v: string): void {
    for (const a of addressesIn(v)) if (this.recipients.size < MAX_ADDRESSES) this.recipients.add(a);
  }
}

const LOCAL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/;
const DOMAIN = /[A-Za-z0-9.-]/;

/**
 * Addresses in a line, lower-case: each `@` grown to the left over local-part characters and to the
 * right over domain characters. Linear (each character is looked at a bounded number of times),
 * where a regular expression for addresses would backtrack on a long run of letters with no `@`.
 */
export function addressesIn(line: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let at = line.indexOf('@'); at >= 0 && out.length < 10; at = line.indexOf('@', at + 1)) {
    let s = at;
    while (s > from && LOCAL.test(line[s - 1]!)) s--;
    let e = at + 1;
    while (e < line.length && DOMAIN.test(line[e]!)) e++;
    const local = line.slice(s, at).replace(/^\.+/, '');
    const domain = line.slice(at + 1, e).replace(/\.+$/, '');
    if (local && /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(domain)) out.push(`${local}@${domain}`.toLowerCase());
    from = Math.max(from, e);
  }
  return out;
}
