// Reading press and disputes out of a player's mail (docs/press.md, R-TURN-2 steps 1 and 5): pure.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { parseSheet } from '../../../src/adjudicator/sheet.ts';
import {
  MAX_BLOCKS,
  MAX_PROBLEMS,
  pressFactions,
  readPress,
  readPressReply,
  refereeReplyText,
} from '../../../src/games/press/read-press.ts';

const factions = pressFactions(classicMap().map);
const read = (text: string) => readPress(text, { factions });

describe('readPress: who a message goes to', () => {
  it('reads private, group, broadcast and referee messages in English and Italian, any case', () => {
    const r = read(
      [
        'PRESS TO Sith, Hutt',
        'Let us share the Capital.',
        'ENDPRESS',
        'stampa a Mercanti indipendenti e cavalieri jedi',
        'Alleanza?',
        'fine',
        'BROADCAST',
        'Peace to all.',
        'END PRESS',
        'A TUTTI',
        'Pace!',
        'Fine stampa',
        'Stampa all’arbitro',
        'Sarò via lunedì.',
        'FINE',
        'press to the referee',
        'Thanks.',
        'endpress',
        'Agli arbitri:',
        'Grazie.',
      ].join('\n'),
    );
    expect(r.problems).toEqual([]);
    expect(r.press.map((p) => p.audience)).toEqual([
      { kind: 'factions', factions: ['sith', 'hutt'] },
      { kind: 'factions', factions: ['corellians', 'knights'] },
      { kind: 'all' },
      { kind: 'all' },
      { kind: 'referee' },
      { kind: 'referee' },
      { kind: 'referee' },
    ]);
    expect(r.press.map((p) => p.text)).toEqual([
      'Let us share the Capital.',
      'Alleanza?',
      'Peace to all.',
      'Pace!',
      'Sarò via lunedì.',
      'Thanks.',
      'Grazie.',
    ]);
    expect(r.hasSheet).toBe(false);
  });

  it('takes SIGNED / ANONYMOUS (FIRMATO / ANONIMO) before or after the audience, and says when neither is written', () => {
    const r = read(
      [
        'PRESS ANONYMOUS TO Sith',
        'a',
        'ENDPRESS',
        'STAMPA A Hutt ANONIMO',
        'b',
        'FINE',
        'A TUTTI FIRMATO',
        'c',
        'FINE',
        'PRESS TO Hutt',
        'd',
      ].join('\n'),
    );
    expect(r.press.map((p) => p.sign)).toEqual(['anonymous', 'anonymous', 'signed', null]);
  });

  it('names each faction once, by any of its names, ids included', () => {
    const r = read('PRESS TO sith, Siths; hutt / Aristocràtici & merchants + founders and federals\nhi');
    expect(r.press[0]!.audience).toEqual({
      kind: 'factions',
      factions: ['sith', 'hutt', 'aristocrats', 'merchants', 'founders', 'federals'],
    });
  });
});

