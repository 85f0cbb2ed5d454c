// D-PRESS-18: the final edict's mail links the game's published messages, in both languages, when
// the game's press setting reveal = at-end — and only then, and only in the final edict.
import { describe, expect, it } from 'vitest';
import type { Lang } from '../../src/adjudicator/types.ts';
import type { Observer } from '../../src/db/observers.ts';
import { edictMails, observerMails, type EdictMailArgs } from '../../src/games/edict-mail.ts';
import { edictMailArgs, electionEdict } from './edict-html-fixture.ts';

const NEXT = { deadline: new Date('2025-03-30T18:00:00Z'), declarationDeadline: new Date('2025-03-30T16:00:00Z') };

function args(pressSettings: object, nextTurn: EdictMailArgs['nextTurn']): EdictMailArgs {
  return edictMailArgs({ pressSettings }, { nextTurn });
}
const observer = (lang: Lang) => ({ id: 7, lang, email: 'o@example.com', token: 'tok' }) as Observer;
const LINK = 'https://sf.example/games/g1/press';

describe('D-PRESS-18: the final edict links the revealed messages', () => {
  it('in both languages, for players and observers, text and HTML, when reveal = at-end and the game is over', () => {
    const a = args({ reveal: 'at-end' }, null);
    const [it_, en] = edictMails(a);
    expect(it_!.bodyText).toContain(`I messaggi della partita, ora pubblicati: ${LINK}`);
    expect(en!.bodyText).toContain(`The game's messages, published now: ${LINK}`);
    expect(en!.bodyHtml).toContain(LINK);
    const [o] = observerMails(a, [observer('en')], 'https://sf.example');
    expect(o!.bodyText).toContain(LINK);
  });

  it('not while the game goes on, and never with reveal = never (the default)', () => {
    for (const a of [args({ reveal: 'at-end' }, NEXT), args({}, null), args({ reveal: 'never' }, null)]) {
      for (const m of [...edictMails(a), ...observerMails(a, [observer('it')], 'https://sf.example')]) {
        expect(m.bodyText).not.toContain('/press');
        expect(m.bodyHtml ?? '').not.toContain('/press');
      }
    }
  });
});

describe('the HTML edict’s links', () => {
  it('the orders address, the game page, the revealed messages and the unsubscribe link are links; a URL in a game’s name stays text', () => {
    const going = args({}, NEXT);
    going.game = { ...going.game, name: 'Orione https://evil.example/' };
    const [, en] = edictMails(going);
    const html = en!.bodyHtml!;
    expect(html).toMatch(/<a href="mailto:orders\+[^"]+@sf\.test" style="[^"]*">orders\+[^<]+@sf\.test<\/a>/);
    expect(html).toContain(
      `<a href="https://sf.example/games/g1" style="color:inherit;text-decoration:underline">https://sf.example/games/g1</a>`,
    );
    expect(html).toContain('Orione https://evil.example/');
    expect(html).not.toContain('href="https://evil.example/');
    const [, enOver] = edictMails(args({ reveal: 'at-end' }, null));
    expect(enOver!.bodyHtml).toContain(`<a href="${LINK}" style="color:inherit;text-decoration:underline">${LINK}</a>`);
    const [o] = observerMails(args({}, NEXT), [observer('en')], 'https://sf.example');
    expect(o!.bodyHtml).toContain('<a href="https://sf.example/unsubscribe/tok" style="color:inherit;text-decoration:underline">');
  });
});

describe('the HTML edict’s map on a phone (D-WEB-8)', () => {
  it('the fitted picture and a line under it open the full-size map on the edict’s page, in the reader’s language', () => {
    const [it_, en] = edictMails(args({}, NEXT));
    const turn = electionEdict().turn;
    for (const [m, lang, label] of [
      [it_!, 'it', 'Apri la mappa a grandezza piena, da ingrandire'],
      [en!, 'en', 'Open the map full size, to zoom in'],
    ] as const) {
      const href = `https://sf.example/games/g1/turns/${turn}/v/1/map.png?lang=${lang}`;
      expect(m.bodyHtml).toContain(`<a href="${href}" style="color:inherit;text-decoration:underline"><img src="cid:`);
      expect(m.bodyHtml).toContain(`<a href="${href}" style="color:inherit;text-decoration:underline">${label}</a>`);
    }
  });

  it('without a public address, says the full-size map is attached', () => {
    const [, en] = edictMails({ ...args({}, NEXT), publicUrl: undefined });
    expect(en!.bodyHtml).toContain('The map full size, to zoom in, is attached (PNG).');
    expect(en!.bodyHtml).not.toMatch(/<a href="[^"]*map\.png/);
  });
});
