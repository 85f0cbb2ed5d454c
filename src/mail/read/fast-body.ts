// The body of a simple mail without mailparser: one text/plain part, read exactly as mailparser
// reads it, or null when we are not certain (the caller then runs mailparser). Every step below
// mirrors the code mailparser really runs — the packages of MIRRORED_VERSIONS — quirks included;
// test/mail/fast-body.test.ts checks it against mailparser byte for byte.
import type { Body } from './body.ts';
import { repairC1 } from './extract-charset.ts';

/**
 * The packages whose code this file mirrors, as mailparser resolves them. An upgrade that
 * installs any other version fails test/mail/fast-body-versions.test.ts: read their changes,
 * update the mirror, check it (fast-body.test.ts, reader-differential.ts), then these numbers.
 */
export const MIRRORED_VERSIONS = {
  mailparser: '3.14.2',
  '@zone-eu/mailsplit': '5.4.30',
  libmime: '5.6.4',
  libqp: '3.0.1',
  libbase64: '1.4.1',
  'iconv-lite': '0.7.3',
} as const;

/** mailsplit's limit on a header block, each line counted as at least 64 bytes (the blank line as its own). */
const MAX_HEAD_COST = 1024 * 1024;
const HEADER_LINE_MIN_COST = 64;

/** Larger mail is rare and not worth a second code path. */
const MAX_BYTES = 256 * 1024;

/** An mbox "From " envelope line in front of a saved .eml is not part of the message. */
export function withoutEnvelope(raw: Buffer): Buffer {
  return raw.subarray(0, 5).toString('latin1') === 'From ' ? raw.subarray(Math.max(raw.indexOf(0x0a) + 1, 0)) : raw;
}

const RELEVANT = ['content-type', 'content-transfer-encoding', 'content-disposition'] as const;
type Relevant = (typeof RELEVANT)[number];

/** A header name as mailsplit keys it (text before the first colon): printable, no colon. */
function isNameByte(b: number): boolean {
  return b >= 0x21 && b <= 0x7e && b !== 0x3a;
}

/**
 * The three headers that decide how the body is read, unfolded as libmime's decodeHeader does,
 * and where the body starts. Null for anything mailsplit might read otherwise: no blank line,
 * a line that is not `Name: value` or a continuation, a repeated or non-ASCII relevant header.
 */
function readFields(raw: Buffer): { fields: Partial<Record<Relevant, string>>; body: number } | null {
  const fields: Partial<Record<Relevant, string>> = {};
  let open: { name: Relevant; start: number; end: number } | null = null;
  let cost = 0; // mailsplit refuses a header block that costs more than MAX_HEAD_COST
  const close = (): boolean => {
    if (!open) return true;
    const line = raw.toString('latin1', open.start, open.end);
    // Only printable ASCII, tabs and folding line breaks: no lone CR, no 8-bit, no controls.
    if (/[^\t\r\n -~]|\r(?!\n)/.test(line)) return false;
    const unfolded = line.replace(/(?:\r?\n|\r)[ \t]*/g, ' ').trim();
    fields[open.name] = unfolded.slice(unfolded.indexOf(':') + 1).trim();
    open = null;
    return true;
  };
  for (let at = 0; ;) {
    const lf = raw.indexOf(0x0a, at);
    if (lf < 0) return null;
    const end = lf > at && raw[lf - 1] === 0x0d ? lf - 1 : lf;
    if (end === at) return close() && cost + lf + 1 - at <= MAX_HEAD_COST ? { fields, body: lf + 1 } : null;
    cost += Math.max(lf + 1 - at, HEADER_LINE_MIN_COST);
    if (cost > MAX_HEAD_COST) return null;
    const first = raw[at]!;
    if (first === 0x20 || first === 0x09) {
      if (at === 0) return null; // continues nothing
      if (open) open.end = end;
    } else {
      if (!close()) return null;
      let i = at;
      while (i < end && isNameByte(raw[i]!)) i++;
      const nameEnd = i;
      while (i < end && (raw[i] === 0x20 || raw[i] === 0x09)) i++;
      if (nameEnd === at || raw[i] !== 0x3a) return null;
      // Only names as long as one of the three are worth a string.
      const length = nameEnd - at;
      const read = length === 12 || length === 19 || length === 25 ? raw.toString('latin1', at, nameEnd).toLowerCase() : '';
      // The constant, not the string just read: V8 looks properties up faster by it.
      const name = RELEVANT.find((r) => r === read);
      if (name !== undefined) {
        if (fields[name] !== undefined) return null;
        open = { name, start: at, end };
        fields[name] = ''; // marks it seen until close() fills it in
      }
    }
    at = lf + 1;
  }
}

