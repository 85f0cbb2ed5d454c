// Every reader linear in its input: each shape below took seconds to minutes at 200 KB
// when a regular expression backtracked over it. The assertions are on what is read; the test
// timeout is the hang guard (no wall-clock budget: the machine may be loaded).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { receivedAt, readHead } from '../../src/mail/read/extract-headers.ts';
import { mimeProblems } from '../../src/mail/read/extract-mime.ts';
import { htmlToText } from '../../src/mail/read/html-text.ts';
import { stripTags } from '../../src/mail/read/html-fallback.ts';
import { inspectMail } from '../../src/mail/read/inspect.ts';
import { splitQuoted } from '../../src/mail/read/quoted.ts';
import { shortenBlankRuns, trimEndBlanks, withoutComments } from '../../src/mail/read/linear.ts';
import { HOSTILE_SHAPES } from './hostile-shapes.ts';

const SIZE = 200 * 1024;
const OPTIONS = { maxBytes: 10 * 1024 * 1024, ourDomain: 'example.org', ordersLocalPart: 'orders' };

describe('hostile shapes are read, in linear time', () => {
  for (const shape of HOSTILE_SHAPES)
    it(shape.name, async () => {
      const got = await inspectMail(shape.build(SIZE), OPTIONS);
      expect(got.secret).toBe('k7Q2-x9Pm');
      for (const o of shape.orders) expect(got.orders).toContain(o);
    });
});

describe('each reader on its own hostile input', () => {
  const run = ' '.repeat(SIZE);
  it('quoted.ts: a signature delimiter test on a line of spaces then a letter', () => {
    expect(splitQuoted(`B2-C3\n--${run}x\nB1-C1`).text).toBe(`B2-C3\n--${run}x\nB1-C1`);
    expect(splitQuoted(`B2-C3\n--${run}\nSig`).text).toBe('B2-C3');
  });
  it('html-text.ts: trailing blanks, <br> runs, unclosed tags', () => {
    expect(htmlToText(`<p>B2-C3${'&nbsp;'.repeat(SIZE / 6)}x</p>`)).toMatch(/^B2-C3 +x$/);
    expect(
      htmlToText(`<div>B2-C3${'<br>'.repeat(SIZE / 4)}B1-C1</div>`)
        .split('\n')
        .filter((l) => l !== ''),
    ).toEqual(['B2-C3', 'B1-C1']);
    expect(stripTags(`<b>B2-C3</b>${'<!--'.repeat(SIZE / 4)}`)).toBe(` B2-C3 ${'<!--'.repeat(SIZE / 4)}`);
    expect(stripTags(`<i>x</i>${'<'.repeat(SIZE)}`)).toBe(` x ${'<'.repeat(SIZE)}`);
  });
  it('extract-mime.ts: a boundary search over a line of blanks', () => {
    const raw = Buffer.from(`Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nB2-C3\r\n${' \t'.repeat(SIZE / 2)}x\r\n--b--\r\n`);
    expect(mimeProblems(raw, readHead(raw))).toEqual([]);
  });
  it('extract-headers.ts: a Received header full of (', () => {
    const raw = Buffer.from(`Received: from a by b; ${'('.repeat(SIZE)}Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\n`);
    expect(receivedAt(readHead(raw))).toBeNull();
    const ok = Buffer.from(`Received: from a (x) by b; Mon, 23 Nov 2026 10:00:00 +0000 (UTC)\r\n\r\n`);
    expect(receivedAt(readHead(ok))).toBe('2026-11-23T10:00:00.000Z');
  });
});

describe('the linear helpers do what the regular expressions did', () => {
  const blanky = fc.string({ unit: fc.constantFrom(' ', '\t', '\r', 'a', '(', ')', '\n'), maxLength: 40 });
  it('trimEndBlanks', () => {
    fc.assert(
      fc.property(blanky, (s) => trimEndBlanks(s) === s.replace(/[ \t]+$/, '') && trimEndBlanks(s, true) === s.replace(/[ \t\r]+$/, '')),
    );
  });
  it('withoutComments', () => {
    fc.assert(fc.property(blanky, (s) => withoutComments(s) === s.replace(/\([^)]*\)/g, '')));
  });
  it('stripTags', () => {
    const htmlish = fc.string({
      unit: fc.constantFrom('<', '>', '!--', '-->', '<!--', 'script', '</script', 'style', 'head', 'a', ' ', '\n'),
      maxLength: 30,
    });
    const old = (h: string) => h.replace(/<!--[\s\S]*?-->|<(script|style|head)\b[\s\S]*?<\/\1\s*>|<[^>]*>/gi, ' ');
    fc.assert(
      fc.property(htmlish, (h) => stripTags(h) === old(h)),
      { numRuns: 2000 },
    );
    expect(stripTags('a<!-- b -->c<script>d</script >e<p>f')).toBe('a c e f');
  });
  it('shortenBlankRuns keeps every other byte and at most 8 blanks in a row', () => {
    fc.assert(
      fc.property(blanky, (s) => {
        const out = shortenBlankRuns(Buffer.from(s)).toString();
        return out.replace(/[ \t]/g, '') === s.replace(/[ \t]/g, '') && !/[ \t]{9}/.test(out);
      }),
    );
    const raw = Buffer.from('abc');
    expect(shortenBlankRuns(raw)).toBe(raw); // no copy when nothing is long
  });
});
