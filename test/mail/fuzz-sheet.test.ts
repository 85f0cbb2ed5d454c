// Fuzzing the sheet reader (quoted.ts) with the sheet parser behind it: grammar-built replies
// (new sheet, quoted history in the shapes clients write, signatures, footers) and mutated ones.
// Seeded and bounded in CI; FUZZ_RUNS=<n> runs as many as wanted (fuzz-options.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { parseSheet } from '../../src/adjudicator/sheet.ts';
import { looksLikeSheetLine, splitQuoted } from '../../src/mail/read/quoted.ts';
import { FUZZ_SEED, fuzzTimeout, runs } from './fuzz-options.ts';

const board = classicMap();
const COLS = 'ABCDEFGHILMNOPQRSTUVWXY'; // the board has no J and K
const cell = fc.tuple(fc.constantFrom(...COLS), fc.integer({ min: 1, max: 18 })).map(([c, r]) => `${c}${r}`);
const order = fc.oneof(
  fc.tuple(cell, fc.constantFrom('-', '=', ' - ', '–'), cell).map(([a, op, b]) => `${a}${op}${b}`),
  fc.constantFrom('N9#', 'O10#', 'N9#M9'),
);
const faction = fc.constantFrom('Sith', 'Hutt', 'Mercanti', 'Cavalieri', 'Aristocratici', 'Corelliani', 'Federali');
const hostility = fc.array(faction, { minLength: 1, maxLength: 3 }).map((fs) => `H: ${fs.join(', ')}`);
const sheetLine = fc.oneof({ weight: 4, arbitrary: order }, { weight: 1, arbitrary: hostility });
const sheet = fc.array(sheetLine, { minLength: 1, maxLength: 12 });
const chatter = fc.constantFrom('Ciao,', 'ecco i miei ordini', 'Thanks!', 'Mario', '', 'Grazie, a presto');

// Attributions and separators as clients write them, each followed by the history they introduce.
const history = fc.tuple(
  fc.constantFrom(
    { head: ['On Mon, 3 Mar 2025 at 09:00, Starts Foundation <orders@sf.example> wrote:'], marked: true },
    { head: ['Il giorno lun 3 mar 2025 alle ore 09:00 Starts Foundation <', 'orders@sf.example> ha scritto:'], marked: true },
    { head: ['Il 03/03/25 09:00, Starts Foundation ha scritto:'], marked: true },
    { head: ['Am 03.03.2025 um 09:00 schrieb Starts Foundation <orders@sf.example>:'], marked: true },
    { head: ['In data 3 marzo 2025 09:00:00 "Starts Foundation" <orders@sf.example> ha scritto:'], marked: false },
    {
      head: [
        '-----Messaggio originale-----',
        'Da: Starts Foundation <orders@sf.example>',
        'Inviato: lunedì 3 marzo 2025 09:00',
        'A: Mario',
        'Oggetto: turno 4',
      ],
      marked: false,
    },
    {
      head: ['________________________________', 'From: Starts Foundation <orders@sf.example>', 'Sent: Monday, 3 March 2025 09:00'],
      marked: false,
    },
    {
      head: ['________________________________', 'Date: Mon, 3 Mar 2025 09:00', 'Subject: turno 4', 'From: orders@sf.example'],
      marked: false,
    },
    { head: ['---- On Mon, 03 Mar 2025 09:00:00 +0000 orders@sf.example wrote ----'], marked: false },
    { head: ['---------- Forwarded message ---------', 'From: Starts Foundation <orders@sf.example>'], marked: false },
  ),
  sheet,
);
const tail = fc.constantFrom([], ['-- ', 'Mario Rossi', 'B1-C1 (the sig)'], ['Inviato da iPhone'], ['Sent from my Galaxy']);

describe('fuzz: sheet text', () => {
  it(
    'a reply is read as its new sheet: quoted history, signatures and footers never become orders',
    () => {
      fc.assert(
        fc.property(fc.array(chatter, { maxLength: 2 }), sheet, history, tail, fc.boolean(), (hello, mine, [h, old], sig, bottom) => {
          const quoted = [...h.head, '', ...old.map((l) => (h.marked ? `> ${l}` : l))];
          const lines =
            bottom && h.marked ? [...hello, ...quoted, '', ...mine, '', ...sig] : [...hello, ...mine, '', ...sig, '', ...quoted];
          const read = parseSheet(splitQuoted(lines.join('\n')).text, board);
          const wanted = parseSheet(mine.join('\n'), board);
          expect(read.orders.map((o) => o.canonical)).toEqual(wanted.orders.map((o) => o.canonical));
          expect(read.hostility).toEqual(wanted.hostility);
        }),
        { seed: FUZZ_SEED, numRuns: runs(300) },
      );
    },
    fuzzTimeout(30_000),
  );

  it(
    'a bare sheet is kept whole, and every line the reader keeps is a line of the input, in order',
    () => {
      fc.assert(
        fc.property(sheet, (mine) => {
          const text = mine.join('\n');
          expect(splitQuoted(text).text).toBe(text);
          expect(mine.every(looksLikeSheetLine)).toBe(true);
        }),
        { seed: FUZZ_SEED, numRuns: runs(300) },
      );
    },
    fuzzTimeout(30_000),
  );

  // Mutations: pieces of the grammar and hostile characters spliced anywhere.
  const noise = fc.constantFrom(
    '>',
    '> ',
    ':',
    '-- ',
    '--',
    '\t',
    '\u00a0',
    '\u202e',
    '\u0000',
    '\r',
    '\n',
    ' '.repeat(300),
    'wrote:',
    'ha scritto:',
    'Da:',
    'From: x',
    '____________',
    '<',
    '=',
    '#',
  );
  it(
    'never throws, never invents a line, and the parser takes whatever it leaves',
    () => {
      fc.assert(
        fc.property(sheet, history, fc.array(fc.tuple(fc.nat(), noise), { maxLength: 8 }), (mine, [h, old], cuts) => {
          let text = [...mine, '', ...h.head, ...old.map((l) => `> ${l}`)].join('\n');
          for (const [at, piece] of cuts) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + piece + text.slice(i);
          }
          const { text: kept } = splitQuoted(text);
          const input = text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
          let from = 0;
          for (const line of kept === '' ? [] : kept.split('\n')) {
            const at = input.indexOf(line, from);
            expect(at, `invented line ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
            from = at + 1;
          }
          const parsed = parseSheet(kept, board);
          for (const p of parsed.problems) expect(p.message.en.length * p.message.it.length).toBeGreaterThan(0);
        }),
        { seed: FUZZ_SEED, numRuns: runs(300) },
      );
    },
    fuzzTimeout(30_000),
  );
});
