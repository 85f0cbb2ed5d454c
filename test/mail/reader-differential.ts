// Differential check of the mail reader against a committed version of itself: every output of
// extractMail and inspectMail, and of the header helpers other modules call, must be identical
// (JSON) for every input. For changes meant to make the reader faster without changing what it
// reads. A script, not a vitest file: it needs a second copy of src/ taken out of git.
//
//   node --import tsx test/mail/reader-differential.ts <ref>      (the commit to compare with)
//   DIFF_RUNS=20000 node --import tsx test/mail/reader-differential.ts <ref>
//
// When package-lock.json differs at <ref> (an upgrade of mailparser and its parts, which
// fast-body.ts mirrors), the copy of <ref> gets its own dependencies (`npm ci`, once per commit):
// the reader with the new packages is compared with the reader as it ran on the old ones.
//
// The inputs: every .eml under test/mail/fixtures, the grammar and the mutations of
// fuzz-mail.test.ts, the hostile shapes, the bench's order sheets, and generated headers and
// bodies aimed at the reader's own branches (addresses, automatic markers, quotes, Code: lines).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type * as ExtractModule from '../../src/mail/read/extract.ts';
import type * as HeadersModule from '../../src/mail/read/extract-headers.ts';
import type * as InspectModule from '../../src/mail/read/inspect.ts';
import type * as QuotedModule from '../../src/mail/read/quoted.ts';
import { CORPUS_OPTIONS } from './corpus-options.ts';
import { grammarMail as grammarOf, INSERTS, mutate, mutation as mutationOf, order } from './fuzz-grammar.ts';
import { HOSTILE_SHAPES } from './hostile-shapes.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ref = process.argv[2] ?? '';
if (!ref) {
  console.log('usage: node --import tsx test/mail/reader-differential.ts <ref>   (the commit to compare the working tree with)');
  process.exit(2);
}
/** Whether `paths` differ between `ref` and the working tree. */
function differs(...paths: string[]): boolean {
  try {
    execFileSync('git', ['diff', '--quiet', ref, '--', ...paths], { cwd: repo });
    return false;
  } catch {
    return true;
  }
}
// The same src/ and dependencies on both sides would compare the reader with itself, and always agree.
const ownDependencies = differs('package-lock.json');
if (!ownDependencies && !differs('src')) {
  console.log(`src/ and package-lock.json at ${ref} are the working tree's: nothing to compare (name an earlier commit)`);
  process.exit(2);
}
const RUNS = Number(process.env.DIFF_RUNS ?? 2000);
const SEED = Number(process.env.DIFF_SEED ?? 20261123);

interface Reader {
  extract: typeof ExtractModule;
  headers: typeof HeadersModule;
  inspect: typeof InspectModule;
  quoted: typeof QuotedModule;
}

async function load(root: string): Promise<Reader> {
  const at = (f: string) => pathToFileURL(path.join(root, 'src/mail/read', f)).href;
  return {
    extract: (await import(at('extract.ts'))) as typeof ExtractModule,
    headers: (await import(at('extract-headers.ts'))) as typeof HeadersModule,
    inspect: (await import(at('inspect.ts'))) as typeof InspectModule,
    quoted: (await import(at('quoted.ts'))) as typeof QuotedModule,
  };
}

/** src/ (and what it imports from the root) as committed at `ref`, in a directory of its own. */
function baseCopy(): string {
  const sha = execFileSync('git', ['rev-parse', ref], { cwd: repo, encoding: 'utf8' }).trim();
  const dir = path.join(process.env.TMPDIR ?? '/tmp', `reader-base-${sha.slice(0, 12)}${ownDependencies ? '-own-deps' : ''}`);
  const complete = path.join(dir, ownDependencies ? '.installed' : 'node_modules');
  if (!existsSync(complete)) {
    rmSync(dir, { recursive: true, force: true }); // an earlier copy cut short
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', sha, 'src', 'maps', 'package.json', 'package-lock.json', 'tsconfig.json'], {
      cwd: repo,
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    if (ownDependencies) {
      console.log(`installing the dependencies of ${ref} in ${dir} …`);
      execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
      writeFileSync(complete, '');
    } else {
      symlinkSync(path.join(repo, 'node_modules'), complete);
    }
  }
  return dir;
}

