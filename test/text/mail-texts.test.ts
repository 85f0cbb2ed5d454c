// The mail catalogues: every mail, in both languages, uses every value it is given and leaves no
// placeholder behind; a player's own text stays as written.
import { describe, expect, it } from 'vitest';
import type { Lang } from '../../src/adjudicator/types.ts';
import type { MailText } from '../../src/text/define.ts';
import { deliveryTexts } from '../../src/text/delivery-mail.ts';
import { duration, weeklyAt } from '../../src/text/duration.ts';
import { edictTexts } from '../../src/text/edict-mail.ts';
import { refereeTexts } from '../../src/text/referee-mail.ts';
import { replyTexts } from '../../src/text/replies.ts';
import { turnTexts } from '../../src/text/turn-mail.ts';
import { welcomeTexts, type WelcomeValues } from '../../src/text/welcome.ts';

const LANGS: Lang[] = ['it', 'en'];
/** Each value a marker of its own name, so that a dropped value shows. */
function values<K extends string>(...keys: K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, `<${k}>`])) as Record<K, string>;
}
const game = { ...values('game', 'gameName'), turn: 41 };

const mails: Record<string, (lang: Lang) => [MailText, object]> = {
  welcome: (l) => {
    const v: WelcomeValues = {
      ...values(
        'game',
        'gameName',
        'player',
        'email',
        'faction',
        'homeName',
        'homeCell',
        'systemCells',
        'factions',
        'deadline',
        'weekly',
        'timeZone',
        'gameTimeZone',
        'declarationLead',
        'disputeWindow',
        'address',
        'commonAddress',
        'secret',
        'page',
      ),
      firstTurn: 43,
      lastTurn: 44,
      victoryPlanets: 45,
      press: ['<press>'],
      settledBy: 'referees',
    };
    // settledBy chooses a sentence (tested below); every other value is inserted.
    const { settledBy: _chosen, ...inserted } = v;
    return [welcomeTexts[l].welcome(v), inserted];
  },
  // `last` chooses a sentence (tested below); every other value is inserted.
  reminder: (l) => {
    const v = { ...game, ...values('player', 'deadline', 'missing', 'address', 'page') };
    return [turnTexts[l].reminder({ ...v, last: false }), v];
  },
  grace: (l) => {
    const v = { ...game, ...values('player', 'closesAt', 'address', 'page') };
    return [turnTexts[l].grace({ ...v, last: false }), v];
  },
  early: (l) => {
    const v = { ...game, ...values('at', 'next') };
    return [turnTexts[l].early(v), v];
  },
  earlyWithdrawn: (l) => {
    const v = { ...game, ...values('deadline') };
    return [turnTexts[l].earlyWithdrawn(v), v];
  },
  declarationMissed: (l) => {
    const v = { ...game, ...values('chancellor', 'declarationDeadline', 'deadline') };
    return [turnTexts[l].declarationMissed(v), v];
  },
  deadlineMoved: (l) => {
    const v = { ...game, ...values('who', 'deadline', 'declarationDeadline') };
    return [turnTexts[l].deadlineMoved(v), v];
  },
  edict: (l) => {
    const v = {
      ...game,
      ...values('versionNote', 'gameOver', 'edict', 'amendment', 'lateNote', 'addressNote', 'disputeNote', 'pageNote', 'attachmentsNote'),
    };
    return [edictTexts[l].edict(v), v];
  },
  edictObserver: (l) => {
    const v = { ...game, ...values('versionNote', 'gameOver', 'edict', 'unsubscribe', 'pageNote') };
    return [edictTexts[l].edictObserver(v), v];
  },
  undelivered: (l) => {
    const v = { ...values('game', 'gameName', 'to', 'subject', 'error'), outboxId: 4242 };
    return [deliveryTexts[l].undelivered(v), v];
  },
  gamePaused: (l) => {
    const v = { ...values('game', 'gameName', 'reason') };
    return [refereeTexts[l].gamePaused(v), v];
  },
  gameResumed: (l) => {
    const v = { ...game, ...values('deadline', 'reason') };
    return [refereeTexts[l].gameResumed(v), v];
  },
  seatLeft: (l) => {
    const v = { ...values('game', 'gameName', 'since', 'reason') };
    return [refereeTexts[l].seatLeft(v), v];
  },
  seatRemoved: (l) => {
    const v = { ...values('game', 'gameName', 'faction', 'since', 'reason') };
    return [refereeTexts[l].seatRemoved(v), v];
  },
  seatVacant: (l) => {
    const v = { ...game, ...values('faction', 'since', 'reason') };
    return [refereeTexts[l].seatVacant(v), v];
  },
  addressesChanged: (l) => {
    const v = { ...values('game', 'gameName', 'reason', 'addresses', 'primary') };
    return [refereeTexts[l].addressesChanged(v), v];
  },
  lengthChanged: (l) => {
    const v = { ...game, ...values('reason'), lastTurn: 47 };
    return [refereeTexts[l].lengthChanged(v), v];
  },
  lengthRemoved: (l) => {
    const v = { ...game, ...values('reason'), lastTurn: null };
    return [refereeTexts[l].lengthChanged(v), { ...v, lastTurn: l === 'it' ? 'non ha più un ultimo turno' : 'no longer has a last turn' }];
  },
  turnRolledBack: (l) => {
    const v = { ...game, ...values('deadline', 'reason') };
    return [refereeTexts[l].turnRolledBack(v), v];
  },
  pressChanged: (l) => {
    const v = { ...values('game', 'gameName', 'reason'), changes: ['<change>'], now: ['<now>'] };
    return [refereeTexts[l].pressChanged(v), v];
  },
  deadlineExtended: (l) => {
    const v = { ...game, ...values('player', 'deadline', 'previous', 'declaration', 'reason', 'address') };
    return [refereeTexts[l].deadlineExtended(v), v];
  },
};

