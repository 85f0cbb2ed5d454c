// The fast path must give what mailparser gives, byte for byte, whenever it answers at all.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBody, parseBodyWithMailparser } from '../../src/mail/read/extract-body.ts';
import { fastBody } from '../../src/mail/read/fast-body.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

async function expectSame(raw: Buffer): Promise<boolean> {
  const fast = fastBody(raw);
  if (fast === null) return false;
  expect(fast, raw.toString('latin1')).toEqual(await parseBodyWithMailparser(raw));
  return true;
}

// ---- generated mail ----

const UTF8_LABELS = ['utf-8', 'UTF-8', 'utf8', 'Utf_8', 'us-ascii', 'US-ASCII', 'ascii', ' utf-8 '];
const W1252_LABELS = [
  'iso-8859-1',
  'ISO-8859-1',
  'iso8859-1',
  'latin1',
  'latin-1',
  'l1',
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'win-1252',
  'ansi_x3.4-1968',
];
const L9_LABELS = ['iso-8859-15', 'ISO-8859-15', 'iso885915', 'l9'];
const OTHER_LABELS = ['latin9', 'iso-8859-2', 'koi8-r', 'x-unknown', 'unknown-8bit', 'utf-16', 'unicode-1-1-utf-8', ''];

/** Pieces of body text: the awkward ones for flowed text, QP, C1 repair and BOM handling. */
const FRAGMENT = fc.oneof(
  fc.constantFrom('a', 'Zug', 'A1-B2', ' ', '  ', '\t', '-- ', '--', '>', ' >', '=', '=3D', '=\r\n', 'é', 'ü', '€', '😀', '–'),
  fc.constantFrom('\u0000', '\u0007', '\u007f', '\u0085', '\u0096', '\u00a0', '\u2028', '\ufeff', '\ufffd'),
  fc.string({ maxLength: 6 }),
);
/** Raw bytes dropped into the body: invalid UTF-8, C1 bytes, lone CR. */
const RAW_BYTES = fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => Buffer.from(a));

type Piece = string | Buffer;
const LINE = fc.array(fc.oneof({ weight: 8, arbitrary: FRAGMENT }, { weight: 1, arbitrary: RAW_BYTES }), { maxLength: 8 });
const EOL = fc.constantFrom('\r\n', '\r\n', '\n', '\r');
const BODY = fc.record({
  lines: fc.array(fc.tuple(LINE, EOL), { maxLength: 8 }),
  finalEol: fc.boolean(),
});

function encodeText(pieces: Piece[], charset: string): Buffer {
  const latin = [...W1252_LABELS, ...L9_LABELS].includes(charset);
  return Buffer.concat(
    pieces.map((p) => (typeof p === 'string' ? (latin ? Buffer.from(p.replace(/[^\0-\xff]/g, '?'), 'latin1') : Buffer.from(p)) : p)),
  );
}

/** Quoted-printable with soft breaks at 76, as a careful client writes it. */
function qp(bytes: Buffer, eol: string): string {
  let out = '';
  let line = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const next = bytes[i + 1];
    if (b === 0x0d && next === 0x0a) continue;
    if (b === 0x0a) {
      out += line + eol;
      line = '';
      continue;
    }
    const atEnd = next === undefined || next === 0x0a || next === 0x0d;
    const plain = (b >= 0x21 && b <= 0x7e && b !== 0x3d) || ((b === 0x20 || b === 0x09) && !atEnd);
    const piece = plain ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line.length + piece.length > 75) {
      out += `${line}=${eol}`;
      line = '';
    }
    line += piece;
  }
  return out + line;
}

function base64(bytes: Buffer, eol: string): string {
  return (bytes.toString('base64').match(/.{1,76}/g) ?? []).join(eol);
}

/** Damage an encoded body: stray '=', padding, junk and 8-bit bytes at random places. */
const DAMAGE = fc.array(
  // Raw UTF-8 too: é, and U+2028 after blanks (libqp's /[\t ]+$/gm strips blanks before it).
  fc.tuple(
    fc.nat(),
    fc.constantFrom(
      '=',
      '==',
      '=Z',
      '=4',
      ' ',
      ' \r\n',
      '=\r\n',
      '!',
      '\u00c1',
      '\u00ff',
      '\r',
      'QQ',
      '',
      '\u00c3\u00a9',
      ' \u00e2\u0080\u00a8',
      '\u00f0\u009f\u0098\u0080',
    ),
  ),
  { minLength: 1, maxLength: 4 },
);
function damage(text: string, hits: [number, string][]): string {
  let s = text;
  for (const [at, junk] of hits) {
    const i = s.length ? at % (s.length + 1) : 0;
    s = junk === '' ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + junk + s.slice(i);
  }
  return s;
}

