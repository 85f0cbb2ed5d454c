// Bounces that come back to the orders mailbox (issue 9): a delivery status notification (RFC 3464)
// quotes the headers of the mail that failed. When those name a Message-ID of ours, that outbox mail
// is recorded as failed against its address, with the report's status, for the referee's list of
// bouncing addresses. Read line by line, linear and capped: a report is attacker-controlled text.
const MAX_REPORT_BYTES = 256 * 1024;
const MAX_IDS = 20;

export interface Bounce {
  /** Our Message-IDs the report names, bare (as the outbox stores them). */
  messageIds: string[];
  /** `Status: 5.1.1` and the diagnostic, as the report gives them, for the referee. */
  reason: string;
}

/** A delivery report's bounce of our mail; null when the mail is not one or names none of ours. */
export function bounceOf(raw: Uint8Array, reasons: readonly string[], ourDomain: string): Bounce | null {
  if (!reasons.some((r) => /multipart\/report|delivery-status/i.test(r))) return null;
  const text = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, MAX_REPORT_BYTES)).toString('latin1');
  const suffix = `@${ourDomain.toLowerCase()}`;
  const ids = new Set<string>();
  let status = '';
  let diagnostic = '';
  let start = 0;
  while (start < text.length && ids.size < MAX_IDS) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, Math.min(end, start + 1000)).trim();
    start = end + 1;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'message-id' || name === 'original-message-id') {
      const id = value.replace(/^<|>$/g, '').trim();
      if (id.toLowerCase().endsWith(suffix)) ids.add(id);
    } else if (name === 'status' && !status) status = value.slice(0, 40);
    else if (name === 'diagnostic-code' && !diagnostic) diagnostic = value.slice(0, 300);
  }
  if (ids.size === 0) return null;
  return { messageIds: [...ids], reason: `bounced${status ? `: ${status}` : ''}${diagnostic ? ` (${diagnostic})` : ''}` };
}
