// Who is writing, for which game (MAIL.md "Who is writing"): the secret from a private address
// `orders+<secret>@<domain>`, else from the subject tag `[SF <game>]` with a `Code:` line or
// `code <secret>` after the tag. Checking the secret against the sender is the intake's job.
// A press Reply-To token (`orders+p-…`) is looked for first: shaped as it is, the secret reader
// would take it for an unknown code.
import { ourPlusPart, pressTokenFromRecipients } from '../../games/press/press-token.ts';

/** Letters, digits and dashes, kept exactly as written: secrets are case-sensitive. */
const SECRET = /^[A-Za-z0-9][A-Za-z0-9-]{0,99}$/;

/** `[SF andromeda]`, any case, anywhere in the (decoded) subject. */
const TAG = /\[\s*sf\s+([a-z0-9][a-z0-9_.-]{0,63})\s*\]/i;

/**
 * A `Code:` line, any case; `Codice:` too, since Italian players translate the word. The line is
 * never orders, whatever follows the colon (the secret may look like `B2-C3x`).
 */
const CODE_LINE = /^\s*(?:code|codice)\s*[:：]\s*(.*)$/i;

export interface Recipient {
  /** Lower-case header name it came from: delivered-to, x-original-to, to, cc. */
  header: string;
  address: string;
}

export type SecretSource = 'address' | 'code-line' | 'subject';

/** The secret in a private address of ours, or null (the domain and local part compared in any case). */
export function secretFromAddress(address: string, ourDomain: string, ordersLocalPart: string): string | null {
  const secret = ourPlusPart(address, ourDomain, ordersLocalPart);
  return secret !== null && SECRET.test(secret) ? secret : null;
}

// The envelope headers come first: they say which address the server actually delivered to,
// while To/Cc also list the other recipients of the same mail.
const HEADER_ORDER = ['delivered-to', 'x-original-to', 'to', 'cc'];

/** The first private address among the recipients, envelope headers first. */
export function secretFromRecipients(recipients: readonly Recipient[], ourDomain: string, ordersLocalPart: string): string | null {
  for (const h of HEADER_ORDER)
    for (const r of recipients)
      if (r.header === h) {
        const s = secretFromAddress(r.address, ourDomain, ordersLocalPart);
        if (s !== null) return s;
      }
  return null;
}

/** The game named by a `[SF <game>]` tag in the subject, lower-cased, or null. */
export function gameTagFromSubject(subject: string | null): string | null {
  const m = subject ? TAG.exec(subject) : null;
  return m ? m[1]!.toLowerCase() : null;
}

/** `[SF andromeda] code k7Q2-x9Pm` (also `Code: …`, `codice …`) after the tag. */
export function secretFromSubject(subject: string | null): string | null {
  const m = subject ? TAG.exec(subject) : null;
  if (!m) return null;
  const after = subject!.slice(m.index + m[0].length);
  // The word, then a colon, an equals sign or a space: "codename" and "barcode" are not it.
  const c = /(?:^|[\s,;])(?:code|codice)(?:\s*[:：=]\s*|\s+)([A-Za-z0-9][A-Za-z0-9-]*)/i.exec(after);
  return c && SECRET.test(c[1]!) ? c[1]! : null;
}

/** Take `Code:` lines out of a text; the first well-formed secret on them is returned. */
export function removeCodeLines(text: string): { text: string; secret: string | null } {
  let secret: string | null = null;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const m = CODE_LINE.exec(line);
    if (!m) {
      kept.push(line);
      continue;
    }
    const token = m[1]!.trim().split(/\s+/)[0] ?? '';
    if (secret === null && SECRET.test(token)) secret = token;
  }
  return { text: kept.join('\n'), secret };
}

export interface Identity {
  gameTag: string | null;
  secret: string | null;
  secretSource: SecretSource | null;
  /** A press conversation's reply token (docs/press.md §4.5): then there is no secret. */
  pressToken: string | null;
}

/** Secret and game tag, in MAIL.md's order: private address, then `Code:` line, then subject. */
export function identify(input: {
  recipients: readonly Recipient[];
  subject: string | null;
  codeLineSecret: string | null;
  ourDomain: string;
  ordersLocalPart: string;
}): Identity {
  const gameTag = gameTagFromSubject(input.subject);
  // A reply to a relayed message is press, never a sheet: no secret is read beside its token.
  const pressToken = pressTokenFromRecipients(input.recipients, input.ourDomain, input.ordersLocalPart);
  if (pressToken !== null) return { gameTag, secret: null, secretSource: null, pressToken };
  const fromAddress = secretFromRecipients(input.recipients, input.ourDomain, input.ordersLocalPart);
  if (fromAddress !== null) return { gameTag, secret: fromAddress, secretSource: 'address', pressToken: null };
  // Without a private address the tag is what makes a code meaningful (MAIL.md fallback).
  if (gameTag === null) return { gameTag, secret: null, secretSource: null, pressToken: null };
  if (input.codeLineSecret !== null) return { gameTag, secret: input.codeLineSecret, secretSource: 'code-line', pressToken: null };
  const fromSubject = secretFromSubject(input.subject);
  return fromSubject !== null
    ? { gameTag, secret: fromSubject, secretSource: 'subject', pressToken: null }
    : { gameTag, secret: null, secretSource: null, pressToken: null };
}