// ---- inputs -------------------------------------------------------------------------------

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? fixtureFiles(p) : f.endsWith('.eml') ? [p] : [];
  });
}
const fixtures = fixtureFiles(path.join(repo, 'test/mail/fixtures'))
  .sort()
  .map((f) => readFileSync(f));

// fuzz-mail.test.ts's grammar and mutations (fuzz-grammar.ts), with more charsets, encodings and inserts.
const grammarMail = grammarOf({
  charsets: ['utf-8', 'UTF-8', 'iso-8859-1', 'windows-1252', 'us-ascii', 'x-unknown', '', 'iso-8859-15', 'latin1'],
  encodings: ['7bit', '8bit', 'quoted-printable', 'base64', 'x-uuencode', ''],
}).map(({ raw }) => raw);
const mutation = mutationOf({
  inserts: [
    ...INSERTS,
    '\n',
    '\r',
    ')',
    '@',
    ',',
    '\\',
    '\t',
    '\xfe\xff',
    '\xef\xbb\xbf',
    '> ',
    '-- \r\n',
    'Code: abc-12\r\n',
    'From ',
    '\x80\x9f',
  ],
  maxTimes: 50,
});

// Address headers: the forms clients write, and the characters addressparser treats specially.
const word = fc.constantFrom(
  'Mario',
  'Rossi',
  'R.',
  "O'Neil",
  'Jean-Luc',
  'José',
  '=?UTF-8?B?TWFyaW8=?=',
  '=?utf-8?q?Jos=C3=A9?=',
  'x_y',
  'a+b',
  '#1',
  '',
  'MAILER-DAEMON',
  'postmaster',
);
const local = fc.constantFrom(
  'mario',
  'mario.rossi',
  'orders',
  'orders+k7Q2-x9Pm',
  'ORDERS+Hq9d-2RkT',
  'Orders+bad_secret',
  'postmaster',
  'MAILER-DAEMON',
  'a',
  "o'neil",
  'x!#$%&*/=?^_`{|}~',
  '"quoted local"',
  '"a@b"',
  'a..b',
  '.a',
  '',
);
const domain = fc.constantFrom(
  'sf.example',
  'SF.Example',
  'gmail.com',
  'example.org',
  'a',
  'a.b.c',
  '[127.0.0.1]',
  'sf.example.',
  '-x',
  '',
);
const addrSpec = fc.tuple(local, fc.constantFrom('@', '@', '@', ' @ ', '@@', ''), domain).map(([l, at, d]) => `${l}${at}${d}`);
const sp = fc.constantFrom('', ' ', ' ', '  ', '\t', ' \u00a0');
const displayName = fc.oneof(
  fc.array(word, { maxLength: 3 }).map((w) => w.join(' ')),
  fc.array(word, { maxLength: 3 }).map((w) => `"${w.join(' ')}"`),
  fc.constantFrom('"Rossi, Mario"', '"a\\"b"', '"Mario" Rossi', 'Rossi, Mario', '(comment)', 'Mario (home)', '""', '"', '\\'),
);
const mailbox = fc.oneof(
  addrSpec,
  fc
    .tuple(displayName, sp, addrSpec, fc.constantFrom('', ' (comment)', ' x', '>', '(c)'))
    .map(([n, s, a, tail]) => `${n}${s}<${a}>${tail}`),
  fc.tuple(addrSpec, fc.constantFrom(' (Mario)', '(x)', ' Mario', ' <a@b>')).map(([a, c]) => `${a}${c}`),
  fc.tuple(displayName, sp, addrSpec).map(([n, s, a]) => `${n}${s}<${a}`),
);
const addressList = fc.oneof(
  { weight: 4, arbitrary: mailbox },
  { weight: 1, arbitrary: fc.array(mailbox, { minLength: 2, maxLength: 3 }).map((m) => m.join(', ')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('list', 'undisclosed-recipients', ''), fc.array(mailbox, { maxLength: 2 }))
      .map(([g, m]) => `${g}:${m.join(',')};`),
  },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'ab@.<>"(),:;\\[] \t+-=?'), maxLength: 30 }) },
);
const headerField = fc.oneof(
  addressList.map((v) => `From: ${v}`),
  addressList.map((v) => `To: ${v}`),
  addressList.map((v) => `Cc: ${v}`),
  addressList.map((v) => `Reply-To: ${v}`),
  addressList.map((v) => `Sender: ${v}`),
  addressList.map((v) => `Delivered-To: ${v}`),
  addressList.map((v) => `X-Original-To: ${v}`),
  fc.constantFrom(
    'Auto-Submitted: auto-replied',
    'Auto-Submitted: no',
    'Auto-Submitted: No (comment)',
    'auto-submitted: auto-generated; owner-email=x@y',
    'X-Autoreply: yes',
    'X-Autorespond: 1',
    'X-Auto-Response-Suppress: None',
    'X-Auto-Response-Suppress: ',
    'X-Auto-Response-Suppress: All',
    'Precedence: bulk',
    'Precedence: "list"',
    'Precedence: junk (x)',
    'Precedence: first-class',
    'List-Id: <x.example>',
    'List-Unsubscribe: <mailto:x@y>',
    'Return-Path: <>',
    'Return-Path: < >',
    'Return-Path: <a@b>',
    'Return-Path:',
    'X-SF-Origin: starts-foundation',
    'X-SF-Origin:  Starts-Foundation ',
    'Content-Type: multipart/report; report-type=delivery-status; boundary=x',
    'Content-Type: message/delivery-status',
    'Content-Type: text/plain; charset="utf-8"; format=flowed; delsp=yes',
    'Content-Type: text/plain; charset=x-unknown',
    "Content-Type: text/plain; charset*=utf-8''%E2%82%AC",
    'Content-Transfer-Encoding: base64',
    'Content-Transfer-Encoding: x-bogus',
    'Subject: [SF andromeda] code k7Q2-x9Pm',
    'Subject: =?UTF-8?B?W1NGIGFuZHJvbWVkYV0gb3JkaW5p?=',
    'Subject: =?utf-8?q?Re=3A_=5BSF_x=5D?= =?utf-8?q?_codice=3A_abc?=',
    'Subject: \u202eevil\u0007',
    'Message-ID: <a@b>',
    'Message-ID: not an id',
    'Message-ID:',
    'In-Reply-To: <x@y> <z@w>',
    'References: <a@b> <c@d>',
    'References: <e@f>',
    'Received: from x by y; Mon, 3 Mar 2025 10:00:00 +0100 (CET)',
    'Received: from x by y; garbage',
    'Received: no semicolon',
    'MIME-Version: 1.0',
    ' continued line',
    'not a header',
  ),
);
const bodyLine = fc.oneof(
  order,
  fc.constantFrom(
    'V: Hutt',
    'H: Sith, Hutt',
    'h : sith',
    '- B2-C3',
    '• B2 - C3',
    'Code: k7Q2-x9Pm',
    'codice：Hq9d-2RkT extra',
    'Code: bad secret!',
    '> B1-C1',
    ' > > old',
    '-- ',
    '--',
    'Mario',
    '',
    '   ',
    'On Mon, 3 Mar 2025, SF <orders@sf.example> wrote:',
    'Il giorno lun 3 mar 2025 alle ore 09:00 SF <',
    'orders@sf.example> ha scritto:',
    'Mario wrote:',
    '-----Original Message-----',
    'From: SF <orders@sf.example>',
    'Sent: Monday',
    'Subject: x',
    '________________________________',
    'Sent from my iPhone',
    'Inviato da iPhone',
    'Get Outlook for Android',
    'B2\u00a0-\u2003C3',
    'Grazie, a presto',
    '\ufeffB3-C4',
  ),
);
const headerMail = fc
  .record({
    fields: fc.array(headerField, { maxLength: 8 }),
    lines: fc.array(bodyLine, { maxLength: 12 }),
    eol: fc.constantFrom('\r\n', '\n'),
    charset: fc.constantFrom('', '; charset=utf-8', '; charset=iso-8859-1', '; charset=us-ascii'),
    latin1: fc.boolean(),
  })
  .map(({ fields, lines, eol, charset: cs, latin1 }) => {
    const head = [...fields, `Content-Type: text/plain${cs}`].join(eol);
    return Buffer.from(`${head}${eol}${eol}${lines.join(eol)}${eol}`, latin1 ? 'latin1' : 'utf8');
  });

