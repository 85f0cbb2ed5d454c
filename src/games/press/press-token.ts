// The Reply-To of a relayed message (docs/press.md §4.5): `orders+p-<token>@domain`, one token per
// conversation and recipient, so that a plain Reply goes back to the same conversation. The token
// names the conversation; the From must still be the recipient's registered address (two factors,
// D-PRESS-9). Lower case only, since mail servers may fold the case of a local part, and shaped so
// that it never reads as a player's secret (`k7Q2-x9Pm`): the intake looks for a token first.
import { randomBytes } from 'node:crypto';

/** RFC 4648 base32, lower case: 5 bits a character. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** 26 characters: 130 bits, as hard to guess as the session tokens. */
const LENGTH = 26;
const PREFIX = 'p-';
const TOKEN = new RegExp(`^${PREFIX}[${ALPHABET}]{${LENGTH}}$`);

/** A fresh token, `p-` and 26 base32 characters. `bytes` for tests: at least 17 random bytes. */
export function newPressToken(bytes: Uint8Array = randomBytes(17)): string {
  let out = PREFIX;
  let acc = 0;
  let bits = 0;
  let i = 0;
  while (out.length < PREFIX.length + LENGTH) {
    if (bits < 5) {
      acc = ((acc << 8) | bytes[i++]!) & 0xffff;
      bits += 8;
    }
    out += ALPHABET[(acc >> (bits - 5)) & 31];
    bits -= 5;
  }
  return out;
}

export function isPressToken(s: string): boolean {
  return TOKEN.test(s);
}

export function pressReplyAddress(mail: { ordersLocalPart: string; domain: string }, token: string): string {
  return `${mail.ordersLocalPart}+${token}@${mail.domain}`;
}

/**
 * What follows the `+` of an address of ours (`orders+<this>@domain`), as written, or null when the
 * address is not ours: the domain and the local part compared in any case. A secret or a token.
 */
export function ourPlusPart(address: string, ourDomain: string, ordersLocalPart: string): string | null {
  const at = address.lastIndexOf('@');
  if (
    at < 0 ||
    address
      .slice(at + 1)
      .trim()
      .toLowerCase() !== ourDomain.toLowerCase()
  )
    return null;
  const local = address.slice(0, at).replace(/^"|"$/g, '');
  const plus = local.indexOf('+');
  if (plus < 0 || local.slice(0, plus).toLowerCase() !== ordersLocalPart.toLowerCase()) return null;
  return local.slice(plus + 1);
}

/** The token in an address of ours, lower-cased (a server may have changed its case), or null. */
export function pressTokenFromAddress(address: string, ourDomain: string, ordersLocalPart: string): string | null {
  const token = ourPlusPart(address, ourDomain, ordersLocalPart)?.toLowerCase() ?? null;
  return token !== null && isPressToken(token) ? token : null;
}

// As for secrets (src/mail/read/identify.ts): the envelope says where the server delivered, To
// and Cc also list the other recipients.
const HEADER_ORDER = ['delivered-to', 'x-original-to', 'to', 'cc'];

/** The first press token among a mail's recipients, envelope headers first. */
export function pressTokenFromRecipients(
  recipients: readonly { header: string; address: string }[],
  ourDomain: string,
  ordersLocalPart: string,
): string | null {
  for (const h of HEADER_ORDER)
    for (const r of recipients)
      if (r.header === h) {
        const t = pressTokenFromAddress(r.address, ourDomain, ordersLocalPart);
        if (t !== null) return t;
      }
  return null;
}

/**
 * The key of a signed conversation: its participants' faction ids, sorted (D-PRESS-7). An
 * anonymous message has no key: each is a conversation of its own.
 */
export function conversationKey(participants: Iterable<string>): string {
  return [...new Set(participants)].sort().join(',');
}

/** Relays of an anonymous message wait this long, at random, so that their timing names nobody (D-PRESS-10). */
export const ANONYMOUS_DELAY_MS = { min: 2 * 60_000, max: 20 * 60_000 };

/** A delay in that range; `random` in [0, 1) (a test gives its own). */
export function anonymousDelayMs(random: number): number {
  const { min, max } = ANONYMOUS_DELAY_MS;
  return min + Math.floor(Math.min(Math.max(random, 0), 0.999999) * (max - min));
}
