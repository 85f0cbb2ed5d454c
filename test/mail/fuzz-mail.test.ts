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
import { grammarMail as grammarOf, INSERTS, mutate, mutation as mutationOf } from './fuzz-grammar.ts';
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

const grammarMail = grammarOf({
  charsets: ['utf-8', 'UTF-8', 'iso-8859-1', 'windows-1252', 'us-ascii', 'x-unknown', ''],
  encodings: ['7bit', '8bit', 'quoted-printable', 'base64'],
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

  const mutation = mutationOf({ inserts: INSERTS, maxTimes: 200 });
  it(
    'mutated corpus mail: never throws, stores, and quotes no internal error',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fixtures), fc.array(mutation, { minLength: 1, maxLength: 5 }), async (fixture, mutations) => {
          const raw = mutate(fixture, mutations);
          check(await extractMail(raw, CORPUS_OPTIONS));
          await inspectMail(raw, CORPUS_OPTIONS);
        }),
        { seed: FUZZ_SEED, numRuns: runs(200) },
      );
    },
    fuzzTimeout(60_000),
  );
});
