// D-EDICT-2: which languages the map of an edict is drawn in.
import { describe, expect, it } from 'vitest';
import { mapLanguages } from '../../src/games/edict-mail.ts';

describe('mapLanguages (D-EDICT-2)', () => {
  it('are the languages its recipients read, each once, Italian first: at most two maps', () => {
    expect(mapLanguages(['en', 'it', 'en', 'en'])).toEqual(['it', 'en']);
    expect(mapLanguages(['it', 'it'])).toEqual(['it']);
    expect(mapLanguages(['en', 'en', 'en'])).toEqual(['en']);
  });
  it('is Italian, the rulebook’s language, with nobody to ask', () => {
    expect(mapLanguages([])).toEqual(['it']);
  });
});