describe('readPress: the sheet part', () => {
  it('leaves the sheet where it was, same line numbers, and the sheet reader reads it as before', () => {
    const text = ['H: Sith', 'PRESS TO Hutt', 'B2-C3 is what I will do', 'ENDPRESS', 'B2-C3', 'STATUS'].join('\n');
    const r = read(text);
    expect(r.sheetText.split('\n')).toEqual(['H: Sith', '', '', '', 'B2-C3', 'STATUS']);
    expect(r.hasSheet).toBe(true);
    const sheet = parseSheet(r.sheetText, classicMap());
    expect(sheet.orders.map((o) => o.line)).toEqual([5]);
    // The press text, though order-shaped, is the message's and never an order.
    expect(r.press[0]!.text).toBe('B2-C3 is what I will do');
  });

  it('ends a message at the end of the mail when no end line is written, and reports the lines of each block', () => {
    const r = read('B2-C3\n\nPRESS TO Sith\n\n  Hello there  \n\n');
    expect(r.press[0]).toMatchObject({ text: '  Hello there', lines: { header: 3, first: 5, last: 5, end: null } });
  });

  it('does not relay, nor read as orders, a message left open above order-shaped lines', () => {
    const r = read(['PRESS TO Sith', 'Our deal stands.', 'B2-C3', 'H: Hutt'].join('\n'));
    expect(r.press).toEqual([]);
    expect(r.problems).toEqual([{ code: 'unterminated', line: 3 }]);
    expect(r.hasSheet).toBe(false);
    expect(r.sheetText.trim()).toBe('');
  });

  it('ends an open message at the next complete header, so that the second never goes to the first one’s readers', () => {
    const r = read(['PRESS TO Sith', 'to Sith', 'PRESS TO Hutt', 'to Hutt', 'ENDPRESS'].join('\n'));
    expect(r.press.map((p) => [p.audience, p.text, p.lines.end])).toEqual([
      [{ kind: 'factions', factions: ['sith'] }, 'to Sith', null],
      [{ kind: 'factions', factions: ['hutt'] }, 'to Hutt', 5],
    ]);
  });

  // D-PRESS-39: `Fine.` is an English sentence, `FINE` the Italian end word.
  it.each(['Fine.', 'Fine', 'fine', 'fine:', ' Fine. '])('in a message begun in English, %j is text, not its end', (fine) => {
    const r = read(['PRESS TO Sith', 'You want a truce?', fine, 'Then leave I8 alone.', 'ENDPRESS', 'B2-C3'].join('\n'));
    expect(r.problems).toEqual([]);
    expect(r.press.map((p) => [p.text, p.lines.end])).toEqual([[`You want a truce?\n${fine.trimEnd()}\nThen leave I8 alone.`, 5]]);
    expect(r.sheetText.split('\n')[5]).toBe('B2-C3');
  });

  it.each(['FINE', 'FINE.', 'Fine stampa', 'ENDPRESS', 'End.'])('a message begun in English still ends at %j', (end) => {
    const r = read(['BROADCAST', 'Peace.', end, 'B2-C3'].join('\n'));
    expect(r.press.map((p) => [p.text, p.lines.end])).toEqual([['Peace.', 3]]);
    expect(r.sheetText.split('\n')[3]).toBe('B2-C3');
  });

  it('an English message left open by `Fine.` above orders is refused as unterminated, never cut short', () => {
    const r = read(['PRESS TO Sith', 'Truce?', 'Fine.', 'B2-C3'].join('\n'));
    expect(r.press).toEqual([]);
    expect(r.problems).toEqual([{ code: 'unterminated', line: 4 }]);
  });

  it('an English dispute keeps a `Fine.` line as part of its reason', () => {
    const r = read(['DISPUTE: I8 should have advanced.', 'Fine.', 'Then L8 is mine.', 'ENDPRESS'].join('\n'));
    expect(r.disputes.map((d) => d.text)).toEqual(['I8 should have advanced.\nFine.\nThen L8 is mine.']);
  });

  it.each(['FINE', 'Fine', 'fine', 'Fine.', 'FINE:'])('in a message begun in Italian, %j is its end', (fine) => {
    for (const header of ['STAMPA A Sith', 'A TUTTI', "STAMPA ALL'ARBITRO"]) {
      const r = read([header, 'Tregua?', fine, 'B2-C3'].join('\n'));
      expect(r.press.map((p) => [p.text, p.lines.end])).toEqual([['Tregua?', 3]]);
      expect(r.sheetText.split('\n')[3]).toBe('B2-C3');
    }
    const d = read(['CONTESTA: I8 doveva avanzare', fine, 'B2-C3'].join('\n'));
    expect(d.disputes.map((x) => [x.text, x.lines.end])).toEqual([['I8 doveva avanzare', 2]]);
  });

  it('reads CRLF mail the same', () => {
    const r = read('PRESS TO Sith\r\nhi\r\nFINE\r\nB2-C3\r\n');
    expect(r.press.map((p) => p.text)).toEqual(['hi']);
    expect(r.sheetText.split('\n')[3]).toBe('B2-C3');
  });

  it('takes any line opening with PRESS / STAMPA as a header: faulty, it swallows what follows rather than read a message as orders', () => {
    const r = read('Press on, friends!\nB2-C3');
    expect(r.problems).toEqual([{ code: 'unknown-keyword', line: 1, text: 'on, friends!' }]);
    expect(r.hasSheet).toBe(false);
  });

  it('keeps chatter that merely starts like a header as text', () => {
    const r = read('A tutti buona fortuna!\nB2-C3');
    expect(r.press).toEqual([]);
    expect(r.sheetText).toBe('A tutti buona fortuna!\nB2-C3');
  });
});

