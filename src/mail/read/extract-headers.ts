// The header block, read without mailparser: it is needed for mail we refuse to parse (oversized)
// and for mail mailparser cannot parse (broken), and repeated headers (Delivered-To, Received)
// must stay separate. Linear in the input and never throws.
import addressparser, { type MailboxAddress } from 'nodemailer/lib/addressparser';
import { decodeBytes } from './extract-charset.ts';
import { withoutComments } from './linear.ts';

/** One header as it appeared: lower-case name, value unfolded but not decoded. */
export interface HeaderField {
  name: string;
  value: string;
}

/** Headers larger than this are not headers but a broken message; read no further. */
const MAX_HEAD_BYTES = 512 * 1024;

export interface Head {
  fields: HeaderField[];
  /** Offset of the body in the raw message, or null when no blank line ends the headers. */
  bodyOffset: number | null;
  /** Lines in the header block that are neither `Name: value` nor a continuation. */
  malformed: number;
}

/** Find the blank line that ends the headers: CRLFCRLF, LFLF, or the first line being empty. */
function headEnd(raw: Buffer): { end: number; body: number } | null {
  const limit = Math.min(raw.length, MAX_HEAD_BYTES);
  if (raw[0] === 0x0a) return { end: 0, body: 1 };
  if (raw[0] === 0x0d && raw[1] === 0x0a) return { end: 0, body: 2 };
  for (let i = 0; i < limit; i++) {
    if (raw[i] !== 0x0a) continue;
    if (raw[i + 1] === 0x0a) return { end: i + 1, body: i + 2 };
    if (raw[i + 1] === 0x0d && raw[i + 2] === 0x0a) return { end: i + 1, body: i + 3 };
  }
  return null;
}

/** Split a raw message into its header fields. */
export function readHead(raw: Buffer): Head {
  const found = headEnd(raw);
  const block = raw.subarray(0, found ? found.end : Math.min(raw.length, MAX_HEAD_BYTES));
  // RFC 6532 allows raw UTF-8 in headers; older clients send raw Latin-1. decodeBytes picks.
  const lines = decodeBytes(block).split(/\r?\n/);
  const fields: HeaderField[] = [];
  let malformed = 0;
  for (const [i, line] of lines.entries()) {
    if (line === '') continue;
    // An mbox "From " envelope line in front of a saved .eml is not a header.
    if (i === 0 && line.startsWith('From ')) continue;
    const last = fields[fields.length - 1];
    if (/^[ \t]/.test(line)) {
      if (last) last.value += ` ${line.trim()}`;
      else malformed++;
      continue;
    }
    const m = /^([!-9;-~]+)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (m) fields.push({ name: m[1]!.toLowerCase(), value: m[2]!.trim() });
    else malformed++;
  }
  return { fields, bodyOffset: found ? found.body : null, malformed };
}

/** The first value of a header, or null. */
export function header(head: Head, name: string): string | null {
  return head.fields.find((f) => f.name === name)?.value ?? null;
}

/** Every value of a header, in order. */
export function headers(head: Head, name: string): string[] {
  return head.fields.filter((f) => f.name === name).map((f) => f.value);
}

/**
 * Decode RFC 2047 encoded-words (`=?UTF-8?B?…?=`). Adjacent words are joined before decoding, so
 * a multi-byte character split across two words (Apple Mail does this) survives.
 */
export function decodeWords(value: string): string {
  const WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  const parts: ({ text: string } | { charset: string; bytes: Buffer })[] = [];
  let at = 0;
  for (let m = WORD.exec(value); m; m = WORD.exec(value)) {
    const between = value.slice(at, m.index);
    const prev = parts[parts.length - 1];
    // Whitespace between two encoded-words is not part of the text (RFC 2047 §6.2).
    if (between !== '' && !(prev && 'bytes' in prev && /^\s+$/.test(between))) parts.push({ text: between });
    const charset = m[1]!.replace(/\*.*$/, '').toLowerCase();
    const data = m[3]!;
    const bytes =
      m[2]!.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64')
        : Buffer.from(
            data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_s, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          );
    const last = parts[parts.length - 1];
    if (last && 'bytes' in last && last.charset === charset) last.bytes = Buffer.concat([last.bytes, bytes]);
    else parts.push({ charset, bytes });
    at = m.index + m[0].length;
  }
  if (at === 0) return value;
  if (at < value.length) parts.push({ text: value.slice(at) });
  return parts.map((p) => ('text' in p ? p.text : decodeBytes(p.bytes, p.charset))).join('');
}

