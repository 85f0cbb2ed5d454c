// formatInstant remembers what it wrote by the minute (intake words the same instants in every
// acknowledgement of a batch): what it answers must be what Intl says for that very instant.
import { describe, expect, it } from 'vitest';
import { formatInstant, INSTANT_FIELDS } from '../../src/games/time-format.ts';
import { LOCALE } from '../../src/text/locale.ts';
import type { Lang } from '../../src/adjudicator/types.ts';

const direct = (at: Date, timeZone: string, lang: Lang) =>
  `${new Intl.DateTimeFormat(LOCALE[lang], { ...INSTANT_FIELDS, timeZone }).format(at)} (${timeZone})`;

describe('formatInstant', () => {
  it('shows no seconds (the memo keys by minute)', () => {
    expect(INSTANT_FIELDS).not.toHaveProperty('second');
    expect(INSTANT_FIELDS).not.toHaveProperty('fractionalSecondDigits');
  });

  it('answers as Intl does every 7 seconds around a change of offset, in zones with odd offsets, in both languages', () => {
    // Europe/Rome leaves summer time at 01:00 UTC on 25 October 2026; Nepal is +05:45, Chatham +12:45/+13:45.
    const start = Date.UTC(2026, 9, 25, 0, 58, 0);
    for (const timeZone of ['Europe/Rome', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns'])
      for (const lang of ['en', 'it'] as const)
        for (let s = 0; s < 4 * 60; s += 7) {
          const at = new Date(start + s * 1_000);
          expect(formatInstant(at, timeZone, lang)).toBe(direct(at, timeZone, lang));
        }
  });

  it('is not fooled by an offset with seconds (until 1972 a zone could have one)', () => {
    // Monrovia kept -0:44:30 until 1972: 12:00:10 and 12:00:40 UTC fall in different local minutes.
    for (const s of [10, 29, 31, 40, 59]) {
      const at = new Date(Date.UTC(1970, 5, 1, 12, 0, s));
      expect(formatInstant(at, 'Africa/Monrovia', 'en')).toBe(direct(at, 'Africa/Monrovia', 'en'));
    }
  });
});