describe('readPress: problems', () => {
  it('reports unknown keywords and factions, a missing or mixed audience, both signs, empty text and a stray end', () => {
    const r = read(
      [
        'PRESS FAKE TO Sith', // 1
        'x', // 2
        'ENDPRESS', // 3
        'STAMPA A Sith, Ewoks', // 4
        'y', // 5
        'FINE', // 6
        'PRESS', // 7
        'z', // 8
        'FINE', // 9
        'PRESS TO Sith, REFEREE', // 10
        'w', // 11
        'FINE', // 12
        'PRESS SIGNED ANONYMOUS TO Hutt', // 13
        'v', // 14
        'FINE', // 15
        'PRESS TO Hutt', // 16
        '', // 17
        'FINE', // 18
        'ENDPRESS', // 19
      ].join('\n'),
    );
    expect(r.press).toEqual([]);
    expect(r.problems).toEqual([
      { code: 'unknown-keyword', line: 1, text: 'fake to sith' },
      { code: 'unknown-faction', line: 4, text: 'ewoks' },
      { code: 'no-audience', line: 7 },
      { code: 'mixed-audience', line: 10 },
      { code: 'both-signs', line: 13 },
      { code: 'empty', line: 16 },
      { code: 'stray-end', line: 19 },
    ]);
    // A faulty block's text goes nowhere: neither relayed nor read as the sheet.
    expect(r.sheetText.trim()).toBe('');
  });
});

describe('readPress: disputes', () => {
  it('reads DISPUTE / CONTESTA with the reason on its line or below, up to the end line', () => {
    const r = read(
      [
        'CONTESTA: la mia unità in I8 doveva avanzare in L8',
        'come da R-ADV-2',
        'FINE',
        'B2-C3',
        'DISPUTE',
        'The vote was miscounted.',
      ].join('\n'),
    );
    expect(r.disputes).toEqual([
      { text: 'la mia unità in I8 doveva avanzare in L8\ncome da R-ADV-2', lines: { header: 1, first: 1, last: 2, end: 3 } },
      { text: 'The vote was miscounted.', lines: { header: 5, first: 6, last: 6, end: null } },
    ]);
    expect(r.sheetText.split('\n')[3]).toBe('B2-C3');
  });
  it('a dispute with no reason is empty', () => {
    expect(read('CONTESTA\n').problems).toEqual([{ code: 'empty', line: 1 }]);
  });
});

describe('readPress: bounded and linear on hostile mail', () => {
  // Many headers, long lines, unknown names: work grows with the text, output stays bounded.
  const hostile = (bytes: number) => {
    const unit = [
      'PRESS TO ' + 'Ewoks, '.repeat(40),
      'x'.repeat(3000),
      'FINE',
      'STAMPA A ' + 'Sith e '.repeat(50),
      'ENDPRESS',
      'A TUTTI ' + 'anonimo '.repeat(40),
      'PRESS TO Sith ' + 'y'.repeat(2000),
      'ENDPRESS\r',
      'CONTESTA: ' + 'z'.repeat(500),
    ].join('\n');
    return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  };

  it('reads 1 MB of keywords and long lines with a bounded result', () => {
    const text = hostile(1 << 20);
    const r = read(text);
    expect(r.press.length + r.disputes.length).toBeLessThanOrEqual(MAX_BLOCKS);
    expect(r.problems.length).toBeLessThanOrEqual(MAX_PROBLEMS + 2);
    expect(r.problems.some((p) => p.code === 'too-many-blocks')).toBe(true);
    expect(r.sheetText.split('\n').length).toBe(text.split('\n').length);
    // Text is copied at most into the sheet and the blocks kept: the result is not larger than twice the input.
    expect(JSON.stringify(r).length).toBeLessThan(2 * text.length);
  });

  it('does about four times the work on four times the text', () => {
    const one = read(hostile(256 << 10)).work;
    const four = read(hostile(1 << 20)).work;
    expect(one).toBeGreaterThan(256 << 10);
    expect(four / one).toBeGreaterThan(3.5);
    expect(four / one).toBeLessThan(4.5);
    // One long line: the same.
    const line = read('PRESS TO Sith\n' + 'a '.repeat(1 << 19)).work;
    expect(line).toBeLessThan(3 * (1 << 20));
  });
});

