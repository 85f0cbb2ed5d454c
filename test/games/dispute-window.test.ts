// The one measure of an edict version's dispute window (R-TURN-2 step 5, D-PRESS-14).
import { describe, expect, it } from 'vitest';
import { disputeWindowEnd, editionPublishedAt } from '../../src/games/dispute-window.ts';

const closed = new Date('2026-03-02T10:00:00Z');
const stored = new Date('2026-03-02T10:00:07Z');
const later = new Date('2026-03-03T08:00:00Z');

describe('the dispute window', () => {
  it('version 1 opens it when its turn closed; an amended version when it was stored', () => {
    expect(editionPublishedAt({ version: 1, createdAt: stored }, closed)).toEqual(closed);
    expect(editionPublishedAt({ version: 2, createdAt: later }, closed)).toEqual(later);
    // A turn with no closing instant recorded: its edict's own.
    expect(editionPublishedAt({ version: 1, createdAt: stored }, null)).toEqual(stored);
  });

  it('ends the game’s minutes after it opens; no window closes it as it opens', () => {
    expect(disputeWindowEnd({ disputeWindowMinutes: 1440 }, closed)).toEqual(new Date('2026-03-03T10:00:00Z'));
    expect(disputeWindowEnd({ disputeWindowMinutes: 0 }, closed)).toEqual(closed);
  });
});
