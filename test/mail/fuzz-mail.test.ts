// Fuzzing mail reading end to end (inspectMail, what `sf mail inspect` and intake run): raw mail
// built from a grammar (headers, MIME structure, encodings, text or HTML, quoted history) and
// real corpus mail mutated byte by byte. Seeded and bounded in CI; FUZZ_RUNS=<n> runs as many as
// wanted (fuzz-options.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractMail, type ExtractedMail } from '../../src/mail/read/extract.ts';
import { inspectMail } from '../../src/mail/read/inspect.ts';
import { CORPUS_OPTIONS } from './corpus-options.ts';
import { FUZZ_SEED, fuzzTimeout, runs } from './fuzz-options.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.eml') && !f.startsWith('30-'))
  .sort()
  .map((f) => readFileSync(path.join(dir, f)));

// eslint-disable-next-line no-control-regex -- NUL is what must never be stored
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const INTERNAL = /TypeError|RangeError|is not a function|Cannot read propert|undefined|\bat .+\(.*:\d+:\d+\)/;

/** What must hold for any mail at all. */
function check(mail: ExtractedMail): void {
  for (const [k, v] of Object.entries(mail)) if (typeof v === 'string') expect(UNSTORABLE.test(v), k).toBe(false);
  for (const r of mail.brokenReasons) expect(`${r.en} ${r.it}`).not.toMatch(INTERNAL);
  // Header text that goes back out in replies has no line breaks or direction overrides in it.
  for (const v of [mail.subject, mail.fromName]) if (v !== null) expect(v).not.toMatch(/[\r\n\u202a-\u202e\u2066-\u2069]/);
}

// The grammar: a person's reply with a sheet, wrapped in what clients do to it.
const COLS = 'ABCDEFGHILMNOPQRSTUVWXY';
const order = fc.tuple(fc.constantFrom(...COLS), fc.integer({ min: 1, max: 18 }), fc.constantFrom(...COLS), fc.integer({ min: 1, max: 18 })).map(([a, r, b, s]) => `${a}${r}-${b}${s}`);
const charset = fc.constantFrom('utf-8', 'UTF-8', 'iso-8859-1', 'windows-1252', 'us-ascii', 'x-unknown', '');
const encoding = fc.constantFrom('7bit', '8bit', 'quoted-printable', 'base64');
const quoteStyle = fc.constantFrom('none', 'marked', 'outlook', 'html-blockquote', 'html-hr');
const header = fc.constantFrom(
  'Precedence: bulk',
  'Auto-Submitted: no',
  'X-Mailer: Fuzz',
  'Received: from a (b) by c; Mon, 3 Mar 2025 10:00:00 +0100 (CET)',
  'Subject: =?UTF-8?Q?Re:_[SF_andromeda]_=E2=80=AE?=',
  'From: =?UTF-8?B?TWFyaW8=?= <mario.rossi@gmail.com>',
  'In-Reply-To: <sf.1@sf.example>',
  'Content-Disposition: inline',
);

function encode(text: string, cte: string): string {
  if (cte === 'base64') return Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  if (cte === 'quoted-printable') return text.replace(/=/g, '=3D').replace(/ $/gm, '=20');
  return text;
}

