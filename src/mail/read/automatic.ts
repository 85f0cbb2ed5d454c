// Mail that is never answered (MAIL.md "loops"): answering a robot is how two robots end up
// mailing each other forever. Stored and shown to the referee, never read as a sheet.
import { addresses, header, headers, mailboxes, parseParams, type Head } from './extract-headers.ts';
import { secretFromAddress } from './identify.ts';
import { withoutComments } from './linear.ts';
import { visible } from './visible.ts';
import { SF_ORIGIN_HEADER, SF_ORIGIN_VALUE } from '../send/headers.ts';

// Every mail the moderator sends carries `X-SF-Origin: starts-foundation` (send/headers.ts, the
// one definition), so an echo of it is recognised.
export { SF_ORIGIN_HEADER };
export const SF_ORIGIN = SF_ORIGIN_VALUE;

/** Senders that are mail systems, whatever the domain (compared case-insensitively). */
const SYSTEM_LOCAL_PARTS = new Set(['mailer-daemon', 'postmaster']);

const lower = (s: string) => s.trim().toLowerCase();

/**
 * Why a mail is automatic; empty when a person wrote it. Each reason names the header that gave
 * it away, for the referee's view.
 */
export function automaticReasons(
  head: Head,
  ourAddresses: readonly string[] = [],
  ourPrivate?: { domain: string; localPart: string },
): string[] {
  const reasons: string[] = [];

  // RFC 3834: anything but "no" (parameters allowed: `auto-replied; owner-email=…`).
  const autoSubmitted = header(head, 'auto-submitted');
  if (autoSubmitted !== null && parseParams(autoSubmitted).value !== 'no') reasons.push(`Auto-Submitted: ${autoSubmitted}`);

  // Non-standard markers set by vacation programs and Exchange. X-Auto-Response-Suppress is what
  // Exchange puts on its own automatic mail; "None" is the one value that means nothing.
  for (const name of ['x-autoreply', 'x-autorespond', 'x-auto-response-suppress']) {
    const v = header(head, name);
    if (v !== null && !(name === 'x-auto-response-suppress' && /^(none)?$/i.test(v.trim()))) reasons.push(`${canonicalName(name)}: ${v}`);
  }

  // `auto_reply` is what some vacation programs write instead of Auto-Submitted.
  // The value as a word: quoted (`"bulk"`) and with a comment (`bulk (sent by a list)`) too.
  const precedence = header(head, 'precedence');
  if (precedence !== null) {
    const word = lower(withoutComments(precedence))
      .replace(/^"([^"]*)"?$/, '$1')
      .trim();
    if (['bulk', 'list', 'junk', 'auto_reply'].includes(word)) reasons.push(`Precedence: ${precedence}`);
  }

  if (header(head, 'list-id') !== null) reasons.push('List-Id');
  if (header(head, 'list-unsubscribe') !== null) reasons.push('List-Unsubscribe');

  // Delivery status notifications (RFC 3464) and read receipts (RFC 8098) both come as reports.
  const type = parseParams(header(head, 'content-type')).value;
  if (type === 'multipart/report' || type === 'message/delivery-status' || type === 'message/disposition-notification')
    reasons.push(`Content-Type: ${type}`);

  // A bare `From: MAILER-DAEMON` (no domain: qmail, some MTAs) counts too.
  for (const name of ['from', 'sender']) {
    for (const address of mailboxes(header(head, name))) {
      const at = address.lastIndexOf('@');
      if (SYSTEM_LOCAL_PARTS.has(lower(at < 0 ? address : address.slice(0, at)))) reasons.push(`${canonicalName(name)}: ${address}`);
    }
  }

  // A null reverse path is how bounces are sent (RFC 5321 §4.5.5). Several Return-Path headers
  // mean several deliveries; the topmost is ours.
  const returnPath = headers(head, 'return-path')[0];
  if (returnPath !== undefined && /^<\s*>$|^$/.test(returnPath.trim())) reasons.push('Return-Path: <>');

  const origin = header(head, SF_ORIGIN_HEADER.toLowerCase());
  if (origin !== null && lower(origin) === SF_ORIGIN) reasons.push(`${SF_ORIGIN_HEADER}: ${origin}`);
  const ours = new Set(ourAddresses.map(lower));
  // A player's private address is ours too: nobody writes From it but our own mail coming back or
  // a forger, and answering would tell its owner "someone used your code".
  for (const a of addresses(header(head, 'from')))
    if (ours.has(lower(a.address)) || (ourPrivate && secretFromAddress(a.address, ourPrivate.domain, ourPrivate.localPart) !== null))
      reasons.push(`From: ${a.address} (ours)`);

  // They quote header values, for the referee's page: escaped like every header text we show.
  return reasons.map(visible);
}

function canonicalName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
}