describe('readPress: linear on 10,000 blocks and headers that end each other', () => {
  const shapes: Record<string, (n: number) => string> = {
    'closed blocks': (n) => 'STAMPA A Sith\nciao\nFINE\n'.repeat(n),
    'misspelt headers, each ending the one above': (n) => 'PRESS TO Sitt e Hutt\nhi\n'.repeat(n),
    'disputes inside messages': (n) => 'PRESS TO Sith\nhi\nCONTESTA: x\n'.repeat(n),
    'keywords deep in a line': (n) => `${'PRESS TO '.repeat(40)}\n`.repeat(n),
  };
  for (const [name, build] of Object.entries(shapes))
    it(name, () => {
      const one = read(build(10_000));
      const two = read(build(20_000));
      expect(one.press.length + one.disputes.length).toBeLessThanOrEqual(MAX_BLOCKS);
      expect(one.problems.length).toBeLessThanOrEqual(MAX_PROBLEMS + 2);
      expect(two.work / one.work).toBeGreaterThan(1.8);
      expect(two.work / one.work).toBeLessThan(2.2);
    });
});

describe('readPressReply', () => {
  it('relays the whole text of a reply, keywords and all, unless its first line is REPORT / SEGNALA', () => {
    expect(readPressReply('\nPRESS TO Hutt\nyes\n\n')).toEqual({ kind: 'message', text: 'PRESS TO Hutt\nyes' });
    expect(readPressReply('Segnala: insulti\nripetuti')).toEqual({ kind: 'report', reason: 'insulti\nripetuti' });
    expect(readPressReply('REPORT')).toEqual({ kind: 'report', reason: '' });
    expect(readPressReply('Reporting for duty')).toEqual({ kind: 'message', text: 'Reporting for duty' });
    expect(readPressReply(' \n\r\n')).toEqual({ kind: 'empty' });
  });
});

describe('readPress: invariants on random mail', () => {
  // A seeded generator (mulberry32): the same mails every run.
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pieces = [
    'PRESS TO Sith',
    'stampa a hutt e sith',
    'BROADCAST',
    'A TUTTI',
    "all'arbitro",
    'PRESS',
    'PRESS FAKE',
    'FINE',
    'ENDPRESS',
    'end',
    'CONTESTA: x',
    'DISPUTE',
    'B2-C3',
    'H: Sith',
    'ciao',
    '',
    '  ',
    'Press on',
    'A tutti voi',
    'PRESS TO Ewoks',
    'PRESS TO Sith ANONYMOUS',
    'fine.',
  ];

  it('keeps every line exactly once — in the sheet or in a block — and never relays a line it read as the sheet', () => {
    const next = rng(19);
    for (let n = 0; n < 500; n++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)]!);
      const r = read(lines.join(next() < 0.2 ? '\r\n' : '\n'));
      const sheet = r.sheetText.split('\n');
      expect(sheet.length).toBe(lines.length);
      const inBlock = new Set<number>();
      for (const b of [...r.press, ...r.disputes]) {
        expect(b.lines.header).toBeLessThanOrEqual(b.lines.first);
        expect(b.lines.first).toBeLessThanOrEqual(b.lines.last);
        expect(b.text.trim()).not.toBe('');
        for (let l = b.lines.header; l <= (b.lines.end ?? b.lines.last); l++) inBlock.add(l);
      }
      sheet.forEach((l, i) => {
        // A line left in the sheet is the line as written; a line of a block is blank in the sheet.
        if (l !== '') expect(l).toBe(lines[i]);
        if (inBlock.has(i + 1)) expect(l).toBe('');
      });
      expect(r.hasSheet).toBe(sheet.some((l) => l.trim() !== ''));
      expect(r.problems.map((p) => p.line)).toEqual([...r.problems.map((p) => p.line)].sort((a, b) => a - b));
    }
  });
});

