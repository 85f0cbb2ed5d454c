import { describe, it, expect } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { parseSheet } from '../../src/adjudicator/sheet.ts';

const board = classicMap();
const parse = (text: string) => parseSheet(text, board);
const canon = (text: string) => parse(text).orders.map((o) => o.canonical);
const codes = (text: string) => parse(text).problems.map((p) => p.code);

describe('orders (R-ORD-2)', () => {
  it("R-ORD-2: the rulebook's valid examples parse as move, jump and politics", () => {
    expect(parse('B2-C3\nB2=F6\nN9#').orders).toEqual([
      { kind: 'move', from: 'B2', to: 'C3', line: 1, canonical: 'B2-C3' },
      { kind: 'jump', from: 'B2', to: 'F6', line: 2, canonical: 'B2=F6' },
      { kind: 'politics', from: 'N9', to: null, line: 3, canonical: 'N9#' },
    ]);
  });

  it("R-ORD-7: the rulebook's wrong examples are still orders: their invalidity is the engine's", () => {
    const s = parse('B2-C4\nB2=G7\nM9#');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C4', 'B2=G7', 'M9#']);
    expect(s.problems).toEqual([]);
  });

  it('R-ORD-2/R-POL-2: N9#M9 is politics with a troop placement', () => {
    expect(parse('N9#M9').orders).toEqual([{ kind: 'politics', from: 'N9', to: 'M9', line: 1, canonical: 'N9#M9' }]);
    expect(parse('n9 # m9').orders[0]!.to).toBe('M9');
  });

  it('R-BOARD-1/R-ORD-2: spaces around symbols and inside cells, any case, leading zeros', () => {
    expect(canon('b 2 - c 3\nB2 = F6\nn9 #\n  a02-B03  ')).toEqual(['B2-C3', 'B2=F6', 'N9#', 'A2-B3']);
  });

  it('R-ORD-2: several orders on a line, with commas, semicolons or spaces, share its number', () => {
    const s = parse('\nB2-C3, A2-B3; B1=F5 N9#');
    expect(s.orders.map((o) => [o.canonical, o.line])).toEqual([
      ['B2-C3', 2],
      ['A2-B3', 2],
      ['B1=F5', 2],
      ['N9#', 2],
    ]);
  });

  it('R-ORD-2: N9# followed by another order is politics without placement', () => {
    expect(canon('N9# M9-M10')).toEqual(['N9#', 'M9-M10']);
    expect(canon('N9#, O9#M8')).toEqual(['N9#', 'O9#M8']);
  });

  it('R-ORD-2: an optional trailing full stop or comma', () => {
    expect(canon('B2-C3.\nA2-B3,\nN9#.')).toEqual(['B2-C3', 'A2-B3', 'N9#']);
  });

  it('R-ORD-9: one trailing `.` `,` or `;` is ignored on every kind of line', () => {
    expect(canon('B2-C3;\nA2-B3,\nN9#.')).toEqual(['B2-C3', 'A2-B3', 'N9#']);
    expect(parse('V: Hutt;').vote?.side).toBe('hutt');
    expect(parse('V: Sith,').vote?.side).toBe('sith');
    expect(parse('Voto: Sith .').vote?.side).toBe('sith');
    expect(parse('H: Sith, Hutt;').hostility).toEqual(['sith', 'hutt']);
    expect(parse('H: Sith,').problems).toEqual([]);
    expect(parse('Ostilità: Sith;').hostility).toEqual(['sith']);
    expect(parse('E: O10;').eliminate?.cell).toBe('O10');
    for (const line of ['V: Hutt;', 'H: Sith,', 'E: O10.', 'B2-C3;']) expect(parse(line).problems, line).toEqual([]);
  });

  it('R-ORD-9: a punctuation mark inside the line is still read as written', () => {
    expect(parse('V: Hutt; Sith').vote).toBeNull();
    expect(parse('V: Hutt; Sith').problems.map((p) => p.code)).toEqual(['vote-several']);
  });

  it('R-ORD-5: every order is kept in the order written, duplicates included', () => {
    expect(canon('B2-C3\nA2-B3\nB2=F6\nB2-C3')).toEqual(['B2-C3', 'A2-B3', 'B2=F6', 'B2-C3']);
  });

  it('D-PARSE: a list bullet in front of a line is not part of it', () => {
    expect(canon('- B2-C3\n* A2-B3\n• N9#')).toEqual(['B2-C3', 'A2-B3', 'N9#']);
    expect(parse('• H: Sith').hostility).toEqual(['sith']);
  });
});

