import { describe, expect, it } from 'vitest';
import classicJson from '../../../maps/classic.json' with { type: 'json' };
import { classicMap, loadMap, type Board } from '../../../src/adjudicator/map.ts';
import { IMPERIAL_CODE, renderBoardMap, sideCodes } from '../../../src/adjudicator/render/board-map.ts';
import type { Unit } from '../../../src/adjudicator/types.ts';
import { electionEdict, midGameEdict } from './fixtures.ts';

const board = classicMap();

/** What the map shows at a cell: the two characters under its column letter. */
function cellAt(map: string, b: Board, cell: string): string {
  const i = b.parseCell(cell)!;
  const row = map.split('\n')[b.row(i) + 1]!;
  return row.slice(4 + 3 * b.col(i), 6 + 3 * b.col(i)).trimEnd();
}

describe('renderBoardMap', () => {
  const units = midGameEdict().units;
  const inPlay = Object.keys(midGameEdict().planets);
  const map = renderBoardMap(units, board, { inPlay });
  const rows = map.split('\n');

  it('has the column letters (no J, no K) above and below, and rows 1..18 on both sides', () => {
    const header = rows[0]!.trim().split(/\s+/);
    expect(header).toEqual([
      'A',
      'B',
      'C',
      'D',
      'E',
      'F',
      'G',
      'H',
      'I',
      'L',
      'M',
      'N',
      'O',
      'P',
      'Q',
      'R',
      'S',
      'T',
      'U',
      'V',
      'W',
      'X',
      'Y',
    ]);
    expect(rows[19]).toBe(rows[0]);
    for (let r = 1; r <= 18; r++) {
      expect(rows[r]!.slice(0, 2).trim()).toBe(String(r));
      expect(rows[r]!.endsWith(` ${r}`)).toBe(true);
    }
  });

  it('shows every unit with its side code, and the Imperial Troops as IT', () => {
    const codes = sideCodes(board);
    for (const u of units) expect(cellAt(map, board, u.at), u.at).toBe(codes.get(u.side));
    expect(cellAt(map, board, 'M9')).toBe(IMPERIAL_CODE);
    expect(cellAt(map, board, 'B2')).toBe('o'); // Tatooine, left empty by B2-C3
  });

  it('derives distinct two-letter codes from the map data', () => {
    const codes = sideCodes(board);
    expect([...codes.entries()]).toEqual([
      ['imperial', 'IT'],
      ['hutt', 'Hu'],
      ['aristocrats', 'Ar'],
      ['sith', 'Si'],
      ['knights', 'Kn'],
      ['merchants', 'Me'],
      ['corellians', 'Co'],
      ['federals', 'Fe'],
      ['founders', 'Fo'],
    ]);
    const twins = structuredClone(classicJson) as typeof classicJson;
    twins.factions[1]!.names.en = ['Hutts Again']; // aristocrats: Hu is taken, next letter t
    twins.factions[7]!.names.en = ['Federals Too']; // founders: Fe is taken, then Fd
    const other = sideCodes(loadMap(twins));
    expect(other.get('hutt')).toBe('Hu');
    expect(other.get('aristocrats')).toBe('Ht');
    expect(other.get('founders')).toBe('Fd');
    expect(new Set(other.values()).size).toBe(other.size);
  });

  it("draws the terrain: Capital @, planets o, no-man's land x, space .", () => {
    const empty = renderBoardMap([], board, { inPlay: ['hutt', 'aristocrats', 'sith', 'knights'] });
    expect(cellAt(empty, board, 'N9')).toBe('@');
    expect(cellAt(empty, board, 'O10')).toBe('@');
    expect(cellAt(empty, board, 'B2')).toBe('o');
    expect(cellAt(empty, board, 'T12')).toBe('x'); // Merchants not in play (R-SETUP-3)
    expect(cellAt(empty, board, 'C3')).toBe('.');
    expect(cellAt(renderBoardMap([], board), board, 'T12')).toBe('o');
  });

  it('has a legend in the language asked for', () => {
    const it = renderBoardMap(electionEdict().units, board, { lang: 'it', inPlay: ['hutt', 'aristocrats', 'sith', 'knights'] });
    expect(it).toContain('Legenda: .  spazio   o  pianeta   @  Capitale   x  terra di nessuno');
    expect(it).toContain('Hu Hutt   Ar Aristocratici   Si Sith   Kn Cavalieri   IT Truppe Imperiali');
    expect(it).not.toContain('Mercanti');
    expect(map).toContain('Kn Knights   Me Merchants\nCo Corellians   IT Imperial Troops\n');
  });

  it('fits a plain-text mail and is deterministic', () => {
    for (const l of rows) expect(l.length, l).toBeLessThanOrEqual(80);
    expect(renderBoardMap([...units].reverse(), board, { inPlay })).toBe(map);
    expect(map.endsWith('\n')).toBe(true);
  });

  it('shows two units on one cell rather than hiding one', () => {
    const clash: Unit[] = [
      { side: 'hutt', at: 'C3' },
      { side: 'sith', at: 'C3' },
    ];
    expect(cellAt(renderBoardMap(clash, board), board, 'C3')).toBe('!!');
  });
});
