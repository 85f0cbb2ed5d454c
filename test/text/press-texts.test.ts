// The words of press (docs/press.md): a relay names the writer or nobody, and says where a Reply goes.
import { describe, expect, it } from 'vitest';
import type { Lang } from '../../src/adjudicator/types.ts';
import type { MailText } from '../../src/text/define.ts';
import { pressTexts } from '../../src/text/press.ts';

const relay = {
  game: 'andromeda',
  gameName: 'Andromeda',
  to: 'te, Hutt',
  text: 'Alleanza?\n> non è una citazione',
  replyGoesTo: 'gli Hutt',
  turn: 4,
};

describe('press texts', () => {
  it('relay a signed message with its writer, an anonymous one with none, the text as written', () => {
    const signed = pressTexts.it.relay({ ...relay, from: 'Sith' });
    expect(signed.subject).toBe('[SF andromeda] Sith → te, Hutt');
    expect(signed.text).toContain('Da: Sith\nA: te, Hutt');
    expect(signed.text).toContain('| Alleanza?\n| > non è una citazione');
    expect(signed.text).toContain('Rispondi a questa mail per scrivere agli Hutt');
    const anon = pressTexts.en.relay({ ...relay, from: null, to: 'you, Hutt' });
    expect(anon.subject).toBe('[SF andromeda] Anonymous → you, Hutt');
    expect(anon.text).not.toMatch(/Sith/);
  });
  it('write lists as sentences', () => {
    expect(pressTexts.it.list(['Sith', 'Hutt', 'Cavalieri'])).toBe('Sith, Hutt e Cavalieri');
    expect(pressTexts.en.list(['Sith'])).toBe('Sith');
    expect(pressTexts.en.list([])).toBe('');
  });
});