// `value; key=value; key="quoted value"` in the plain form on which libmime's parseHeaderValue
// cannot differ from us: no escapes, comments, RFC 2231 `key*` forms or value-less keys.
const STRUCTURED = /^([^ \t;"\\()=]+)((?:[ \t]*;[ \t]*[A-Za-z0-9._-]+[ \t]*=[ \t]*(?:"[^"\\]*"|[^ \t;"\\()=]*))*)[ \t]*(?:;[ \t]*)?$/;
const PARAM = /;[ \t]*([A-Za-z0-9._-]+)[ \t]*=[ \t]*(?:"([^"\\]*)"|([^ \t;"\\()=]*))/g;

function parseStructured(value: string): { value: string; params: Map<string, string> } | null {
  const m = STRUCTURED.exec(value);
  if (!m) return null;
  const params = new Map<string, string>();
  // A repeated key: the first one wins, as in libmime.
  // exec, not matchAll: the iterator and the copy of PARAM it makes cost more than the parameters.
  PARAM.lastIndex = 0;
  for (let p = PARAM.exec(m[2]!); p; p = PARAM.exec(m[2]!)) {
    const key = p[1]!.toLowerCase();
    if (!params.has(key)) params.set(key, p[2] ?? p[3] ?? '');
  }
  return { value: m[1]!.toLowerCase(), params };
}

// Windows-1252 as iconv-lite decodes it: the five unassigned bytes become U+FFFD, not C1 controls.
const W1252 = '€\ufffd‚ƒ„…†‡ˆ‰Š‹Œ\ufffdŽ\ufffd\ufffd‘’“”•–—˜™š›œ\ufffdžŸ';
const L9: Record<number, string> = { 0xa4: '€', 0xa6: 'Š', 0xa8: 'š', 0xb4: 'Ž', 0xb8: 'ž', 0xbc: 'Œ', 0xbd: 'œ', 0xbe: 'Ÿ' };

function windows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\x80-\x9f]/g, (c) => W1252[c.charCodeAt(0) - 0x80]!);
}
function latin9(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\xa4\xa6\xa8\xb4\xb8\xbc\xbd\xbe]/g, (c) => L9[c.charCodeAt(0)]!);
}
function utf8(bytes: Buffer): string {
  return bytes.toString('utf8');
}

// Labels that libmime's normalizeCharset sends to iconv-lite's windows-1252 (ISO-8859-1 included:
// WHATWG's mapping) or ISO-8859-15. Others ("latin9" becomes windows-1254!) we leave to mailparser.
const LABELS = new Map<string, (bytes: Buffer) => string>([
  ...[
    'iso-8859-1',
    'iso8859-1',
    'iso88591',
    'iso_8859-1',
    'iso_8859-1:1987',
    'iso-ir-100',
    'latin1',
    'latin-1',
    'l1',
    'csisolatin1',
    'cp819',
    'ibm819',
    'ansi_x3.4-1968',
    'windows-1252',
    'cp1252',
    'x-cp1252',
    'win-1252',
  ].map((l) => [l, windows1252] as const),
  ...['iso-8859-15', 'iso8859-15', 'iso885915', 'iso_8859-15', 'l9', 'csisolatin9'].map((l) => [l, latin9] as const),
]);

function charsetDecoder(charset: string): ((bytes: Buffer) => string) | null {
  // mailparser skips charset conversion (plain Buffer toString, so UTF-8) for these three.
  const squeezed = charset.toLowerCase().replace(/[^a-z0-9]+/g, '');
  if (squeezed === 'ascii' || squeezed === 'usascii' || squeezed === 'utf8') return utf8;
  return LABELS.get(charset.toLowerCase()) ?? null;
}