describe('readPress: what real clients and hostile writers put in a mail', () => {
  it('reads a header indented with no-break or other Unicode spaces, or behind a BOM or a zero-width space (MAIL.md)', () => {
    for (const lead of ['\u00a0', '\u2003\u00a0', '\ufeff', '\u200b', ' \u202f']) {
      const r = read(`${lead}STAMPA\u00a0A\u00a0Sith\nciao\nFINE\u00a0\nB2-C3`);
      expect(r.press.map((p) => [p.audience, p.text])).toEqual([[{ kind: 'factions', factions: ['sith'] }, 'ciao']]);
      expect(r.sheetText).toBe('\n\n\nB2-C3');
    }
    // A direction mark or zero-width character inside a header is invisible: the header reads as it looks.
    expect(read('PRESS TO Sith\u200e\nhi\nEND\u200bPRESS').press.map((p) => p.audience)).toEqual([
      { kind: 'factions', factions: ['sith'] },
    ]);
  });

  it('takes an article, or the introducer repeated, before a faction’s name', () => {
    expect(read('PRESS TO the Sith and the Hutt\nhi').press[0]!.audience).toEqual({ kind: 'factions', factions: ['sith', 'hutt'] });
    expect(read('PRESS TO Sith and to the Hutt\nhi').press[0]!.audience).toEqual({ kind: 'factions', factions: ['sith', 'hutt'] });
    expect(read('STAMPA AI Cavalieri Jedi e AGLI Hutt\nhi').press[0]!.audience).toEqual({
      kind: 'factions',
      factions: ['knights', 'hutt'],
    });
    expect(read('STAMPA A Sith, ai Mercanti indipendenti\nhi').press[0]!.audience).toEqual({
      kind: 'factions',
      factions: ['sith', 'corellians'],
    });
    expect(read('STAMPA A Sith e a tutti\nhi').problems).toEqual([{ code: 'mixed-audience', line: 1 }]);
    expect(read('PRESS TO Sith and to the referee\nhi').problems).toEqual([{ code: 'mixed-audience', line: 1 }]);
    expect(read('STAMPA A i Tedeschi\nhi').problems).toEqual([{ code: 'unknown-faction', line: 1, text: 'i tedeschi' }]);
  });

  it('D-INPUT-1: removes controls, direction overrides and noncharacters from what others read', () => {
    const r = read(
      [
        'PRESS TO Sith',
        'Pay \u202e1000\u202c credits\u2066 now\u2069\u0007',
        'x\ufffe\uffff\u{10fffe}\u0008y \u001b[2J\u0085z\u007f',
        'ENDPRESS',
        'CONTESTA: R-ADV-2 \u202egnorw\u202c',
        '\u0000\u0001',
        'FINE',
        'PRESS TO Hutt',
        '\u202e\u0007',
        'ENDPRESS',
      ].join('\n'),
    );
    expect(r.press.map((p) => p.text)).toEqual(['Pay 1000 credits now\nxy [2Jz']);
    expect(r.disputes.map((d) => d.text)).toEqual(['R-ADV-2 gnorw']);
    // A message of nothing but such characters is empty, not a blank message.
    expect(r.problems).toEqual([{ code: 'empty', line: 8 }]);
    // Right-to-left text keeps its marks, and emoji their joiners.
    expect(read('PRESS TO Sith\nשלום\u200f! 👩\u200d👩\u200d👧').press[0]!.text).toBe('שלום\u200f! 👩\u200d👩\u200d👧');
    // And the words quoted back in a problem.
    expect(read('PRESS TO Sitt\u202eh\nhi').problems).toEqual([{ code: 'unknown-faction', line: 1, text: 'sitth' }]);
  });

  it('D-INPUT-1: and from a reply and a report', () => {
    expect(readPressReply('\u202eYes\u202c, agreed\u0007\ufffe')).toEqual({ kind: 'message', text: 'Yes, agreed' });
    expect(readPressReply('\ufeff\u202aREPORT: \u202eesuba\n\u0007x')).toEqual({ kind: 'report', reason: 'esuba\nx' });
    expect(readPressReply('\u202e\u0007\n\u2066')).toEqual({ kind: 'empty' });
  });

  it('D-PRESS-34: a header with a misspelt audience ends the open message instead of going to its readers', () => {
    const r = read(['STAMPA A Sith', 'per i Sith', 'STAMPA A Hut', 'solo per gli Hutt', 'FINE'].join('\n'));
    expect(r.press.map((p) => [p.audience, p.text, p.lines])).toEqual([
      [{ kind: 'factions', factions: ['sith'] }, 'per i Sith', { header: 1, first: 2, last: 2, end: null }],
    ]);
    expect(r.problems).toEqual([{ code: 'unknown-faction', line: 3, text: 'hut' }]);
    expect(r.hasSheet).toBe(false);
    // The same for a header with no audience, or both signs, and for a dispute with its reason on its line.
    for (const header of ['PRESS', 'PRESS TO Sith SIGNED ANONYMOUS', 'PRESS TO Sith and everyone']) {
      const s = read(['PRESS TO Hutt', 'for the Hutt', header, 'not for the Hutt', 'ENDPRESS'].join('\n'));
      expect(s.press.map((p) => p.text)).toEqual(['for the Hutt']);
      expect(s.problems).toHaveLength(1);
    }
    const d = read(['PRESS TO Hutt', 'for the Hutt', 'DISPUTE: R-ADV-2 was misapplied', 'ENDPRESS'].join('\n'));
    expect(d.press.map((p) => p.text)).toEqual(['for the Hutt']);
    expect(d.disputes).toEqual([{ text: 'R-ADV-2 was misapplied', lines: { header: 3, first: 3, last: 3, end: 4 } }]);
    // Prose that merely starts with a keyword stays part of the message.
    const prose = read(['PRESS TO Hutt', 'Press on, friends!', 'Contesta pure, se vuoi.', 'ENDPRESS'].join('\n'));
    expect(prose.press.map((p) => p.text)).toEqual(['Press on, friends!\nContesta pure, se vuoi.']);
  });
});

