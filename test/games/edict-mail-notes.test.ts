// The notes at the top of an edict's mail: the outcome first when the game is over (R-WIN-1,
// R-WIN-2), and until when the edict may be disputed (R-TURN-2 step 5).
import { describe, expect, it } from 'vitest';
import type { Observer } from '../../src/db/observers.ts';
import { edictMails, observerMails, type EdictMailArgs } from '../../src/games/edict-mail.ts';
import { edictMailArgs, electionEdict } from './edict-html-fixture.ts';

const NEXT = { deadline: new Date('2025-03-30T18:00:00Z'), declarationDeadline: new Date('2025-03-30T16:00:00Z') };
const CLOSED = new Date('2025-03-23T19:01:00Z');

function args(over: Partial<EdictMailArgs> & { disputeWindowMinutes?: number } = {}): EdictMailArgs {
  const { disputeWindowMinutes = 1440, ...rest } = over;
  return edictMailArgs({ disputeWindowMinutes }, { nextTurn: NEXT, publishedAt: CLOSED, ...rest });
}
const observer = { id: 7, lang: 'en', email: 'o@example.com', token: 'tok' } as Observer;
const opening = (text: string) => text.trim().split('\n').slice(0, 3).join('\n');

describe('R-TURN-2 step 5: the edict mail says until when it may be disputed', () => {
  it('the window from its publication, on the player’s clock, in both languages, text and HTML', () => {
    const [it_, en] = edictMails(args());
    expect(it_!.bodyText).toContain('Puoi contestare questo editto fino a lunedì 24 marzo 2025 alle ore 20:01 CET');
    expect(en!.bodyText).toContain('You may dispute this edict until Monday, 24 March 2025 at 20:01 CET');
    expect(en!.bodyHtml).toContain('You may dispute this edict until');
  });

  it('no such line when the game has no window, nor to observers (they cannot dispute)', () => {
    for (const m of edictMails(args({ disputeWindowMinutes: 0 }))) expect(m.bodyText).not.toMatch(/contestare|dispute this/);
    const [o] = observerMails(args(), [observer], 'https://sf.example');
    expect(o!.bodyText).not.toContain('dispute this');
  });
});

describe('R-WIN-1, R-WIN-2: the final edict mail names the winner first', () => {
  it('a winner by R-WIN-1, in the mail’s opening lines', () => {
    const edict = { ...electionEdict(), winners: ['hutt'], winRule: 'R-WIN-1' as const, gameOver: true };
    const [it_, en] = edictMails(args({ edict, nextTurn: null }));
    expect(opening(en!.bodyText)).toContain('The game is over. Winner: Hutt (R-WIN-1).');
    expect(opening(it_!.bodyText)).toContain('La partita è finita. Vincitore: Hutt (R-WIN-1).');
    const [o] = observerMails(args({ edict, nextTurn: null }), [observer], 'https://sf.example');
    expect(opening(o!.bodyText)).toContain('Winner: Hutt');
  });

  it('a shared victory at the last turn (R-WIN-2), and a last turn with no winner', () => {
    const shared = { ...electionEdict(), winners: ['hutt', 'sith'], winRule: 'R-WIN-2' as const, gameOver: true };
    const [it_, en] = edictMails(args({ edict: shared, nextTurn: null }));
    expect(opening(en!.bodyText)).toContain('Shared victory: Hutt, Sith (R-WIN-2');
    expect(opening(it_!.bodyText)).toContain('Vincitori a pari merito: Hutt, Sith (R-WIN-2');
    const none = { ...electionEdict(), winners: [], winRule: null, gameOver: true };
    expect(opening(edictMails(args({ edict: none, nextTurn: null }))[1]!.bodyText)).toContain(
      'The game is over, with no winner (R-WIN-2).',
    );
  });
});