const NAME_CASE = fc.constantFrom<(n: string) => string>(
  (n) => n,
  (n) => n.toLowerCase(),
  (n) => n.toUpperCase(),
);
const COLON = fc.constantFrom(': ', ':', ' : ', ':\t', ':  ');
const FOLD = fc.constantFrom('; ', ';', ' ;', ';\r\n\t', ';\r\n ', ';\n  ', '; \r\n ');
const QUOTE = fc.constantFrom(
  (v: string) => v,
  (v: string) => `"${v}"`,
  (v: string) => ` = ${v}`,
  (v: string) => `= "${v}"`,
);

const ANY = {
  charset: fc.constantFrom(null, ...UTF8_LABELS, ...W1252_LABELS, ...L9_LABELS, ...OTHER_LABELS),
  quoteCharset: QUOTE,
  type: fc.constantFrom(
    'none',
    'text/plain',
    'text/plain',
    'text/plain',
    'Text/Plain',
    'TEXT/PLAIN',
    'text/html',
    'multipart/alternative',
    'text/plain (x)',
    '',
  ),
  flowed: fc.constantFrom(null, 'flowed', 'Flowed', '"flowed"', 'fixed'),
  delsp: fc.constantFrom(null, 'yes', 'no', '"Yes"'),
  extra: fc.subarray(['reply-type=original', 'name="notes.txt"', 'boundary="b1"', "charset*=utf-8''x", 'charset=utf-8', 'foo']),
  cte: fc.constantFrom(
    null,
    '7bit',
    '8bit',
    'binary',
    'quoted-printable',
    'quoted-printable',
    'Quoted-Printable',
    'base64',
    'base64',
    'BASE64',
    'x-uuencode',
    '8-bit',
    'base64 (x)',
    '',
  ),
  disposition: fc.constantFrom(
    null,
    null,
    'inline',
    'INLINE',
    'inline; filename="a.txt"',
    'inline; filename="a.pdf"',
    'attachment',
    'attachment; filename="a.txt"',
  ),
  broken: fc.option(DAMAGE, { freq: 4 }),
  body: BODY,
  eol: fc.constantFrom('\r\n', '\r\n', '\n'),
  filler: fc.shuffledSubarray([
    'From: Ann <ann@example.org>',
    'To: orders@sf.example',
    'Subject: Orders caf\u00e9',
    'Date: Mon, 3 Mar 2025 10:00:00 +0100',
    'Message-ID: <a@b>',
    'MIME-Version: 1.0',
    'X-Mailer: Thunderbird',
  ]),
  names: NAME_CASE,
  colon: COLON,
  folds: fc.array(FOLD, { minLength: 6, maxLength: 6 }),
  quirk: fc.constantFrom(
    null,
    null,
    null,
    null,
    null,
    null,
    'mbox',
    'no-blank',
    'dup-type',
    'no-colon',
    'leading-space',
    'header-8bit',
    'header-cr',
  ),
};
/** The common case the fast path exists for: it must take nearly all of these. */
const PLAIN = {
  ...ANY,
  charset: fc.constantFrom(null, ...UTF8_LABELS),
  type: fc.constantFrom('none', 'text/plain', 'Text/Plain', 'TEXT/PLAIN'),
  extra: fc.subarray(['reply-type=original', 'charset=utf-8']),
  cte: fc.constantFrom('8bit', 'quoted-printable', 'Quoted-Printable', 'base64', 'BASE64'),
  disposition: fc.constantFrom(null, 'inline', 'INLINE'),
  quirk: fc.constant(null),
};
const MAIL = fc.oneof(fc.record(ANY), fc.record(PLAIN));
type Mail = typeof MAIL extends fc.Arbitrary<infer T> ? T : never;

