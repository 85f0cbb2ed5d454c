import { describe, expect, it } from 'vitest';
import { formatWeekly, isTimeZone, nextWeeklyDeadline, parseWeekly, zonedTimeToInstant } from '../../src/games/deadline.ts';

const next = (after: string, weekly: string, tz = 'Europe/Rome') => nextWeeklyDeadline(new Date(after), weekly, tz).toISOString();

describe('nextWeeklyDeadline', () => {
  it('is the next Sunday 20:00 in Rome, in winter (UTC+1) and in summer (UTC+2)', () => {
    expect(next('2025-01-15T12:00:00Z', 'sun 20:00')).toBe('2025-01-19T19:00:00.000Z');
    expect(next('2025-07-16T12:00:00Z', 'sun 20:00')).toBe('2025-07-20T18:00:00.000Z');
  });

  it('follows Rome onto summer time on the last Sunday of March', () => {
    // Saturday 29 March 2025 is still winter time; the clocks go forward at 02:00 on the 30th.
    expect(next('2025-03-29T12:00:00Z', 'sun 20:00')).toBe('2025-03-30T18:00:00.000Z');
    // Chained week after week, the wall-clock time stays 20:00.
    const a = nextWeeklyDeadline(new Date('2025-03-20T12:00:00Z'), 'sun 20:00', 'Europe/Rome');
    const b = nextWeeklyDeadline(a, 'sun 20:00', 'Europe/Rome');
    expect([a.toISOString(), b.toISOString()]).toEqual(['2025-03-23T19:00:00.000Z', '2025-03-30T18:00:00.000Z']);
    expect(b.getTime() - a.getTime()).toBe(7 * 24 * 3_600_000 - 3_600_000);
  });

  it('follows Rome back onto winter time on the last Sunday of October', () => {
    const a = nextWeeklyDeadline(new Date('2025-10-20T12:00:00Z'), 'sun 20:00', 'Europe/Rome');
    expect(a.toISOString()).toBe('2025-10-26T19:00:00.000Z');
    expect(nextWeeklyDeadline(new Date('2025-10-19T18:00:00Z'), 'sun 20:00', 'Europe/Rome').toISOString()).toBe(a.toISOString());
  });

  it('pushes a time that does not happen (spring gap) forward, and takes the first of a time that happens twice', () => {
    expect(next('2025-03-27T12:00:00Z', 'sun 02:30')).toBe('2025-03-30T01:30:00.000Z'); // 03:30 summer time
    expect(next('2025-10-23T12:00:00Z', 'sun 02:30')).toBe('2025-10-26T00:30:00.000Z'); // 02:30 summer time
    expect(next('2025-03-06T12:00:00Z', 'sun 02:30', 'America/New_York')).toBe('2025-03-09T07:30:00.000Z');
  });

  it('is strictly after: at the deadline itself, the next one is a week on', () => {
    expect(next('2025-01-19T19:00:00Z', 'sun 20:00')).toBe('2025-01-26T19:00:00.000Z');
    expect(next('2025-01-19T18:59:59.999Z', 'sun 20:00')).toBe('2025-01-19T19:00:00.000Z');
  });

  it('counts weekdays on the zone’s calendar, not UTC’s', () => {
    // 23:30 UTC Saturday is already Sunday morning in Tokyo.
    expect(next('2025-01-18T23:30:00Z', 'sun 10:00', 'Asia/Tokyo')).toBe('2025-01-19T01:00:00.000Z');
    expect(next('2025-01-01T00:00:00Z', 'mon 00:00', 'Pacific/Apia')).toBe('2025-01-05T11:00:00.000Z');
    expect(next('2025-01-01T00:00:00Z', 'fri 09:15', 'Asia/Kolkata')).toBe('2025-01-03T03:45:00.000Z');
  });

  it('refuses a bad weekly time or zone', () => {
    expect(() => next('2025-01-01T00:00:00Z', 'sun 24:00')).toThrow(/weekly time/);
    expect(() => next('2025-01-01T00:00:00Z', 'sun 20:00', 'Europe/Atlantis')).toThrow(/time zone/);
  });
});

describe('weekly times and zones', () => {
  it('reads English and Italian day names and writes them canonically', () => {
    expect(parseWeekly('Sunday 8:05')).toEqual({ weekday: 0, hour: 8, minute: 5 });
    expect(formatWeekly(parseWeekly('dom 20.00')!)).toBe('sun 20:00');
    expect(formatWeekly(parseWeekly('  Venerdì 09:30 ')!)).toBe('fri 09:30');
    expect(parseWeekly('sun 20')).toBeNull();
    expect(parseWeekly('funday 20:00')).toBeNull();
    expect(parseWeekly('sun 20:60')).toBeNull();
  });

  it('knows an IANA zone from a made-up one', () => {
    expect(isTimeZone('Europe/Rome')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('turns a wall-clock time into an instant', () => {
    expect(new Date(zonedTimeToInstant(Date.UTC(2025, 5, 1, 12), 'Europe/Rome')).toISOString()).toBe('2025-06-01T10:00:00.000Z');
    expect(new Date(zonedTimeToInstant(Date.UTC(2025, 5, 1, 12), 'UTC')).toISOString()).toBe('2025-06-01T12:00:00.000Z');
  });
});
