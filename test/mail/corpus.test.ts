// The fixture corpus: every `fixtures/NN-name.eml` runs through inspectMail (what `sf mail
// inspect` prints) and is compared with `NN-name.expected.json`. A mail that surprised us in a real
// game becomes a new pair of files here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inspectMail } from '../../src/mail/read/inspect.ts';
import { CORPUS_OPTIONS, type Expected } from './corpus-options.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.eml'))
  .map((f) => f.slice(0, -4))
  .sort();

describe('mail fixture corpus', () => {
  it('has at least 32 fixtures, each with its expected outcome', () => {
    expect(names.length).toBeGreaterThanOrEqual(32);
    for (const n of names) expect(() => readFileSync(path.join(dir, `${n}.expected.json`))).not.toThrow();
  });

  for (const name of names) {
    it(name, async () => {
      const expected = JSON.parse(readFileSync(path.join(dir, `${name}.expected.json`), 'utf8')) as Expected;
      const raw = readFileSync(path.join(dir, `${name}.eml`));
      const got = await inspectMail(raw, { ...CORPUS_OPTIONS, maxBytes: expected.maxBytes ?? CORPUS_OPTIONS.maxBytes });

      expect({
        automatic: got.automatic,
        gameTag: got.gameTag,
        secret: got.secret,
        orders: got.orders,
        hostility: got.hostility,
        vote: got.vote,
        problemCodes: got.problems.map((p) => p.code),
      }).toEqual({
        automatic: expected.automatic,
        gameTag: expected.gameTag,
        secret: expected.secret,
        orders: expected.orders,
        hostility: expected.hostility,
        vote: expected.vote,
        problemCodes: expected.problemCodes,
      });
      if (expected.sheetText !== undefined) expect(got.sheetText).toBe(expected.sheetText);
      for (const s of expected.sheetTextIncludes ?? []) expect(got.sheetText).toContain(s);
      for (const s of expected.sheetTextExcludes ?? []) expect(got.sheetText).not.toContain(s);
      if (expected.sheetSource !== undefined) expect(got.sheetSource).toBe(expected.sheetSource);
      if (expected.from !== undefined) expect(got.from).toBe(expected.from);
      expect(got.oversized).toBe(expected.oversized ?? false);
      expect(got.broken !== null, `broken: ${got.broken}`).toBe(expected.broken ?? false);
      if (expected.secretSource !== undefined) expect(got.secretSource).toBe(expected.secretSource);
      if (expected.normalisedCodes !== undefined) expect(got.normalised.map((p) => p.code)).toEqual(expected.normalisedCodes);
      for (const r of expected.automaticReasonsInclude ?? []) expect(got.automaticReasons.join('\n')).toContain(r);
      // Every problem is something a player can read, in both languages.
      for (const p of got.problems) expect(p.message.it.length * p.message.en.length).toBeGreaterThan(0);
    });
  }
});

// Cases too big to commit: built here, from a fixture's headers.
describe('mail built at run time', () => {
  const headersOf = (name: string) => {
    const raw = readFileSync(path.join(dir, `${name}.eml`), 'latin1');
    return raw.slice(0, raw.search(/\r?\n\r?\n/));
  };
  const simple = (body: string) =>
    Buffer.from(
      `${headersOf('19-delivered-to-only-bcc').replace(/Content-Type:[^\n]*\n?/i, '')}\nContent-Type: text/plain; charset=utf-8\n\n${body}`,
      'utf8',
    );

  // No hang (MAIL.md): the test's timeout is the guard; speed is for the benchmarks.
  it('reads a sheet of 3,000 lines, every line reported as R-ORD-* says', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(i % 3 === 0 ? 'T7-T8' : i % 3 === 1 ? 'T7 ciao' : 'T6=T10');
    const got = await inspectMail(simple(lines.join('\n')), CORPUS_OPTIONS);
    expect(got.orders).toHaveLength(2000);
    expect(got.problems.filter((p) => p.code === 'not-understood')).toHaveLength(1000);
    expect(got.problems.at(-1)?.line).toBe(2999);
  });

  it('does not read mail over the default 10 MB cap, but still knows who sent it', async () => {
    const head = headersOf('30-oversized-photo');
    const boundary = /boundary=(\S+)/.exec(head)![1]!;
    const photo = Buffer.alloc(8 * 1024 * 1024, 7)
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
    const raw = Buffer.from(
      `${head}\r\n\r\n--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nG7-H8\r\n--${boundary}\r\n` +
        `Content-Type: image/jpeg\r\nContent-Disposition: attachment; filename=IMG_4022.jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n${photo}\r\n--${boundary}--\r\n`,
    );
    expect(raw.length).toBeGreaterThan(10 * 1024 * 1024);
    const got = await inspectMail(raw, CORPUS_OPTIONS);
    expect(got).toMatchObject({ oversized: true, from: 'anna.conti@icloud.com', secret: 'Hq9d-2RkT', orders: [], sheetText: '' });
    expect(got.problems.map((p) => p.code)).toEqual(['mail-oversized']);
    expect(got.problems[0]!.message.en).toContain('10 MB');
  });
});