function build(m: Mail): Buffer {
  const { eol } = m;
  const headers = m.filler.map((h) => h.replace(/^[^:]+: /, (s) => m.names(s.slice(0, -2)) + m.colon));
  const params: string[] = [];
  if (m.charset !== null) params.push(`charset${/^ ?=/.test(m.quoteCharset('')) ? '' : '='}${m.quoteCharset(m.charset)}`);
  if (m.flowed !== null) params.push(`format=${m.flowed}`);
  if (m.delsp !== null) params.push(`delsp=${m.delsp}`);
  params.push(...m.extra);
  const value = [m.type, ...params]
    .map((p, i) => (i ? m.folds[i % 6]! + p : p))
    .join('')
    .replace(/\r?\n/g, eol);
  if (m.type !== 'none') headers.splice(m.filler.length >> 1, 0, `${m.names('Content-Type')}${m.colon}${value}`);
  if (m.cte !== null) headers.push(`${m.names('Content-Transfer-Encoding')}${m.colon}${m.cte}`);
  if (m.disposition !== null) headers.unshift(`${m.names('Content-Disposition')}${m.colon}${m.disposition}`);
  if (m.quirk === 'dup-type') headers.push('Content-Type: text/html');
  if (m.quirk === 'no-colon') headers.push('Content-Type text/html');
  if (m.quirk === 'leading-space') headers.unshift(' Content-Type: text/html');
  if (m.quirk === 'header-8bit') headers.push('Content-Type: text/plain; charset=utf-8\u00a0');
  if (m.quirk === 'header-cr') headers.push('X-Note: a\rContent-Type: text/html');

  const pieces: Piece[] = [];
  m.body.lines.forEach(([line, lineEol], i) => {
    pieces.push(...line);
    if (i < m.body.lines.length - 1 || m.body.finalEol) pieces.push(lineEol);
  });
  const bytes = encodeText(pieces, m.charset ?? 'utf-8');
  const cte = (m.cte ?? '').toLowerCase();
  let body: string | Buffer = bytes;
  if (cte === 'quoted-printable') body = qp(bytes, eol);
  if (cte === 'base64') body = base64(bytes, eol) + (m.body.finalEol ? eol : '');
  if (typeof body === 'string' && m.broken) body = damage(body, m.broken);
  const head = headers.join(eol) + (m.quirk === 'no-blank' ? eol : eol + eol);
  const mbox = m.quirk === 'mbox' ? `From ann@example.org Mon Mar  3 10:00:00 2025${eol}` : '';
  return Buffer.concat([Buffer.from(mbox + head, 'latin1'), typeof body === 'string' ? Buffer.from(body, 'latin1') : body]);
}

function isPlain(m: Mail): boolean {
  return (
    ['none', 'text/plain', 'Text/Plain', 'TEXT/PLAIN'].includes(m.type) &&
    (m.charset === null || UTF8_LABELS.includes(m.charset)) &&
    m.extra.every((p) => p === 'reply-type=original' || p === 'charset=utf-8') &&
    ['8bit', 'quoted-printable', 'Quoted-Printable', 'base64', 'BASE64'].includes(m.cte ?? '') &&
    (m.disposition === null || m.disposition === 'inline' || m.disposition === 'INLINE') &&
    m.quirk === null
  );
}