/** libqp's decode of a whole body (its stream decoder collects the body and decodes it at the end), byte for byte. */
function quotedPrintable(body: Buffer): Buffer {
  if (body.length === 0) return body;
  const str = stripLineEndBlanks(body.toString('latin1')).replace(/=(?:\r?\n|$)/g, '');
  const out = Buffer.alloc(str.length);
  let n = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c === 0x3d && isHex(str.charCodeAt(i + 1)) && isHex(str.charCodeAt(i + 2))) {
      out[n++] = parseInt(str.slice(i + 1, i + 3), 16);
      i += 2;
    } else out[n++] = c & 0xff;
  }
  return out.subarray(0, n);
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Blanks at the end of each line (CR or LF ends one) removed, as libqp does, in linear time. */
function stripLineEndBlanks(str: string): string {
  let out = '';
  let from = 0; // start of text not yet copied
  let blanks = -1; // start of the current run of blanks, or -1
  for (let i = 0; i <= str.length; i++) {
    const c = i < str.length ? str.charCodeAt(i) : 0x0a;
    if (c === 0x20 || c === 0x09) {
      if (blanks < 0) blanks = i;
      continue;
    }
    if (blanks >= 0 && (c === 0x0a || c === 0x0d)) {
      out += str.slice(from, blanks);
      from = i;
    }
    blanks = -1;
  }
  return from === 0 ? str : out + str.slice(from);
}

/**
 * libbase64's stream decoder, fed as mailsplit feeds it: the body up to its last line break, then
 * the unterminated last line. Each chunk is read as latin1 (8-bit bytes are no base64 letters and
 * are dropped), decoded up to its last padding and then up to a multiple of four, the rest carried.
 */
function base64(body: Buffer): Buffer {
  const lf = body.lastIndexOf(0x0a);
  const chunks = lf < 0 ? [body] : [body.subarray(0, lf + 1), body.subarray(lf + 1)];
  const out: Buffer[] = [];
  let rest = '';
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    let b64 = (rest + chunk.toString('latin1')).replace(/[^a-zA-Z0-9+/=]/g, '');
    rest = '';
    let padded = '';
    const lastPad = b64.lastIndexOf('=');
    if (lastPad >= 0) {
      padded = b64.slice(0, lastPad + 1);
      b64 = b64.slice(lastPad + 1);
    }
    if (b64.length < 4) {
      rest = b64;
      b64 = '';
    } else if (b64.length % 4) {
      rest = b64.slice(-(b64.length % 4));
      b64 = b64.slice(0, b64.length - rest.length);
    }
    b64 = padded + b64;
    if (b64) out.push(base64Segments(b64));
  }
  if (rest) out.push(base64Segments(rest));
  return Buffer.concat(out);
}

/** libbase64's decode of base64 letters and padding: each run between paddings decoded on its own. */
function base64Segments(str: string): Buffer {
  const padPos = str.indexOf('=');
  if (padPos < 0 || !/[a-zA-Z0-9+/\-_]/.test(str.slice(padPos))) return Buffer.from(str, 'base64');
  const output = Buffer.alloc(Math.floor((str.length * 3) / 4));
  let length = 0;
  for (let start = 0; start <= str.length;) {
    let end = str.indexOf('=', start);
    if (end < 0) end = str.length;
    if (end > start) length += output.write(str.substring(start, end), length, 'base64');
    start = end + 1;
  }
  return output.subarray(0, length);
}

/**
 * libmime's decodeFlowed, on a binary string (mailparser unflows before charset decoding): a soft
 * break joins lines of the same quote depth only, the continuation's quote marker and stuffing
 * dropped.
 */