export interface Address {
  name: string;
  /** As written: a secret in the local part is case-sensitive. */
  address: string;
}

// Most address headers are one plain mailbox: `a@b`, `<a@b>`, `Name Words <a@b>` or
// `"Name, Words" <a@b>`, of atext and dots (a comma too inside the quotes), with no whitespace but
// the single spaces shown. addressparser (costly per header; bench/ingest.bench.ts has the
// figure) reads those as the groups below do; test/mail/address-fast-path.test.ts holds the two
// together. Linear: words are parted by a space, which no word holds, so no quantifier can
// backtrack into another.
const WORD = "[-A-Za-z0-9!#$%&'*+/=?^_`{|}~.]+";
const QUOTED_WORD = "[-A-Za-z0-9!#$%&'*+/=?^_`{|}~.,]+";
const SPEC = `${WORD}@${WORD}`;
const PLAIN_MAILBOX = new RegExp(`^(?:(?:(${WORD}(?: ${WORD})*)|"(${QUOTED_WORD}(?: ${QUOTED_WORD})*)") )?<(${SPEC})>$|^(${SPEC})$`);

/** addressparser's reading of a header that is one plain mailbox (see above), or null. */
export function plainMailbox(value: string): MailboxAddress | null {
  const m = PLAIN_MAILBOX.exec(value);
  return m ? { address: m[3] ?? m[4]!, name: m[1] ?? m[2] ?? '' } : null;
}

/** addressparser's mailboxes of a header, groups flattened. */
function parseAddresses(value: string): MailboxAddress[] {
  const plain = plainMailbox(value);
  return plain ? [plain] : addressparser(value, { flatten: true });
}

/** Addresses in an address header (groups flattened), names decoded. */
export function addresses(value: string | null): Address[] {
  if (!value) return [];
  try {
    return parseAddresses(value)
      .filter((a) => a.address && a.address.includes('@'))
      .map((a) => ({ name: decodeWords(a.name ?? '').trim(), address: a.address.trim() }));
  } catch {
    return [];
  }
}

/** Every mailbox in an address header as written, with or without a domain (`MAILER-DAEMON`). */
export function mailboxes(value: string | null): string[] {
  if (!value) return [];
  try {
    return parseAddresses(value)
      .map((a) => (a.address || (a.name && !/\s/.test(a.name.trim()) ? a.name : '')).trim())
      .filter((a) => a !== '');
  } catch {
    return [];
  }
}

/** `type/subtype` and parameters of a Content-Type-like value (quoted values and RFC 2231 `*0`). */
export function parseParams(value: string | null): { value: string; params: Record<string, string> } {
  const v = value ?? '';
  const semi = v.indexOf(';');
  const main = (semi < 0 ? v : v.slice(0, semi)).trim().toLowerCase();
  const params: Record<string, string> = {};
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)/g;
  for (let m = re.exec(v); m; m = re.exec(v)) {
    let key = m[1]!.toLowerCase();
    let val = m[2]!.trim();
    if (val.startsWith('"')) val = val.slice(1, val.endsWith('"') && val.length > 1 ? -1 : undefined).replace(/\\(.)/g, '$1');
    // RFC 2231 continuations (`filename*0*=`, `filename*1*=`) are joined; the charset prefix of the
    // first is dropped (`utf-8''`) and %-escapes decoded.
    const cont = /^(.*?)\*(?:\d+)?\*?$/.exec(key);
    if (cont) {
      key = cont[1]!;
      val = val.replace(/^[\w-]*'[\w-]*'/, '');
      try {
        val = decodeURIComponent(val);
      } catch {
        // keep as written
      }
      params[key] = (params[key] ?? '') + val;
    } else params[key] ??= decodeWords(val);
  }
  return { value: main, params };
}

/**
 * When our server received the mail, from the topmost `Received:` header. Only a fallback: the
 * intake uses the IMAP INTERNALDATE or the Maildir file time (MAIL.md: not the Date: header).
 */
export function receivedAt(head: Head): string | null {
  const top = header(head, 'received');
  if (!top) return null;
  const semi = top.lastIndexOf(';');
  if (semi < 0) return null;
  const text = withoutComments(top.slice(semi + 1)).trim();
  // A date is some forty characters; anything much longer is not one.
  if (text.length > 200) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