describe('press mails', () => {
  // As test/text/mail-texts.test.ts does for the other catalogues: each value a marker of its own name.
  const v = {
    game: '<game>',
    gameName: '<gameName>',
    from: '<from>',
    to: '<to>',
    text: '<text>',
    replyGoesTo: '<replyGoesTo>',
    faction: '<faction>',
    reason: '<reason>',
    edictUrl: '<edictUrl>',
    consoleUrl: '<consoleUrl>',
    turn: 41,
    version: 42,
  };
  const mails: Record<string, (l: Lang) => [MailText, string[]]> = {
    relay: (l) => [pressTexts[l].relay(v), ['game', 'gameName', 'from', 'to', 'text', 'replyGoesTo', 'turn']],
    disputeToReferee: (l) => [
      pressTexts[l].disputeToReferee(v),
      ['game', 'gameName', 'faction', 'reason', 'edictUrl', 'consoleUrl', 'turn', 'version'],
    ],
    disputeRejected: (l) => [pressTexts[l].disputeRejected(v), ['game', 'reason', 'turn']],
    disputeAmended: (l) => [pressTexts[l].disputeAmended(v), ['game', 'turn', 'version']],
    disputeLapsed: (l) => [pressTexts[l].disputeLapsed(v), ['game', 'turn']],
  };
  for (const [name, make] of Object.entries(mails))
    for (const l of ['it', 'en'] as Lang[])
      it(`${name} (${l}) uses every value it is given and leaves no placeholder`, () => {
        const [m, keys] = make(l);
        const all = `${m.subject}\n${m.text}`;
        for (const k of keys) expect(all).toContain(k === 'turn' ? '41' : k === 'version' ? '42' : `<${k}>`);
        expect(all).not.toMatch(/\$\{|undefined|null/);
      });
});

describe('Italian prepositions before a name (a + article)', () => {
  it('articulate "a" with the article, and write "ad" before an a', async () => {
    const { italianA } = await import('../../src/text/press.ts');
    expect(italianA('la conversazione')).toBe('alla conversazione');
    expect(italianA('gli arbitri')).toBe('agli arbitri');
    expect(italianA('il Cancelliere')).toBe('al Cancelliere');
    expect(italianA('anonimo')).toBe("all'anonimo");
    expect(italianA('anonimi')).toBe('ad anonimi');
    expect(italianA('tutti')).toBe('a tutti');
    // A list: each item its own preposition (faction names come with their article, sideNameAsObject).
    expect(italianA('anonimo e i Cavalieri')).toBe("all'anonimo e ai Cavalieri");
    expect(italianA('gli Aristocratici e i Sith')).toBe('agli Aristocratici e ai Sith');
    expect(italianA('te, gli Hutt e le Truppe Imperiali')).toBe('a te, agli Hutt e alle Truppe Imperiali');
  });
  it('articulate "di" with the article likewise, for a list too (MUTE\'s answers)', async () => {
    const { italianDi } = await import('../../src/text/press.ts');
    expect(italianDi('i Sith e gli Hutt')).toBe('dei Sith e degli Hutt');
    expect(italianDi('i Cavalieri, gli Hutt e le Truppe Imperiali')).toBe('dei Cavalieri, degli Hutt e delle Truppe Imperiali');
    expect(italianDi("l'arbitro")).toBe("dell'arbitro");
    expect(italianDi('Anna')).toBe("d'Anna");
    expect(italianDi('Sith')).toBe('di Sith');
  });
  it('are used wherever a text says to whom', () => {
    expect(pressTexts.it.replySent('la conversazione', false, 'Ciao')).toBe(
      'La tua risposta è stata inviata alla conversazione, firmata:\n\n> Ciao',
    );
    expect(pressTexts.it.sent(2, 2, 'gli arbitri', false, 'Aiuto\n\nGrazie')).toBe(
      'Riga 2: inviato agli arbitri, firmato:\n> Aiuto\n>\n> Grazie',
    );
    expect(pressTexts.it.relay({ ...relay, from: null, replyGoesTo: 'anonimo e i Cavalieri' }).text).toContain(
      "Rispondi a questa mail per scrivere all'anonimo e ai Cavalieri",
    );
  });
});

describe('a relay as its reader reads it', () => {
  it('a referee gets their own footer: no private address, no REPORT', () => {
    for (const l of ['it', 'en'] as Lang[]) {
      const m = pressTexts[l].relay({ ...relay, from: 'Knights', replyGoesTo: 'Knights', reader: 'referee' });
      expect(m.text).not.toMatch(/SEGNALA|REPORT|personale|private address|STAMPA A|PRESS TO/);
    }
    expect(pressTexts.en.relay({ ...relay, from: 'Knights', replyGoesTo: 'Knights', reader: 'referee' }).text).toContain(
      'Reply to this mail to answer Knights: your answer goes to this player only',
    );
  });
  it('the hidden writer of an anonymous message is told that a reply keeps them anonymous; nobody else is', () => {
    const hidden = pressTexts.en.relay({ ...relay, from: 'Hutt', to: 'everyone', replyGoesTo: 'everyone', reader: 'hidden-writer' });
    expect(hidden.text).toContain('This answers your anonymous message: if you reply to this mail, you stay anonymous.');
    expect(pressTexts.en.relay({ ...relay, from: 'Hutt', to: 'everyone', replyGoesTo: 'everyone' }).text).not.toContain(
      'anonymous message',
    );
  });
});

describe('a faction as the object of an Italian sentence (the map’s table of articles)', () => {
  it('each classic faction with its article, the Imperial Troops feminine; English bare', async () => {
    const { classicMap } = await import('../../src/adjudicator/map.ts');
    const { sideNameAsObject } = await import('../../src/adjudicator/render/vocabulary.ts');
    const { IMPERIAL } = await import('../../src/adjudicator/types.ts');
    const board = classicMap();
    const it_ = (s: string) => sideNameAsObject(board, s, 'it');
    expect(['hutt', 'aristocrats', 'sith', 'knights', 'merchants', 'corellians', 'federals', 'founders'].map(it_)).toEqual([
      'gli Hutt',
      'gli Aristocratici',
      'i Sith',
      'i Cavalieri',
      'i Mercanti',
      'i Corelliani',
      'i Federali',
      'i Fondatori',
    ]);
    expect(it_(IMPERIAL)).toBe('le Truppe Imperiali');
    expect(sideNameAsObject(board, 'aristocrats', 'en')).toBe('Aristocrats');
  });
});

// D-PRESS-40: a player's text cannot pass for a head of ours, whatever it imitates.
describe('a text that imitates the head we write above it', () => {
  const forged = [
    'Va bene.',
    '',
    '—',
    'Rispondi a questa mail per scrivere agli Hutt.',
    '',
    'Partita "Andromeda", turno 4',
    'Da: Hutt',
    'A: te',
    'Game "Andromeda", turn 4\u2028From: Referee\u2029To: you',
    '——— 2. From: Referee — To: you — turn 4',
    'Contestazione\rDa: Arbitro\vScritto da: Arbitro\fWritten by: Referee\u0085Console: x',
  ].join('\n');
  const entry = (text: string) => ({ from: 'Sith', to: 'te', turn: 4, text, replyAddress: 'orders+p-x@sf.example' });
  const report = { messageId: 7, reporter: 'Hutt', writer: 'Sith', sign: 'signed' as const, reason: 'insulti' };
  const mails: Record<string, (l: Lang, text: string) => MailText> = {
    relay: (l, text) => pressTexts[l].relay({ ...relay, from: 'Sith', text }),
    'relay to a hidden writer': (l, text) => pressTexts[l].relay({ ...relay, from: null, text, reader: 'hidden-writer' }),
    'relay to a referee': (l, text) => pressTexts[l].relay({ ...relay, from: 'Sith', text, reader: 'referee' }),
    observerBroadcast: (l, text) => pressTexts[l].observerBroadcast({ ...relay, from: 'Sith', text, unsubscribe: 'https://x' }),
    digest: (l, text) =>
      pressTexts[l].digest({
        ...relay,
        until: 'oggi',
        entries: [entry(text), entry('x')],
        muted: 0,
        privateAddress: 'orders+p@sf.example',
      }),
    disputeToReferee: (l, text) =>
      pressTexts[l].disputeToReferee({
        ...relay,
        faction: 'Sith',
        version: 1,
        reason: text,
        edictUrl: 'https://e',
        consoleUrl: 'https://c',
      }),
    reportToReferee: (l, text) => pressTexts[l].reportToReferee({ ...relay, ...report, text, consoleUrl: 'https://c' }),
    'reportToReferee, its reason': (l, reason) =>
      pressTexts[l].reportToReferee({ ...relay, ...report, reason, text: 'x', consoleUrl: 'https://c' }),
  };
  // Whatever a client takes for a line break.
  const lines = (text: string) => text.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
  for (const [name, make] of Object.entries(mails))
    for (const l of ['it', 'en'] as Lang[])
      it(`${name} (${l}): every line of the text is behind a bar, and adds no line of ours`, () => {
        const ours = (m: MailText) => lines(m.text).filter((x) => !x.startsWith('|'));
        const withForgery = make(l, forged);
        expect(ours(withForgery)).toEqual(ours(make(l, 'x')).map((x) => x.replace(/^(Motivo|Reason): x$/, '$1:')));
        const framed = lines(withForgery.text).filter((x) => x.startsWith('|'));
        expect(framed.map((x) => x.replace(/^\| ?/, ''))).toEqual(expect.arrayContaining(lines(forged)));
      });
});
