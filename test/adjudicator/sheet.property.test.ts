import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { classicMap } from '../../src/adjudicator/map.ts';
import { parseSheet } from '../../src/adjudicator/sheet.ts';
import type { ParsedSheet } from '../../src/adjudicator/types.ts';

const board = classicMap();

// Pieces a sheet is made of, plus the characters clients substitute and things that break parsers.
const fragments = [
  'B2',
  'b 2',
  'N9',
  'Z9',
  'J5',
  'B19',
  'B0',
  'C3',
  'M9',
  'A1234',
  '-',
  '=',
  '#',
  ' ',
  ',',
  ';',
  '.',
  ':',
  'H:',
  'V:',
  'E:',
  'Code:',
  'Ostilità:',
  'Sith',
  'Mercanti',
  'indipendenti',
  ' e ',
  ' and ',
  'Jedi',
  'Imperiali',
  'nessuno',
  'Pippo',
  '\n',
  '\r\n',
  '\r',
  '\u2013',
  '\u2014',
  '\u2212',
  '\uFF0D',
  '\u00A0',
  '\u200B',
  '\uFEFF',
  '\uFF1D',
  '\uFF03',
  '\uFF1A',
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\t',
  '• ',
  'Aristocràtici',
  '\u0301',
  '😀',
];
const sheetish = fc.array(fc.constantFrom(...fragments), { maxLength: 80 }).map((xs) => xs.join(''));
const loneSurrogates = fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) });
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  loneSurrogates,
  sheetish,
  fc.tuple(sheetish, loneSurrogates, fc.string({ unit: 'binary' })).map((xs) => xs.join('\n')),
);

/** What every parsed sheet must satisfy, whatever the input: the list of what is wrong, empty. */
function flaws(s: ParsedSheet, text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r\n|\n|\r/).length;
  const inRange = (n: number) => Number.isInteger(n) && n >= 1 && n <= lines;
  let last = 0;
  for (const o of s.orders) {
    if (!/^[A-Z]\d{1,3}([-=][A-Z]\d{1,3}|#([A-Z]\d{1,3})?)$/.test(o.canonical)) out.push(`canonical ${o.canonical}`);
    if (!inRange(o.line) || o.line < last) out.push(`order line ${o.line}`);
    last = o.line;
  }
  for (const p of [...s.problems, ...s.ignored, ...s.normalised]) {
    if (!inRange(p.line)) out.push(`problem line ${p.line}`);
    if (!p.message.it.startsWith(`Riga ${p.line}: `) || !p.message.en.startsWith(`Line ${p.line}: `)) out.push(`message ${p.code}`);
  }
  if (new Set(s.normalised.map((p) => p.code)).size !== s.normalised.length) out.push('normalised twice');
  if (new Set(s.hostility).size !== s.hostility.length) out.push('hostility twice');
  return out;
}

describe('parseSheet on arbitrary text', () => {
  it('R-ORD-8: never throws, and what it returns is well formed', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(flaws(parseSheet(text, board), text)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('R-EDICT-2: is deterministic (same text, same result, byte for byte)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(JSON.stringify(parseSheet(text, board))).toBe(JSON.stringify(parseSheet(text, board)));
      }),
      { numRuns: 500 },
    );
  });

  it('reads every valid order it is given, whatever the spacing and case', () => {
    const cell = fc.tuple(fc.constantFrom(...board.map.columns), fc.integer({ min: 1, max: board.rows })).map(([c, r]) => `${c}${r}`);
    const order = fc.oneof(
      fc
        .tuple(cell, fc.constantFrom('-', '=', '\u2013'), cell)
        .map(([a, op, b]) => ({ text: `${a} ${op} ${b}`, want: `${a}${op === '=' ? '=' : '-'}${b}` })),
      fc.tuple(cell, fc.option(cell, { nil: undefined })).map(([a, b]) => ({ text: `${a}#${b ?? ''}`, want: `${a}#${b ?? ''}` })),
    );
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 10 }), fc.boolean(), (orders, lower) => {
        const text = orders.map((o) => (lower ? o.text.toLowerCase() : o.text)).join(', ');
        const s = parseSheet(text, board);
        expect(s.problems).toEqual([]);
        expect(s.orders.map((o) => o.canonical)).toEqual(orders.map((o) => o.want));
      }),
    );
  });
});

// Speed is the benchmark's business (bench/); these only guard against a hang (a quadratic or
// backtracking blow-up would take minutes): the test's own timeout is the guard.
describe('parseSheet on huge input (MAIL.md: never a crash or a hang)', { timeout: 30_000 }, () => {
  it('reads 100,000 lines, each reported on its own line', () => {
    const lines: string[] = [];
    for (let i = 0; i < 100_000; i++) lines.push(['B2-C3', 'Ciao a tutti', 'H: Sith, Pippo', '\u2013 N9#', ''][i % 5]!);
    const s = parseSheet(lines.join('\n'), board);
    expect(s.orders).toHaveLength(40_000);
    expect(s.problems).toHaveLength(20_000);
    expect(s.ignored).toHaveLength(20_000);
    expect(s.orders[s.orders.length - 1]!.line).toBe(99_999);
  });

  it('reads single enormous lines without backtracking blow-ups', () => {
    const cases = [
      'B2-C3, '.repeat(50_000),
      'b'.repeat(500_000),
      'B2'.repeat(200_000),
      `H: ${'e '.repeat(200_000)}`,
      `H: ${'Mercanti '.repeat(100_000)}`,
      `V: ${'Sith, '.repeat(100_000)}`,
      '\u00A0\u2013'.repeat(200_000),
      `N9# ${'N9# '.repeat(100_000)}`,
      ' '.repeat(500_000) + 'x',
    ];
    for (const text of cases) {
      const s = parseSheet(text, board);
      expect(flaws(s, text), text.slice(0, 20)).toEqual([]);
    }
    expect(parseSheet(cases[0]!, board).orders).toHaveLength(50_000);
  });
});