const grammarMail = fc
  .record({ orders: fc.array(order, { minLength: 1, maxLength: 6 }), old: fc.array(order, { maxLength: 4 }), charset, cte: encoding, quote: quoteStyle, html: fc.boolean(), multipart: fc.boolean(), flowed: fc.boolean(), extra: fc.array(header, { maxLength: 3 }) })
  .map((m) => {
    let text = m.orders.join('\n');
    let html = `<div>${m.orders.join('</div><div>')}</div>`;
    if (m.old.length) {
      if (m.quote === 'marked') text += `\n\nOn Mon, 3 Mar 2025, SF <orders@sf.example> wrote:\n${m.old.map((o) => `> ${o} `).join('\n')}`;
      if (m.quote === 'outlook') text += `\n\n-----Original Message-----\nFrom: SF <orders@sf.example>\nSent: Monday\nSubject: x\n\n${m.old.join('\n')}`;
      if (m.quote === 'html-blockquote') html += `<div>On Mon, SF wrote:</div><blockquote type="cite">${m.old.join('<br>')}</blockquote>`;
      if (m.quote === 'html-hr') html += `<hr><b>From:</b> SF<br><b>Sent:</b> Monday<br><b>Subject:</b> x<br><p>${m.old.join('<br>')}</p>`;
    }
    const cs = m.charset ? `; charset=${m.charset}` : '';
    const textPart = `Content-Type: text/plain${cs}${m.flowed ? '; format=flowed' : ''}\r\nContent-Transfer-Encoding: ${m.cte}\r\n\r\n${encode(text, m.cte)}`;
    const htmlPart = `Content-Type: text/html${cs}\r\nContent-Transfer-Encoding: ${m.cte}\r\n\r\n${encode(html, m.cte)}`;
    const body = m.multipart ? `Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\n${textPart}\r\n--b\r\n${htmlPart}\r\n--b--\r\n` : m.html ? htmlPart : textPart;
    const head = ['From: Mario <mario.rossi@gmail.com>', 'To: orders+k7Q2-x9Pm@sf.example', 'Subject: Re: [SF andromeda] turno', 'MIME-Version: 1.0', ...m.extra].join('\r\n');
    return { raw: Buffer.from(`${head}\r\n${body.replace(/\r?\n/g, '\r\n')}`, 'utf8'), m };
  });

describe('fuzz: raw mail', () => {
  it(
    'grammar-built replies: never throw, and a person’s reply is read as its new orders',
    async () => {
      await fc.assert(
        fc.asyncProperty(grammarMail, async ({ raw, m }) => {
          const got = await inspectMail(raw, CORPUS_OPTIONS);
          check(await extractMail(raw, CORPUS_OPTIONS));
          if (got.automatic || m.charset === 'x-unknown') return;
          // The quote styles the reader knows never leave an old order in; HTML-only and text both.
          expect(got.orders).toEqual(m.orders);
        }),
        { seed: FUZZ_SEED, numRuns: runs(150) },
      );
    },
    fuzzTimeout(60_000),
  );

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom('\r\n', '\r\n\r\n', '--', '=?', '?=', ';', ':', '"', '(', '<', '>', ' '.repeat(500), '&nbsp;'.repeat(50), '<br>'.repeat(50), 'Content-Type: ;\r\n', 'format=flowed', '\u202e', '\u0000', '\xff\xfe') }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }), times: fc.integer({ min: 2, max: 200 }) }),
  );
  it(
    'mutated corpus mail: never throws, stores, and quotes no internal error',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fixtures), fc.array(mutation, { minLength: 1, maxLength: 5 }), async (fixture, mutations) => {
          let raw: Buffer = fixture;
          for (const mu of mutations) {
            const at = mu.at % (raw.length + 1);
            if (mu.kind === 'flip') raw = Buffer.concat([raw.subarray(0, at), Buffer.from([mu.byte]), raw.subarray(at + 1)]);
            else if (mu.kind === 'insert') raw = Buffer.concat([raw.subarray(0, at), Buffer.from(mu.text, 'latin1'), raw.subarray(at)]);
            else if (mu.kind === 'cut') raw = raw.subarray(0, at);
            else raw = Buffer.concat([raw.subarray(0, at), Buffer.alloc(mu.length * mu.times, raw.subarray(at, at + mu.length).length ? raw.subarray(at, at + mu.length) : ' '), raw.subarray(at)]);
          }
          check(await extractMail(raw, CORPUS_OPTIONS));
          await inspectMail(raw, CORPUS_OPTIONS);
        }),
        { seed: FUZZ_SEED, numRuns: runs(200) },
      );
    },
    fuzzTimeout(60_000),
  );
});
