// The plain-mailbox fast path of extract-headers.ts must read a header exactly as addressparser
// does, or not at all (null): checked on the shapes it takes, on near misses, and on strings of
// the characters addressparser treats specially.
import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { plainMailbox } from '../../src/mail/read/extract-headers.ts';
import { FUZZ_SEED, fuzzTimeout, runs } from './fuzz-options.ts';

/** The fast path agrees with addressparser (same fields, same order) or declines. */
function agrees(value: string): boolean {
  const fast = plainMailbox(value);
  if (fast === null) return false;
  expect(JSON.stringify([fast]), value).toBe(JSON.stringify(addressparser(value, { flatten: true })));
  return true;
}

// atext, the specials, whitespace of every kind addressparser trims, controls and non-ASCII.
const CHARS = [
  ..."aZ09!#$%&'*+-/=?^_`{|}~.",
  ...'@<>"(),:;[]\\',
  ' ',
  ' ',
  '\t',
  '\r',
  '\n',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u0000',
  '\u007f',
  'é',
  '\u{1f600}',
];
const anyChars = fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 });
const atext = fc.string({ unit: fc.constantFrom(...[..."aZ09!#$%&'*+-/=?^_`{|}~."]), minLength: 1, maxLength: 6 });
// Mostly what the fast path takes, now and then something it must not.
const near = fc.oneof({ weight: 12, arbitrary: atext }, { weight: 1, arbitrary: anyChars.map((s) => s.slice(0, 3)) });
const words = (sep: fc.Arbitrary<string>) =>
  fc.array(fc.tuple(near, sep), { minLength: 1, maxLength: 3 }).map((ws) => ws.map(([w, s]) => w + s).join(''));
const space = fc.constantFrom(' ', ' ', ' ', ' ', ' ', ' ', '', '  ', '\t', ',', '\u00a0');
const spec = fc.tuple(near, fc.constantFrom('@', '@', '@', '@', '@', '@', '', '@@', ' @', '"@'), near).map(([l, at, d]) => `${l}${at}${d}`);
const shaped = fc.oneof(
  spec,
  fc
    .tuple(fc.constantFrom('<', '<', '<', '', '<<'), spec, fc.constantFrom('>', '>', '>', '', '>>', '> '))
    .map(([a, s, b]) => `${a}${s}${b}`),
  fc.tuple(words(space), space, spec).map(([n, s, a]) => `${n}${s}<${a}>`),
  fc.tuple(words(space), space, spec).map(([n, s, a]) => `"${n}"${s}<${a}>`),
  fc.tuple(fc.constantFrom(...CHARS), words(space), fc.constantFrom(...CHARS), spec).map(([a, n, b, s]) => `${a}${n}${b} <${s}>`),
);

describe('the plain-mailbox fast path', () => {
  it('reads the usual headers', () => {
    for (const v of [
      'a@b',
      '<a@b>',
      'Player 1 <player1@example.org>',
      '"Rossi, Mario" <m@x.it>',
      '=?UTF-8?B?TWFyaW8=?= <mario.rossi@gmail.com>',
      'orders+k7Q2-x9Pm@sf.example',
    ])
      expect(agrees(v), v).toBe(true);
    for (const v of ['a b', 'a@b, c@d', 'Mario  Rossi <a@b>', '"a\\"b" <a@b>', 'a@b (c)', 'José <a@b>', 'list: a@b;', '<a@b> ', '"" <a@b>'])
      expect(plainMailbox(v), v).toBeNull();
  });

  it('is linear on long headers that nearly take it (the test timeout is the hang guard)', () => {
    const n = 100_000;
    expect(plainMailbox(`${'a '.repeat(n)}<a@b`)).toBeNull();
    expect(plainMailbox(`"${'a, '.repeat(n)}a" <a@`)).toBeNull();
    expect(plainMailbox(`${'a'.repeat(n)}@${'b'.repeat(n)} `)).toBeNull();
    expect(plainMailbox(`${'a '.repeat(n)}<a@b>`)).toEqual({ address: 'a@b', name: `${'a '.repeat(n - 1)}a` });
  });

  it(
    'gives addressparser’s answer whenever it answers',
    () => {
      let answered = 0;
      const numRuns = runs(20_000);
      fc.assert(
        fc.property(fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: anyChars }), (value) => {
          if (agrees(value)) answered++;
        }),
        { seed: FUZZ_SEED, numRuns },
      );
      // The generator must reach the fast path often (a twentieth of the cases), or the property says little.
      expect(answered).toBeGreaterThan(numRuns / 20);
    },
    fuzzTimeout(60_000),
  );
});
