// D-EDICT-1: which language the one map of an edict is drawn in.
import { describe, expect, it } from 'vitest';
import { mapLanguage } from '../../src/games/edict-mail.ts';

describe('mapLanguage (D-EDICT-1)', () => {
  it('is the language most recipients read', () => {
    expect(mapLanguage(['en', 'it', 'en', 'en'])).toBe('en');
    expect(mapLanguage(['it', 'it', 'en'])).toBe('it');
    expect(mapLanguage(['en'])).toBe('en');
  });
  it('is Italian, the rulebook’s language, on a tie or with nobody to ask', () => {
    expect(mapLanguage(['en', 'it'])).toBe('it');
    expect(mapLanguage(['en', 'en', 'it', 'it'])).toBe('it');
    expect(mapLanguage([])).toBe('it');
  });
});