describe('fastBody', () => {
  it('answers as mailparser does for generated single-part mail, and takes most plain mail', async () => {
    let plain = 0;
    let plainTaken = 0;
    let taken = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(MAIL, async (m) => {
        const ok = await expectSame(build(m));
        runs++;
        if (ok) taken++;
        if (isPlain(m)) {
          plain++;
          if (ok) plainTaken++;
        }
      }),
      { numRuns: 2500 },
    );
    expect(plain).toBeGreaterThan(50);
    expect(plainTaken / plain).toBeGreaterThan(0.9);
    expect(taken / runs).toBeGreaterThan(0.1);
  }, 60_000);

  it('decodes every byte as mailparser does under each charset label it takes', async () => {
    const all = Buffer.alloc(256);
    for (let i = 0; i < 256; i++) all[i] = i;
    for (const label of [...UTF8_LABELS, ...W1252_LABELS, ...L9_LABELS]) {
      for (const cte of ['8bit', 'quoted-printable', 'base64']) {
        const body = cte === 'base64' ? base64(all, '\r\n') : cte === 'quoted-printable' ? qp(all, '\r\n') : all.toString('latin1');
        const raw = Buffer.from(`Content-Type: text/plain; charset=${label}\r\nContent-Transfer-Encoding: ${cte}\r\n\r\n${body}`, 'latin1');
        expect(await expectSame(raw), `${label} ${cte}`).toBe(true);
      }
    }
  });

  it('agrees with mailparser on large mail, and declines what it does not model', async () => {
    const text = Buffer.from('A1-B2 caf\u00e9 \u20ac, and so on\r\n'.repeat(5000));
    const head = (cte: string) => `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: ${cte}\r\n\r\n`;
    expect(await expectSame(Buffer.from(head('base64') + base64(text, '\r\n'), 'latin1'))).toBe(true);
    expect(await expectSame(Buffer.from(head('quoted-printable') + qp(text, '\r\n'), 'latin1'))).toBe(true);
    // An unterminated line over 64 KiB reaches mailparser's decoder in pieces.
    const longLine = Buffer.from('x'.repeat(100 * 1024));
    expect(await expectSame(Buffer.concat([Buffer.from(head('8bit')), longLine]))).toBe(true);
    expect(fastBody(Buffer.from(head('base64') + longLine.toString('base64')))).toBeNull();
    expect(fastBody(Buffer.concat([Buffer.from(head('8bit')), Buffer.alloc(300 * 1024, 0x61)]))).toBeNull();
  });

  it('agrees with mailparser on every fixture it takes', async () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.eml'));
    let taken = 0;
    for (const f of files) if (await expectSame(readFileSync(FIXTURES + f))) taken++;
    expect(taken).toBeGreaterThan(files.length / 3);
  });

  const mail = (head: string, body: string | Buffer): Buffer =>
    Buffer.concat([
      Buffer.from(`From: a@example.org\r\nSubject: x\r\n${head}\r\n\r\n`, 'latin1'),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
    ]);

  it.each([
    [
      'plain UTF-8, 8bit',
      mail('Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit', Buffer.from('A1-B2 caf\u00e9 \u20ac\r\n')),
      'A1-B2 café €\n',
    ],
    [
      'QP Latin-1',
      mail(
        'Content-Type: text/plain; charset="iso-8859-1"\r\nContent-Transfer-Encoding: quoted-printable',
        'B2 =96 C3 caf=E9 lungo=\r\n testo\r\n',
      ),
      'B2 – C3 café lungo testo\n',
    ],
    [
      'base64 UTF-8',
      mail(
        'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64',
        `${Buffer.from('\ufeffciao\r\nA1-B2\r\n').toString('base64')}\r\n`,
      ),
      'ciao\nA1-B2\n',
    ],
    [
      'flowed, delsp',
      mail(
        'Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes',
        'A1-B2, A3-B4,  \r\nA5-B6\r\n>  quoted\r\n\r\n-- \r\nAnn\r\n',
      ),
      'A1-B2, A3-B4, A5-B6\n>  quoted\n\n-- \nAnn',
    ],
    ['no headers of its own', Buffer.from('Subject: x\n\nhello\n'), 'hello\n'],
    ['empty body', mail('Content-Type: text/plain', ''), null],
  ])('takes %s', async (_name, raw, text) => {
    expect(fastBody(raw)).toEqual({ text, html: null, attachments: [] });
    expect(await parseBody(raw)).toEqual(await parseBodyWithMailparser(raw));
    await expectSame(raw);
  });

  it.each([
    [
      'multipart/alternative',
      mail('Content-Type: multipart/alternative; boundary="b"', '--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--\r\n'),
    ],
    ['text/html', mail('Content-Type: text/html; charset=utf-8', '<p>hi</p>')],
    ['an attachment', mail('Content-Type: text/plain\r\nContent-Disposition: attachment; filename="orders.txt"', 'hi')],
    ['an unknown transfer encoding', mail('Content-Type: text/plain\r\nContent-Transfer-Encoding: x-uuencode', 'hi')],
    ['a boundary on text/plain (mailsplit splits there)', mail('Content-Type: text/plain; boundary=b', 'hi\r\n--b\r\n\r\nho')],
    ['an unknown charset', mail('Content-Type: text/plain; charset=x-klingon', 'hi')],
    ['two Content-Type headers', mail('Content-Type: text/plain\r\nContent-Type: text/html', 'hi')],
    ['no blank line after the headers', Buffer.from('Subject: x\r\nContent-Type: text/plain\r\n')],
    ['a malformed header line', mail('Content-Type text/plain', 'hi')],
  ])('declines %s', async (_name, raw) => {
    expect(fastBody(raw)).toBeNull();
    expect(await parseBody(raw)).toEqual(await parseBodyWithMailparser(raw));
  });
});
