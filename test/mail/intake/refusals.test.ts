// Intake's refusals of a player's mail are one typed union, turned into the answer in one place
// (refusalReply): each outcome gets its reply kind and a text in the player's language.
import { describe, expect, it } from 'vitest';
import { ANSWERED_ONCE_A_DAY, refusalReply, type PlayerRefusal } from '../../../src/mail/intake/reply-texts.ts';

const refusals: Array<[PlayerRefusal, string]> = [
  [{ outcome: 'too-large', size: 123_456 }, 'unreadable'],
  [{ outcome: 'too-costly' }, 'unreadable'],
  [{ outcome: 'broken', damage: ['first reason', 'second reason'] }, 'unreadable'],
  [{ outcome: 'no-sheet' }, 'unreadable'],
  [{ outcome: 'absence-dates' }, 'refusal'],
  [{ outcome: 'game-not-active' }, 'refusal'],
  [{ outcome: 'no-open-turn' }, 'refusal'],
  [{ outcome: 'not-in-play' }, 'refusal'],
  [{ outcome: 'chancellor-final' }, 'refusal'],
  [{ outcome: 'late', receivedAt: 'Mon 10:01', closedAt: 'Mon 10:00', declaration: false }, 'late'],
  [{ outcome: 'superseded', receivedAt: 'Sun 09:00', by: 'Sun 09:30' }, 'refusal'],
];

describe('a refused player mail', () => {
  it.each(refusals)('%o is answered as %s, in either language, with its own text', (r, kind) => {
    const italian = refusalReply('it', r);
    const english = refusalReply('en', r);
    expect([italian.kind, english.kind]).toEqual([kind, kind]);
    expect(italian.text.trim()).not.toBe('');
    expect(english.text).not.toBe(italian.text);
  });

  it('quotes what it is about: the size, the damage, the times', () => {
    expect(refusalReply('en', refusals[0]![0]).text).toContain('123456 bytes');
    expect(refusalReply('en', refusals[2]![0]).text).toContain('first reason; second reason');
    expect(refusalReply('en', refusals[9]![0]).text).toContain('Mon 10:01');
    expect(refusalReply('en', refusals[10]![0]).text).toContain('Sun 09:30');
  });

  it('answers mail that is not a sheet once a day (D-MAIL-24), the rest each time', () => {
    expect([...ANSWERED_ONCE_A_DAY].sort()).toEqual(['broken', 'no-sheet', 'too-costly']);
  });

  it('gives every refusal a different text', () => {
    expect(new Set(refusals.map(([r]) => refusalReply('en', r).text)).size).toBe(refusals.length);
  });
});
