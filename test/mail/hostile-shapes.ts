// Mail shapes that made reading super-linear, each built at any size: used by
// hostile-linear.test.ts (once, at a size that took seconds to minutes before the fix) and by
// bench/hostile-mail.bench.ts (at 100 KB, 1 MB and 10 MB). `orders` is what must be read.

export interface HostileShape {
  name: string;
  /** A whole raw mail of about `bytes` bytes (never more). */
  build: (bytes: number) => Buffer;
  /** Orders `sf mail inspect` must read from it. */
  orders: string[];
}

const HEAD =
  'From: Mario <mario@example.it>\r\nTo: orders+k7Q2-x9Pm@example.org\r\nSubject: orders\r\nMessage-ID: <hostile@example.it>\r\n';

/** `unit` repeated to fill what `bytes` leaves after `before` and `after`. */
function fill(bytes: number, before: string, unit: string, after: string): Buffer {
  const n = Math.max(1, Math.floor((bytes - before.length - after.length) / unit.length));
  return Buffer.from(before + unit.repeat(n) + after, 'latin1');
}

const text = (extra = '') => `${HEAD}Content-Type: text/plain; charset=utf-8${extra}\r\n\r\n`;
const html = `${HEAD}Content-Type: text/html; charset=utf-8\r\n\r\n`;
const mixed = (partHead: string) =>
  `${HEAD}Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n${partHead}\r\nB2-C3\r\n`;

export const HOSTILE_SHAPES: HostileShape[] = [
  // `/\s+$/` per line (quoted.ts): one run of spaces inside a line.
  {
    name: 'text: one line, a run of spaces, then a letter',
    build: (b) => fill(b, `${text()}B2-C3\r\n`, ' ', 'x\r\nB1-C1\r\n'),
    orders: ['B2-C3', 'B1-C1'],
  },
  {
    name: 'text: many lines ending in runs of spaces',
    build: (b) => fill(b, `${text()}B2-C3\r\n`, `x${' '.repeat(2000)}\r\n`, 'B1-C1\r\n'),
    orders: ['B2-C3', 'B1-C1'],
  },
  { name: 'text: spaces and tabs, then a letter', build: (b) => fill(b, `${text()}B2-C3\r\n`, ' \t', 'x\r\n'), orders: ['B2-C3'] },
  // libqp's `/[\t ]+$/gm` inside mailparser (text over fast-body's 256 KB, or in a multipart).
  {
    name: 'quoted-printable part: a run of blanks',
    build: (b) => fill(b, mixed('Content-Transfer-Encoding: quoted-printable\r\n'), ' ', 'x\r\n--b1--\r\n'),
    orders: ['B2-C3'],
  },
  // `/[ \t\r]+$/` per line (extract-mime.ts).
  { name: 'multipart: a run of spaces and tabs', build: (b) => fill(b, mixed(''), ' \t', 'x\r\n--b1--\r\n'), orders: ['B2-C3'] },
  {
    name: 'multipart: many lines of blanks',
    build: (b) => fill(b, mixed(''), `${' \t'.repeat(500)}x\r\n`, '--b1--\r\n'),
    orders: ['B2-C3'],
  },
  // `/[ \t]+$/` per line and the per-<br> sibling scans (html-text.ts).
  {
    name: 'html: many &nbsp;',
    build: (b) => fill(b, `${html}<div>B2-C3</div><div>x`, '&nbsp;', 'y</div><div>B1-C1</div>'),
    orders: ['B2-C3', 'B1-C1'],
  },
  { name: 'html: many <br>', build: (b) => fill(b, `${html}<div>B2-C3<br>`, 'a<br>', 'B1-C1</div>'), orders: ['B2-C3', 'B1-C1'] },
  {
    name: 'html: only <br>',
    build: (b) => fill(b, `${html}<div>B2-C3</div><div>`, '<br>', '</div><div>B1-C1</div>'),
    orders: ['B2-C3', 'B1-C1'],
  },
  { name: 'html: nested <div>', build: (b) => fill(b, `${html}<p>B2-C3</p>`, '<div>', 'B1-C1'), orders: ['B2-C3', 'B1-C1'] },
  { name: 'html: unclosed <', build: (b) => fill(b, `${html}<p>B2-C3</p><p>B1-C1</p>`, '<', ''), orders: ['B2-C3', 'B1-C1'] },
  // `/\([^)]*\)/g` over the Received header (extract-headers.ts): a header block of 512 KB at most.
  {
    name: 'Received: many (',
    build: (b) => fill(Math.min(b, 500_000), 'Received: from x by y; ', '(', `\r\n${text()}B2-C3\r\n`),
    orders: ['B2-C3'],
  },
  // Quotes and attributions (quoted.ts): every line classified once.
  { name: 'text: many quoted lines', build: (b) => fill(b, `${text()}B2-C3\r\n`, '> B9-C9 \r\n', 'B1-C1\r\n'), orders: ['B2-C3', 'B1-C1'] },
  {
    name: 'text: many attribution-like lines',
    build: (b) => fill(b, `${text()}B2-C3\r\n`, 'On Monday Mario\r\n', 'wrote:\r\n> B9-C9\r\n'),
    orders: ['B2-C3'],
  },
  {
    name: 'format=flowed: one long soft-broken line',
    build: (b) => fill(b, `${text('; format=flowed')}B2-C3\r\n\r\n`, 'a \r\n', 'b\r\n'),
    orders: ['B2-C3'],
  },
];
