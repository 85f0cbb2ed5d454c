// The weekly rhythm as pure decisions: next deadlines across daylight-saving changes, a late
// close, and which reminder is due.
import { describe, expect, it } from 'vitest';
import { dueReminderOffset, MIN_EARLY_NOTICE_MS, MIN_TURN_NOTICE_MS, nextTurnDeadlines } from '../../src/games/schedule.ts';

const rome = { weeklyDeadline: 'sun 20:00', timeZone: 'Europe/Rome', declarationLeadMinutes: 1440, reminderMinutes: [1440, 120] };
const sydney = { ...rome, timeZone: 'Australia/Sydney' };
const H = 3_600_000;

describe('nextTurnDeadlines', () => {
  it('R-TURN-3: on time, the next deadline is the same local time a week later, across both changes of Europe/Rome', () => {
    // Spring: 23 March 20:00 CET (19:00Z) → 30 March 20:00 CEST (18:00Z).
    const spring = nextTurnDeadlines(rome, new Date('2025-03-23T19:00:00Z'), new Date('2025-03-23T19:00:20Z'));
    expect(spring.deadline.toISOString()).toBe('2025-03-30T18:00:00.000Z');
    expect(spring.declarationDeadline.toISOString()).toBe('2025-03-29T18:00:00.000Z');
    // Autumn: 19 October 20:00 CEST (18:00Z) → 26 October 20:00 CET (19:00Z).
    const autumn = nextTurnDeadlines(rome, new Date('2025-10-19T18:00:00Z'), new Date('2025-10-19T18:00:20Z'));
    expect(autumn.deadline.toISOString()).toBe('2025-10-26T19:00:00.000Z');
  });

  it('fires at the right local time across both changes of a southern-hemisphere zone (Australia/Sydney)', () => {
    // DST ends 6 April 2025 (AEDT +11 → AEST +10); starts 5 October 2025.
    const april = nextTurnDeadlines(sydney, new Date('2025-03-30T09:00:00Z'), new Date('2025-03-30T09:00:10Z'));
    expect(april.deadline.toISOString()).toBe('2025-04-06T10:00:00.000Z'); // 20:00 AEST
    const october = nextTurnDeadlines(sydney, new Date('2025-09-28T10:00:00Z'), new Date('2025-09-28T10:00:10Z'));
    expect(october.deadline.toISOString()).toBe('2025-10-05T09:00:00.000Z'); // 20:00 AEDT
  });

  it('D-TURN-2: a turn closed late (the service was down) still leaves a day before the next deadline', () => {
    const previous = new Date('2025-03-23T19:00:00Z');
    // Closed on Saturday 29 March, 22:00Z: Sunday 30 at 20:00 CEST is under a day away → a week later.
    const closedAt = new Date('2025-03-29T22:00:00Z');
    const next = nextTurnDeadlines(rome, previous, closedAt);
    expect(next.deadline.toISOString()).toBe('2025-04-06T18:00:00.000Z');
    expect(next.deadline.getTime() - closedAt.getTime()).toBeGreaterThanOrEqual(MIN_TURN_NOTICE_MS);
    // Closed two weeks late: the next deadline is after the close, never in the past.
    const weeksLate = nextTurnDeadlines(rome, previous, new Date('2025-04-08T10:00:00Z'));
    expect(weeksLate.deadline.toISOString()).toBe('2025-04-13T18:00:00.000Z');
  });
});

describe('nextTurnDeadlines after an early close (D-TURN-7)', () => {
  const rome = { weeklyDeadline: 'sun 20:00', timeZone: 'Europe/Rome', declarationLeadMinutes: 120, reminderMinutes: [] };
  const previous = new Date('2025-03-23T19:00:00Z'); // Sunday 23 March, 20:00 CET

  it('the next weekly deadline that leaves two days before the declaration: the Sunday in between is not skipped', () => {
    // Closed early on Thursday 20 March at 10:00Z: Sunday 23 at 20:00 (declaration 18:00) is 3 days away.
    const thursday = nextTurnDeadlines(rome, previous, new Date('2025-03-20T10:00:00Z'));
    expect(thursday.deadline.toISOString()).toBe('2025-03-23T19:00:00.000Z');
    expect(thursday.declarationDeadline.getTime() - new Date('2025-03-20T10:00:00Z').getTime()).toBeGreaterThanOrEqual(MIN_EARLY_NOTICE_MS);
    // Exactly the notice before the declaration deadline is enough.
    const edge = new Date(new Date('2025-03-23T17:00:00Z').getTime() - MIN_EARLY_NOTICE_MS);
    expect(nextTurnDeadlines(rome, previous, edge).deadline.toISOString()).toBe('2025-03-23T19:00:00.000Z');
  });

  it('closed too near the weekly time: a week later, never later than the close on time would give', () => {
    const saturday = nextTurnDeadlines(rome, previous, new Date('2025-03-22T10:00:00Z'));
    expect(saturday.deadline.toISOString()).toBe('2025-03-30T18:00:00.000Z');
    expect(saturday.deadline).toEqual(nextTurnDeadlines(rome, previous, new Date('2025-03-23T19:00:10Z')).deadline);
  });
});

describe('dueReminderOffset', () => {
  const deadline = new Date('2025-03-23T19:00:00Z');
  const at = (hoursBefore: number) => new Date(deadline.getTime() - hoursBefore * H);
  it('is none before the first offset, the offset once its time has come, the latest after an outage', () => {
    expect(dueReminderOffset([1440, 120], deadline, at(25))).toBeNull();
    expect(dueReminderOffset([1440, 120], deadline, at(24))).toBe(1440);
    expect(dueReminderOffset([1440, 120], deadline, at(3))).toBe(1440);
    expect(dueReminderOffset([1440, 120], deadline, at(2))).toBe(120);
    expect(dueReminderOffset([120, 1440], deadline, at(1))).toBe(120);
    expect(dueReminderOffset([1440, 120], deadline, at(0))).toBeNull();
    expect(dueReminderOffset([], deadline, at(1))).toBeNull();
  });
});
