// Reading ABSENCE / ASSENZA and moving deadlines for absences (D-ABS-1): pure functions.
import { describe, expect, it } from 'vitest';
import { deadlineAfterAbsences, parseDay, readAbsenceCommand } from '../../src/games/absence.ts';

describe('readAbsenceCommand', () => {
  const today = () => '2025-03-20';
  it('reads ISO and European dates, in English and Italian', () => {
    expect(readAbsenceCommand('ABSENCE 2025-04-01 2025-04-10', today)).toEqual({ fromDay: '2025-04-01', toDay: '2025-04-10' });
    expect(readAbsenceCommand('assenza dal 1/4 al 10/4', today)).toEqual({ fromDay: '2025-04-01', toDay: '2025-04-10' });
    expect(readAbsenceCommand('Assenza: 1.4.25 - 3.4.25', today)).toEqual({ fromDay: '2025-04-01', toDay: '2025-04-03' });
    expect(readAbsenceCommand('absence from 30/12 to 2/1', () => '2025-12-01')).toEqual({ fromDay: '2025-12-30', toDay: '2026-01-02' });
  });
  it('says when the dates are not dates, or in the wrong order; other lines are not commands', () => {
    expect(readAbsenceCommand('ABSENCE next week', today)).toEqual({ error: 'dates' });
    expect(readAbsenceCommand('ABSENCE 2025-04-10 2025-04-01', today)).toEqual({ error: 'dates' });
    expect(readAbsenceCommand('ABSENCE 2025-02-30 2025-03-01', today)).toEqual({ error: 'dates' });
    expect(readAbsenceCommand('B2-C3', today)).toBeNull();
    expect(parseDay('31/4', today())).toBeNull();
  });
});

describe('deadlineAfterAbsences', () => {
  const sunday = new Date('2025-03-23T19:00:00Z'); // 20:00 in Rome
  const limits = { perPlayerDays: 14, perGameDays: 28 };
  const none = { perPlayer: new Map<number, number>(), game: 0 };
  it('moves a deadline inside an absence to the same time the day after it ends, through a daylight-saving change', () => {
    const r = deadlineAfterAbsences(sunday, 'Europe/Rome', [{ playerId: 1, fromDay: '2025-03-21', toDay: '2025-03-31' }], limits, none);
    expect(r.deadline.toISOString()).toBe('2025-04-01T18:00:00.000Z'); // 20:00 CEST
    expect(r).toMatchObject({ movedDays: 9, for: [1] });
  });
  it('chains overlapping absences, caps the move by what the limits leave, and never moves earlier', () => {
    const two = [
      { playerId: 1, fromDay: '2025-03-23', toDay: '2025-03-24' },
      { playerId: 2, fromDay: '2025-03-25', toDay: '2025-03-27' },
    ];
    expect(deadlineAfterAbsences(sunday, 'Europe/Rome', two, limits, none)).toMatchObject({ movedDays: 5, for: [1, 2] });
    const used = { perPlayer: new Map([[1, 13]]), game: 0 };
    expect(deadlineAfterAbsences(sunday, 'Europe/Rome', two, limits, used).movedDays).toBe(1);
    const gameUsed = { perPlayer: new Map<number, number>(), game: 28 };
    expect(deadlineAfterAbsences(sunday, 'Europe/Rome', two, limits, gameUsed)).toMatchObject({ movedDays: 0, deadline: sunday });
    expect(
      deadlineAfterAbsences(sunday, 'Europe/Rome', [{ playerId: 1, fromDay: '2025-03-10', toDay: '2025-03-22' }], limits, none).deadline,
    ).toBe(sunday);
  });
});
