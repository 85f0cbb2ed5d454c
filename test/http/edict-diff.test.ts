// What an amendment changed, in words (R-EDICT-3), for the archive's amended versions.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict } from '../../src/adjudicator/types.ts';
import { edictChanges } from '../../src/http/public/edict-diff.ts';
import { midGameEdict } from '../adjudicator/render/fixtures.ts';

const board = classicMap();

describe('edictChanges', () => {
  it('finds nothing between an edict and itself', () => {
    expect(edictChanges(board, midGameEdict(), midGameEdict(), 'en')).toEqual([]);
  });

  it('names a unit moved elsewhere, a planet count and a new Chancellor', () => {
    const before = midGameEdict();
    const u = before.units.find((x) => x.side !== 'imperial')!;
    const faction = before.factions.find((f) => f !== before.chancellor)!;
    const after: Edict = {
      ...before,
      units: before.units.map((x) => (x === u ? { ...x, at: 'L5' } : x)),
      planets: { ...before.planets, [u.side]: (before.planets[u.side] ?? 0) + 1 },
      chancellor: faction,
    };
    const lines = edictChanges(board, before, after, 'en');
    const name = board.factions.get(u.side)!.names.en[0];
    expect(lines).toContain(`${name}: no longer in ${u.at}`);
    expect(lines).toContain(`${name}: now in L5`);
    expect(lines).toContain(`${name}: planets ${before.planets[u.side] ?? 0} → ${(before.planets[u.side] ?? 0) + 1}`);
    expect(lines.some((l) => l.startsWith('Chancellor: '))).toBe(true);
    expect(edictChanges(board, before, after, 'it')).toContain(`${board.factions.get(u.side)!.names.it[0]}: ora in L5`);
  });
});
