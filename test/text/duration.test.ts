// Lengths of time and the weekly deadline in a reader's words (src/text/duration.ts).
import { describe, expect, it } from 'vitest';
import { duration, weeklyInWords } from '../../src/text/duration.ts';

describe('duration', () => {
  it('says one minute, whole hours and whole weeks in days, never "1 minutes" or "1440 minutes"', () => {
    expect(duration('en', 1)).toBe('1 minute');
    expect(duration('it', 1)).toBe('1 minuto');
    expect(duration('en', 90)).toBe('90 minutes');
    expect(duration('it', 60)).toBe('1 ora');
    expect(duration('en', 1440)).toBe('24 hours');
    expect(duration('it', 2880)).toBe('48 ore');
    expect(duration('en', 10080)).toBe('7 days');
    expect(duration('it', 0)).toBe('0 minuti');
  });
  it('names the weekday of a weekly deadline in the language; an unknown spelling is kept', () => {
    expect(weeklyInWords('it', 'sun 20:00')).toBe('ogni domenica alle 20:00');
    expect(weeklyInWords('en', 'thu 08:30')).toBe('every Thursday at 08:30');
    expect(weeklyInWords('en', 'someday')).toBe('someday');
  });
});