describe('mail texts', () => {
  for (const [name, make] of Object.entries(mails)) {
    it(`${name}: a subject in the game's thread, every value used, nothing left unfilled`, () => {
      for (const lang of LANGS) {
        const [mail, v] = make(lang);
        expect(mail.subject, lang).toMatch(/^\[SF <game>\] \S/);
        const all = `${mail.subject}\n${mail.text}`;
        for (const [k, value] of Object.entries(v)) expect(all, `${lang}: ${k}`).toContain(String(value));
        expect(all, lang).not.toMatch(/\{\{|\}\}|\$\{|undefined|\[object /);
        expect(mail.text, lang).toMatch(/[^\n]\n$/);
        expect(mail.text.startsWith('\n'), lang).toBe(false);
      }
    });
  }

  it('the welcome mail carries the code line and the private address', () => {
    for (const lang of LANGS) {
      const [mail] = mails.welcome!(lang);
      expect(mail.text).toContain('      Code: <secret>\n');
      expect(mail.text).toContain('      <address>\n');
    }
  });

  it('the welcome names who settles disputes (D-PRESS-17) and shows the press settings', () => {
    const [, v] = mails.welcome!('en');
    const welcome = (lang: Lang, settledBy: 'referees' | 'operator' | 'kept') =>
      welcomeTexts[lang].welcome({ ...(v as WelcomeValues), press: ['<press 1>', '<press 2>'], settledBy }).text;
    expect(welcome('en', 'referees')).toContain("Disputes are settled by the game's referees.");
    expect(welcome('en', 'operator')).toContain("Disputes are settled by the service's operator");
    expect(welcome('en', 'kept')).toContain('No referee is assigned to this game yet');
    expect(welcome('it', 'referees')).toContain('Le contestazioni le decidono gli arbitri della partita.');
    expect(welcome('it', 'operator')).toContain('il gestore del servizio');
    expect(welcome('it', 'kept')).toContain('La partita non ha ancora un arbitro');
    expect(welcome('en', 'referees')).toContain('  In this game:\n    <press 1>\n    <press 2>\n');
    expect(welcome('it', 'referees')).toContain('  In questa partita:\n    <press 1>\n    <press 2>\n');
  });

  it('a display name is inserted as written: placeholders in it are not expanded', () => {
    const [base] = mails.welcome!('en');
    const v = {
      ...values(
        'game',
        'gameName',
        'email',
        'faction',
        'homeName',
        'homeCell',
        'systemCells',
        'factions',
        'deadline',
        'weekly',
        'timeZone',
        'gameTimeZone',
        'declarationLead',
        'disputeWindow',
        'address',
        'commonAddress',
        'page',
      ),
      firstTurn: 1,
      lastTurn: null,
      victoryPlanets: 12,
      press: [],
      settledBy: 'kept' as const,
    };
    const mail = welcomeTexts.en.welcome({ ...v, player: '{{secret}} ${v.secret} $&', secret: 'S3CRET' });
    expect(mail.text).toContain('Hello {{secret}} ${v.secret} $&,\n');
    expect(mail.text.split('S3CRET')).toHaveLength(2); // only on the Code: line
    expect(base.text).toContain('Hello <player>,\n');
  });

  it('the notes an edict mail may carry', () => {
    expect(edictTexts.en.versionNote(1)).toBe('');
    expect(edictTexts.it.versionNote(2)).toBe(' (emendato, versione 2)');
    expect(edictTexts.en.amendment(null)).toBe('');
    expect(edictTexts.en.amendment('typo')).toBe('The referee has amended this edict (R-EDICT-3). Reason: typo\n\n');
    expect(edictTexts.it.lateNote(null)).toBe('');
    expect(edictTexts.en.lateNote({ closedAt: 'C', deadline: 'D' })).toMatch(/^\nThis turn was closed late, C, .*\(D\)\. .*\n$/);
    expect(edictTexts.en.attachmentsNote).toBe('The map is attached (PNG), and the edict as data (JSON).');
    expect(edictTexts.en.pageNote(null)).toBe('');
    expect(edictTexts.it.pageNote('https://x/games/g')).toBe('La pagina della partita: https://x/games/g\n');
  });

  it('HELP and the welcome name every command, ABSENCE and the press commands too (D-PRESS-11)', () => {
    expect(replyTexts.en.help).toContain('ABSENCE 1/4 10/4');
    expect(replyTexts.it.help).toContain('ASSENZA 1/4 10/4');
    for (const word of ['MUTE Sith', 'MUTE ANONYMOUS', 'UNMUTE Sith', 'DIGEST', 'IMMEDIATE']) {
      expect(replyTexts.en.help).toContain(word);
      expect(mails.welcome!('en')[0].text).toContain(word);
    }
    for (const word of ['SILENZIA Sith', 'SILENZIA ANONIMI', 'RIATTIVA Sith', 'RIEPILOGO', 'SUBITO']) {
      expect(replyTexts.it.help).toContain(word);
      expect(mails.welcome!('it')[0].text).toContain(word);
    }
  });

  it('a reminder lists a problem with its line named once', () => {
    expect(turnTexts.en.problemLine('Line 2: B2-C3: that unit is not yours; order not applied.')).toBe(
      '  Line 2: B2-C3: that unit is not yours; order not applied.',
    );
    const [reminder] = mails.reminder!('en');
    expect(reminder.text).toContain("The game's page: <page>\n");
    expect(
      turnTexts.en.reminder({ ...game, ...values('player', 'deadline', 'missing', 'address'), page: null, last: false }).text,
    ).not.toContain('page');
  });

  it('durations and weekly deadlines in words', () => {
    expect([60, 120, 90].map((m) => duration('it', m))).toEqual(['1 ora', '2 ore', '90 minuti']);
    expect([60, 120, 90].map((m) => duration('en', m))).toEqual(['1 hour', '2 hours', '90 minutes']);
    expect(weeklyAt('it', 'domenica', '20:00')).toBe('ogni domenica alle 20:00');
  });
});