function decodeFlowed(str: string, delSp: boolean): string {
  const lines = str.split(/\r?\n/);
  const result: string[] = [];
  // The paragraph as non-empty pieces, joined once: appending and re-testing a string is quadratic.
  let parts: string[] = [];
  let partsLength = 0;
  let depth = 0;
  let prefix = '';
  const push = (part: string): void => {
    if (part) {
      parts.push(part);
      partsLength += part.length;
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let lineDepth = 0;
    while (line.charCodeAt(lineDepth) === 0x3e) lineDepth++;
    const prefixLength = lineDepth && line.charCodeAt(lineDepth) === 0x20 ? lineDepth + 1 : lineDepth;
    const content = line.slice(prefixLength);
    const last = parts.length ? parts[parts.length - 1]! : '';
    const soft = lineDepth === depth && last.endsWith(' ') && !(partsLength === 3 && parts.join('') === '-- ');
    if (soft) {
      if (delSp) {
        parts.pop();
        partsLength -= last.length;
        push(last.slice(0, -1));
        push(content);
      } else push(lineDepth ? content : content.replace(/^ /, ''));
    } else {
      if (i > 0) result.push(prefix + parts.join(''));
      parts = [];
      partsLength = 0;
      depth = lineDepth;
      prefix = line.slice(0, prefixLength);
      push(content);
    }
  }
  if (partsLength || prefix) result.push(prefix + parts.join(''));
  return result.join('\n').replace(/^ /gm, '');
}

const BOM = /^\ufeff/;

/** A mail fastBody can read: where its one part's body starts, and how it is encoded. */
export interface PlainPart {
  /** Offset of the body in the mail without its mbox envelope line. */
  body: number;
  cte: string;
  params: Map<string, string>;
  decode: (bytes: Buffer) => string;
}

/**
 * The one text/plain part of `input` (a mail without its mbox envelope line), when mailsplit is
 * certain to read the mail as just that part and fastBody can decode it; null otherwise.
 */
export function plainPart(input: Buffer): PlainPart | null {
  if (input.length > MAX_BYTES) return null;
  const head = readFields(input);
  if (!head) return null;
  const { fields } = head;

  let disposition: { value: string; params: Map<string, string> } | null = null;
  if (fields['content-disposition'] !== undefined) {
    disposition = parseStructured(fields['content-disposition']);
    if (!disposition || disposition.value !== 'inline') return null;
  }
  let params = new Map<string, string>();
  if (fields['content-type'] !== undefined) {
    const type = parseStructured(fields['content-type']);
    if (!type || type.value !== 'text/plain') return null;
    params = type.params;
  } else if (disposition?.params.has('filename')) {
    return null; // mailsplit would guess the type from the file name
  }
  // mailsplit splits even a text/plain part at its "boundary".
  if (params.has('boundary')) return null;

  const cte = (fields['content-transfer-encoding'] ?? '').toLowerCase();
  if (!['', '7bit', '8bit', 'binary', 'quoted-printable', 'base64'].includes(cte)) return null;
  const decode = charsetDecoder(params.get('charset') || 'utf-8');
  if (!decode) return null;
  return { body: head.body, cte, params, decode };
}

/**
 * The Body parseBody would return, without mailparser, for a single text/plain part we can read
 * exactly as mailparser does; null for anything else.
 */
export function fastBody(raw: Buffer): Body | null {
  const input = withoutEnvelope(raw);
  const part = plainPart(input);
  if (!part) return null;
  const { cte, params, decode } = part;

  let bytes = input.subarray(part.body);
  if (cte === 'base64') {
    // Longer unterminated last lines are fed in 64 KiB pieces, which we do not model.
    if (bytes.length - bytes.lastIndexOf(0x0a) > 32 * 1024) return null;
    bytes = base64(bytes);
  } else if (cte === 'quoted-printable') bytes = quotedPrintable(bytes);
  if (params.get('format')?.toLowerCase().trim() === 'flowed') {
    const delSp = params.get('delsp')?.toLowerCase().trim() === 'yes';
    bytes = Buffer.from(decodeFlowed(bytes.toString('latin1'), delSp), 'latin1');
  }

  // What mailparser does with the text, then what parseBody does with mailparser's.
  const content = decode(bytes).replace(/\r?\n/g, '\n');
  const text = content === '' ? null : repairC1(content).replace(BOM, '').replace(/\r\n?/g, '\n');
  return { text, html: null, attachments: [] };
}