describe('off the board (R-ORD-7)', () => {
  it('R-ORD-7: an off-board cell is still an order, and reported', () => {
    const s = parse('B2-C3\nZ9-J5\nB19=B0\nN9#Z9');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3', 'Z9-J5', 'B19=B0', 'N9#Z9']);
    expect(s.problems.map((p) => [p.code, p.rule, p.line])).toEqual([
      ['off-board', 'R-ORD-7', 2],
      ['off-board', 'R-ORD-7', 3],
      ['off-board', 'R-ORD-7', 4],
    ]);
    expect(s.problems[0]!.message.en).toContain('Z9 and J5 are not on the board');
    expect(s.problems[0]!.message.it).toContain('Z9 e J5 non sono sulla plancia');
    expect(s.problems[2]!.message.en).toMatch(/^Line 4: Z9 is not on the board .*N9#Z9/);
  });

  it('R-ORD-5: the last order for a unit is kept even when off the board', () => {
    expect(canon('B2-C3\nB2-B0')).toEqual(['B2-C3', 'B2-B0']);
  });

  it('R-BOARD-1: J and K are not columns, row 18 is the last', () => {
    expect(codes('K3-L3')).toEqual(['off-board']);
    expect(codes('Y18-X17')).toEqual([]);
  });
});

describe('not understood (R-ORD-8)', () => {
  const lines = [
    'B2 to C3',
    'B2>C3',
    'B2-',
    '#N9',
    'B2-C3 please',
    'B2-C3 A2',
    'B1234-C3',
    'B2-C34 5',
    'B2-C3A2-B3',
    'N9#M9-M10',
    'B2 is mine',
    'Voto Hutt',
    'H Sith',
  ];
  for (const line of lines)
    it(`R-ORD-8: '${line}' is reported with its text, never guessed`, () => {
      const s = parse(`B1-C1\n${line}\nA2-B3`);
      expect(s.orders.map((o) => o.canonical)).toEqual(['B1-C1', 'A2-B3']);
      expect(s.problems).toHaveLength(1);
      expect(s.problems[0]).toMatchObject({ line: 2, code: 'not-understood', rule: 'R-ORD-8', text: line });
      expect(s.problems[0]!.message.it).toContain(`Riga 2: '${line}' non è un ordine che capisco`);
      expect(s.problems[0]!.message.en).toContain(`Line 2: '${line}' is not an order I understand`);
    });

  it('R-ORD-8: an order followed by chatter is not half-read, and the message says why', () => {
    const s = parse('B2-C3 please');
    expect(s.orders).toEqual([]);
    expect(s.problems[0]!.message.en).toContain('put comments on a line of their own');
  });

  it('a very long line is quoted short in the message but kept whole in text', () => {
    const line = `B2 ${'x'.repeat(5000)}`;
    const p = parse(line).problems[0]!;
    expect(p.text).toBe(line);
    expect(p.message.en.length).toBeLessThan(400);
  });
});

describe('text that is not orders (D-PARSE-16)', () => {
  // Greetings, thanks, names, sign-offs, phone numbers and addresses: no cell, no keyword.
  const text = [
    'Ciao a tutti,',
    'Ciao Cancelleria,',
    'Grazie!',
    'Grazie mille,',
    'Cheers!',
    'Bob',
    'Anna Rossi',
    'Saluti',
    'Saluti, Marco',
    'Best regards,',
    'Thanks a lot',
    'Milano',
    'Via Roma 12, Milano',
    '20121 Milano (MI)',
    'cell. +39 333 555 0101',
    'Tel: 02 1234 5678',
    'London SW1A 1AA',
    'E poi vediamo',
    'È stato un piacere',
    'ci vediamo a 5 minuti da casa',
    '----',
    '====',
  ];
  for (const line of text)
    it(`'${line}' is text: ignored and noted for its writer, never a problem`, () => {
      const s = parse(`B1-C1\n${line}\nA2-B3`);
      expect(s.orders.map((o) => o.canonical)).toEqual(['B1-C1', 'A2-B3']);
      expect(s.problems).toEqual([]);
      expect(s.ignored).toHaveLength(1);
      expect(s.ignored[0]).toMatchObject({ line: 2, code: 'text-ignored' });
      expect(s.ignored[0]!.message.it).toContain(`Riga 2: '${line}': testo ignorato`);
      expect(s.ignored[0]!.message.en).toContain(`Line 2: '${line}': text ignored`);
    });

  // A cell or a keyword makes a line an attempt at an order: a problem (R-ORD-8).
  const shaped = [
    'B2 is mine',
    'Apt. B2',
    'b2 please',
    'Voto Hutt',
    'Vote: for Hutt please',
    'Ostilità Sith',
    'H Sith',
    'V Hutt',
    'V=Hutt',
    'E',
    'x2',
  ];
  for (const line of shaped)
    it(`R-ORD-8: '${line}' has an order's shape: a problem, not text`, () => {
      const s = parse(line);
      expect(s.ignored).toEqual([]);
      expect(s.problems.map((p) => p.code)).not.toEqual([]);
    });

  it('a signature block without "-- " under the orders: every line text, the sheet without problems', () => {
    const s = parse('Ciao a tutti,\nV: Hutt\nB2-C3\nGrazie!\nAnna Rossi\ncell. +39 333 555 0101\nVia Roma 12, Milano');
    expect(s.vote).toEqual({ side: 'hutt', line: 2 });
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3']);
    expect(s.problems).toEqual([]);
    expect(s.ignored.map((p) => p.line)).toEqual([1, 4, 5, 6, 7]);
  });

  it('characters replaced in text that is not orders are not noted', () => {
    expect(parse('Ciao \u2014 Anna\u00A0Rossi\nB2-C3').normalised).toEqual([]);
    expect(parse('Ciao\nB2 \u2013 C3').normalised.map((n) => n.code)).toEqual(['normalised-dash']);
  });

  it('an order followed by words stays a problem, whatever the words (R-ORD-8)', () => {
    expect(parse('B2-C3 grazie').problems.map((p) => p.code)).toEqual(['not-understood']);
  });
});

describe('hostility (R-ORD-1)', () => {
  it('R-ORD-1: no H: line means hostile to nobody, not declared', () => {
    expect(parse('B2-C3')).toMatchObject({ hostility: [], hostilityDeclared: false });
  });

  it('R-ORD-1: H: names in Italian and English, singular or plural, any case, accents ignored', () => {
    expect(parse('H: Mercanti, cavalieri').hostility).toEqual(['merchants', 'knights']);
    expect(parse('h: SITH; hutts / Aristocràtici & federal').hostility).toEqual(['sith', 'hutt', 'aristocrats', 'federals']);
    expect(parse('H :  Fondatori   e  Jedi and Corellian').hostility).toEqual(['founders', 'knights', 'corellians']);
  });

  it('R-ORD-1: Mercanti indipendenti / Independent Traders are the Corellians, Mercanti the Merchants', () => {
    expect(parse('H: Mercanti indipendenti').hostility).toEqual(['corellians']);
    expect(parse('H: Independent Traders and Merchants').hostility).toEqual(['corellians', 'merchants']);
    expect(parse('H: Mercanti').hostility).toEqual(['merchants']);
  });

  it('R-ORD-1: Imperiali / Imperial name the Imperial Troops; self-naming is left to the engine', () => {
    expect(parse('H: Imperiali, Hutt').hostility).toEqual(['imperial', 'hutt']);
    expect(parse('H: Imperial').hostility).toEqual(['imperial']);
  });

  it('R-ORD-1: several H: lines add up, deduplicated, in first-written order', () => {
    expect(parse('H: Sith, Hutt\nB2-C3\nH: hutt, Jedi, Sith').hostility).toEqual(['sith', 'hutt', 'knights']);
  });

  it('R-ORD-1: an unknown name is reported with its line and the rest applied', () => {
    const s = parse('B2-C3\nH: Sith, Pippo, Hutt');
    expect(s.hostility).toEqual(['sith', 'hutt']);
    expect(s.problems).toEqual([
      expect.objectContaining({ line: 2, code: 'unknown-faction', rule: 'R-ORD-1', text: 'H: Sith, Pippo, Hutt' }),
    ]);
    expect(s.problems[0]!.message.it).toContain("Riga 2: non conosco la fazione 'Pippo'");
    expect(s.problems[0]!.message.en).toContain("Line 2: I don't know the faction 'Pippo'");
  });

  it('R-ORD-1: H: with nothing, nessuno, none or - is hostile to nobody, declared', () => {
    for (const text of ['H:', 'H: nessuno', 'H: none', 'H: -', 'H: –', 'h :']) {
      const s = parse(text);
      expect(s, text).toMatchObject({ hostility: [], hostilityDeclared: true, problems: [] });
    }
  });

  it('R-ORD-1: Italian and English keywords Ostili: / Ostilità: / Hostile:', () => {
    expect(parse('Ostili: Sith').hostility).toEqual(['sith']);
    expect(parse('Ostilità: Hutt').hostility).toEqual(['hutt']);
    expect(parse('HOSTILE: Jedi').hostility).toEqual(['knights']);
  });
});

describe('vote (R-ORD-3)', () => {
  it('R-ORD-3: V: names a faction; the last V: wins', () => {
    expect(parse('V: Sith').vote).toEqual({ side: 'sith', line: 1 });
    expect(parse('V: Sith\nVoto: Mercanti indipendenti').vote).toEqual({ side: 'corellians', line: 2 });
    expect(parse('Vote: jedi').vote).toEqual({ side: 'knights', line: 1 });
  });

  it('R-ORD-3: a vote for Imperiali casts nothing and is reported', () => {
    const s = parse('V: Imperiali');
    expect(s.vote).toBeNull();
    expect(s.problems).toEqual([expect.objectContaining({ line: 1, code: 'vote-imperial', rule: 'R-ORD-3' })]);
  });

  it('R-ORD-3: an unknown name casts nothing and is reported', () => {
    const s = parse('V: Pippo');
    expect(s.vote).toBeNull();
    expect(s.problems).toEqual([expect.objectContaining({ code: 'unknown-faction', rule: 'R-ORD-3' })]);
    expect(s.problems[0]!.message.en).toContain('casts no vote');
  });

  it('D-PARSE: a later V: that casts nothing cancels an earlier valid one (the last V: wins)', () => {
    expect(parse('V: Sith\nV: Imperiali').vote).toBeNull();
    expect(parse('V: Sith\nV: Pippo').vote).toBeNull();
    expect(parse('V: Pippo\nV: Sith').vote).toEqual({ side: 'sith', line: 2 });
  });

  it('D-PARSE: V: nessuno abstains silently; V: alone and V: with two names are reported', () => {
    expect(parse('V: Sith\nV: nessuno')).toMatchObject({ vote: null, problems: [] });
    expect(codes('V:')).toEqual(['vote-empty']);
    expect(codes('V: Sith, Hutt')).toEqual(['vote-several']);
    expect(parse('V: Sith, Hutt').vote).toBeNull();
  });
});

describe('eliminate (R-ORD-4)', () => {
  it('R-ORD-4: E: names a cell, canonical; the last E: wins', () => {
    expect(parse('E: n 9').eliminate).toEqual({ cell: 'N9', line: 1 });
    expect(parse('E: N9\nElimina: o10').eliminate).toEqual({ cell: 'O10', line: 2 });
    expect(parse('Eliminate: N10.').eliminate).toEqual({ cell: 'N10', line: 1 });
  });

  it('R-ORD-4: a non-cell is a problem, and as the last E: it leaves no choice', () => {
    const s = parse('E: N9\nE: the Sith one');
    expect(s.eliminate).toBeNull();
    expect(s.problems).toEqual([expect.objectContaining({ line: 2, code: 'eliminate-not-cell', rule: 'R-ORD-4' })]);
  });

  it('R-ORD-4: an off-board E: is kept and reported', () => {
    const s = parse('E: Z9');
    expect(s.eliminate).toEqual({ cell: 'Z9', line: 1 });
    expect(s.problems.map((p) => p.code)).toEqual(['off-board']);
  });

  it('D-PARSE: E: nessuno withdraws the choice without a problem', () => {
    expect(parse('E: N9\nE: nessuno')).toMatchObject({ eliminate: null, problems: [] });
  });
});

describe('lines and characters (MAIL.md)', () => {
  it('splits on CRLF, LF and CR; numbers lines from 1; skips blank lines', () => {
    const s = parse('B2-C3\r\n\r\nA2-B3\rB1-C1\n   \nhello\nC2 C3');
    expect(s.orders.map((o) => o.line)).toEqual([1, 3, 4]);
    expect(s.ignored.map((p) => p.line)).toEqual([6]);
    expect(s.problems.map((p) => p.line)).toEqual([7]);
  });

  it('ignores a leading byte order mark, without a note', () => {
    const s = parse('\uFEFFB2-C3');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3']);
    expect(s.normalised).toEqual([]);
  });

  const dashes = ['\u2013', '\u2014', '\u2212', '\uFF0D', '\u2010', '\u2011', '\u2012', '\uFE63'];
  for (const d of dashes)
    it(`R-ORD-2: reads U+${d.charCodeAt(0).toString(16).toUpperCase()} as a move and says so`, () => {
      const s = parse(`A2-B3\nB2${d}C3`);
      expect(s.orders.map((o) => o.canonical)).toEqual(['A2-B3', 'B2-C3']);
      expect(s.normalised).toEqual([expect.objectContaining({ line: 2, code: 'normalised-dash', rule: 'R-ORD-2' })]);
      expect(s.normalised[0]!.message.en).toBe(`Line 2: read '${d}' as '-' (here and in the rest of the sheet).`);
      expect(s.normalised[0]!.message.it).toContain(`ho letto '${d}' come '-'`);
    });

  it('R-ORD-2: reads an en dash as a move; one note per kind, at its first line', () => {
    const s = parse('B2–C3\nA2—B3\nB1–C1');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3', 'A2-B3', 'B1-C1']);
    expect(s.normalised).toHaveLength(1);
    expect(s.normalised[0]!.line).toBe(1);
    expect(s.normalised[0]!.message.en).toContain("'–' as '-', '—' as '-'");
  });

  it('R-ORD-2: full-width ＝ ＃ ： read as = # :', () => {
    const s = parse('B2＝F6\nN9＃\nH： Sith');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2=F6', 'N9#']);
    expect(s.hostility).toEqual(['sith']);
    expect(s.normalised.map((n) => [n.code, n.line])).toEqual([['normalised-symbol', 1]]);
    expect(s.normalised[0]!.message.en).toContain("'＝' as '=', '＃' as '#', '：' as ':'");
  });

  it('no-break and other Unicode spaces read as spaces; invisible characters removed; both noted', () => {
    const s = parse('B2\u00A0-\u2003C3\nA2-\u200BB3\u2060\nH:\u3000Sith,\u202FHutt\u205F');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3', 'A2-B3']);
    expect(s.hostility).toEqual(['sith', 'hutt']);
    expect(s.normalised.map((n) => [n.code, n.line])).toEqual([
      ['normalised-space', 1],
      ['normalised-zero-width', 2],
    ]);
    expect(s.normalised[0]!.message.en).toContain('U+00A0, U+2003, U+3000, U+202F, U+205F');
    expect(s.normalised[1]!.message.it).toContain('caratteri invisibili (U+200B, U+2060)');
  });

  it('D-PARSE: tabs are plain whitespace, not noted', () => {
    const s = parse('B2\t-\tC3');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3']);
    expect(s.normalised).toEqual([]);
  });

  it('MAIL.md: a Code: line is neither an order nor a problem, in any case', () => {
    const s = parse('Code: k7Q2-x9Pm\nCODE : B2-C3\ncode:\u00A0a1-b2\nB2-C3');
    expect(s.orders.map((o) => o.canonical)).toEqual(['B2-C3']);
    expect(s.problems).toEqual([]);
    expect(s.normalised).toEqual([]);
  });

  it('R-TURN-5: an empty sheet is empty, not an error', () => {
    expect(parse('')).toEqual({
      hostility: [],
      hostilityLines: [],
      hostilityDeclared: false,
      orders: [],
      vote: null,
      eliminate: null,
      problems: [],
      ignored: [],
      normalised: [],
    });
  });

  it('a whole sheet, as a player writes it', () => {
    const s = parse(
      [
        'Ciao Cancelliere,',
        '',
        'H: Mercanti, Cavalieri',
        'B2 – C3',
        'A2=E6.',
        'N9#',
        'V: Aristocratici',
        'Grazie!',
        'Code: k7Q2-x9Pm',
      ].join('\r\n'),
    );
    expect(s.hostility).toEqual(['merchants', 'knights']);
    expect(s.orders.map((o) => [o.canonical, o.line])).toEqual([
      ['B2-C3', 4],
      ['A2=E6', 5],
      ['N9#', 6],
    ]);
    expect(s.vote).toEqual({ side: 'aristocrats', line: 7 });
    expect(s.problems).toEqual([]);
    expect(s.ignored.map((p) => [p.code, p.line])).toEqual([
      ['text-ignored', 1],
      ['text-ignored', 8],
    ]);
    expect(s.normalised.map((n) => n.code)).toEqual(['normalised-dash']);
  });
});

describe('where each hostility was named', () => {
  it('R-ORD-1: keeps the line on which each side was first named, for replies that point at it', () => {
    const s = parse('B2-C3\nH: Sith, Hutt\nH: Sith, Mercanti\n');
    expect(s.hostility).toEqual(['sith', 'hutt', 'merchants']);
    expect(s.hostilityLines).toEqual([2, 2, 3]);
  });
});