describe('readPressReply: a report is meant as one', () => {
  it('D-PRESS-36: takes REPORT / SEGNALA alone, before a colon or dash, or in capitals; an answer that starts with the verb is an answer', () => {
    expect(readPressReply('Report.')).toEqual({ kind: 'report', reason: '' });
    expect(readPressReply('segnala\ninsulti')).toEqual({ kind: 'report', reason: 'insulti' });
    expect(readPressReply('Segnalo — minacce')).toEqual({ kind: 'report', reason: 'minacce' });
    expect(readPressReply('SEGNALA insulti ripetuti')).toEqual({ kind: 'report', reason: 'insulti ripetuti' });
    expect(readPressReply('Report back when you have moved.')).toEqual({ kind: 'message', text: 'Report back when you have moved.' });
    expect(readPressReply('Segnala pure, non mi importa.')).toEqual({ kind: 'message', text: 'Segnala pure, non mi importa.' });
  });
});

describe('readPressReply: never the message replied to', () => {
  it('a referee’s reply too: cleaned, and ended at a copy of the relay', () => {
    expect(refereeReplyText('Noted, \u202ethanks\u0007.\n\nGame "Andromeda", turn 1\nFrom: Sith\nTo: the referees')).toBe(
      'Noted, thanks.\n',
    );
  });

  it('ends the reply where a copy of our relay starts, quoted by a client without marks or attribution', () => {
    const relay = 'Partita "Andromeda", turno 1\nDa: Sith\nA: te\n\nTregua?\n\n—\nRispondi a questa mail per scrivere ai Sith.';
    expect(readPressReply(`Accetto.\n\n${relay}`)).toEqual({ kind: 'message', text: 'Accetto.' });
    expect(readPressReply(`Yes\n  Game "Andromeda", turn 12\n  From: anonymous\n  To: you\nTruce?`)).toEqual({
      kind: 'message',
      text: 'Yes',
    });
    expect(readPressReply(relay)).toEqual({ kind: 'empty' });
    // A player's own words that merely look alike stay.
    expect(readPressReply('Game "Andromeda", turn 3 was fun\nFrom: me')).toEqual({
      kind: 'message',
      text: 'Game "Andromeda", turn 3 was fun\nFrom: me',
    });
  });
});