// The bench's order sheet (/tmp/team/extract-bench.ts), the mail the reader sees most.
function orderSheet(n: number): Buffer {
  const factions = ['Hutt', 'Aristocrats', 'Sith', 'Knights', 'Merchants', 'Corellians'];
  const player = n % factions.length;
  const hostile = factions.filter((_, b) => Math.floor(n / factions.length) & (1 << b));
  const body = [
    `V: ${factions[(n * 7) % factions.length]}`,
    ...(hostile.length ? [`H: ${hostile.join(', ')}`] : []),
    '',
    'Good luck to all,',
    `Player ${player + 1}`,
  ];
  const head = [
    `From: Player ${player + 1} <player${player + 1}@example.org>`,
    `To: orders+bench-${'abcdefgh'[player]}7Q@sf.example`,
    `Subject: Orders, week 1 (${n})`,
    `Date: ${new Date(Date.UTC(2026, 2, 2, 9, 0, n % 60)).toUTCString()}`,
    `Message-ID: <bench-${n}@example.org>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    'User-Agent: Bench/1.0',
  ];
  return Buffer.from([...head, '', ...body, ''].join('\r\n'));
}

function* inputs(): Generator<[string, Buffer]> {
  for (const [i, f] of fixtures.entries()) yield [`fixture ${i}`, f];
  for (let n = 0; n < 200; n++) yield [`order sheet ${n}`, orderSheet(n)];
  for (const s of HOSTILE_SHAPES) for (const size of [600, 5000, 40_000]) yield [`hostile ${s.name} ${size}`, s.build(size)];
  const sample = <T>(a: fc.Arbitrary<T>, n: number, seed: number) => fc.sample(a, { seed, numRuns: n });
  for (const [i, m] of sample(grammarMail, RUNS, SEED).entries()) yield [`grammar ${i}`, m];
  for (const [i, m] of sample(headerMail, RUNS * 2, SEED + 1).entries()) yield [`headers ${i}`, m];
  const base = fc.oneof(fc.constantFrom(...fixtures), grammarMail, headerMail, fc.nat(100).map(orderSheet));
  for (const [i, [m, mu]] of sample(fc.tuple(base, fc.array(mutation, { minLength: 1, maxLength: 5 })), RUNS * 2, SEED + 2).entries())
    yield [`mutated ${i}`, mutate(m, mu)];
}

const OPTIONS: ExtractModule.ExtractOptions[] = [
  CORPUS_OPTIONS,
  { ...CORPUS_OPTIONS, maxBytes: 400 },
  { maxBytes: 0, ourDomain: 'sf.example', ordersLocalPart: 'orders' },
  {
    maxBytes: 1 << 30,
    ourDomain: 'EXAMPLE.org',
    ordersLocalPart: 'Player1',
    ourAddresses: ['MARIO.ROSSI@gmail.com', ' player2@example.org '],
  },
  { maxBytes: 5000, ourDomain: 'sf.example', ordersLocalPart: 'orders', ourAddresses: [] },
];

// ---- the comparison -----------------------------------------------------------------------

const show = (v: unknown) => JSON.stringify(v);

async function outputs(r: Reader, raw: Buffer): Promise<string[]> {
  const out: string[] = [];
  for (const o of OPTIONS) out.push(show(await r.extract.extractMail(raw, o)));
  out.push(show(await r.inspect.inspectMail(raw, CORPUS_OPTIONS)));
  // The helpers intake and other modules call on their own.
  const head = r.headers.readHead(raw);
  out.push(show(head));
  for (const f of head.fields)
    out.push(
      show([r.headers.addresses(f.value), r.headers.mailboxes(f.value), r.headers.parseParams(f.value), r.headers.decodeWords(f.value)]),
    );
  const text = raw.toString('utf8');
  out.push(show(r.quoted.splitQuoted(text)), show(text.split('\n').map(r.quoted.looksLikeSheetLine)));
  return out;
}

async function main(): Promise<void> {
  const base = await load(baseCopy());
  const mine = await load(repo);
  let mails = 0;
  let differ = 0;
  for (const [name, raw] of inputs()) {
    const [a, b] = [await outputs(base, raw), await outputs(mine, raw)];
    mails++;
    const k = a.findIndex((x, i) => x !== b[i]);
    if (k < 0 && a.length === b.length) continue;
    if (++differ <= 5)
      console.log(
        `DIFFERS: ${name} (output ${k})\n  raw:  ${show(raw.toString('latin1').slice(0, 600))}\n  base: ${a[k]?.slice(0, 800)}\n  mine: ${b[k]?.slice(0, 800)}`,
      );
  }
  console.log(`${mails} mails compared (${OPTIONS.length} option sets each, plus inspectMail and the header helpers): ${differ} differ`);
  process.exitCode = differ ? 1 : 0;
}

await main();
