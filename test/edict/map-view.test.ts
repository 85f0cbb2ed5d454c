// What the map draws, derived from the edict: arrows, losses, contests, new units.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { describeMap } from '../../src/edict/map-describe.ts';
import { mapView } from '../../src/edict/map-view.ts';
import { electionEdict, midGameEdict } from '../adjudicator/render/fixtures.ts';
import { crowdedEdict, scenarioEdict } from './positions.ts';

const board = classicMap();
const name = (i: number) => board.name(i);

describe('mapView', () => {
  const o = mapView(board, midGameEdict()).overlay!;
  const arrows = (kind: string, end: string) =>
    o.arrows.filter((a) => a.kind === kind && a.end === end).map((a) => `${name(a.from)}>${name(a.to)}`);

  it('draws the orders that moved their unit, and those that did not with a unit to draw from', () => {
    expect(arrows('move', 'ok')).toEqual(['S8>R8', 'B2>C3', 'G7>H8', 'U12>V11', 'G13>H14']);
    // Not B2-C2 (superseded, R-ORD-5), not the attacks whose attacker then advanced (M3-M4, Q9-P9).
    expect(arrows('move', 'failed')).toEqual(['P10>Q11', 'A2>A4', 'C1>B1', 'Q12>Q11']);
    expect(arrows('jump', 'destroyed')).toEqual(['B1>F3', 'F7>F3', 'H11>H8']);
    expect(arrows('advance', 'ok')).toEqual(['M3>M4', 'N13>M13', 'L14>M14', 'Q9>P9']);
  });

  it('marks losses, contested advances with their candidates, and new units', () => {
    expect(o.losses.map((x) => `${x.kind} ${x.side} ${name(x.at)}`)).toEqual([
      'destroyed hutt F3',
      'destroyed aristocrats F3',
      'destroyed corellians H8',
      'eliminated sith M4',
      'eliminated corellians M13',
      'eliminated merchants M14',
      'eliminated knights P9',
    ]);
    expect(o.contested.map((c) => `${name(c.at)}: ${c.candidates.join(' ')}`)).toEqual(['M4: L4 M3', 'P9: P10 Q9']);
    expect(o.newUnits.map(name)).toEqual(['M9', 'X2']); // the troop (R-POL-2), production (R-PROD-1)
    expect(mapView(board, electionEdict()).overlay!.newUnits.map(name)).toEqual(['N9']); // R-ELEC-5
  });

  it('reads jumps that landed and orders off the board from engine edicts without drawing the impossible', () => {
    const jumps = mapView(board, scenarioEdict('rb-orders-valid-jump-and-politics')).overlay!;
    expect(jumps.arrows.filter((a) => a.kind === 'jump' && a.end === 'ok')).toHaveLength(1);
    const offBoard = mapView(board, scenarioEdict('ord-off-board-cells-invalid')).overlay!;
    for (const a of offBoard.arrows) expect(a.from).not.toBe(a.to);
    const crowded = mapView(board, crowdedEdict()).overlay!;
    expect(crowded.losses.length).toBeGreaterThan(20);
    expect(crowded.contested.length).toBeGreaterThan(3);
  });
});

describe('describeMap', () => {
  it('says where every unit is and what happened, in Italian or English', () => {
    const it_ = describeMap(board, midGameEdict(), 'it', 'Andromeda');
    expect(it_).toMatch(/^Mappa della partita Andromeda dopo il turno 7\. Cancelliere: Sith\./);
    expect(it_).toContain('Truppe Imperiali (3): M9 N8 P10');
    expect(it_).toContain('M3→M4 (contesa tra L4, M3)');
    expect(it_).toContain('Terra di nessuno: i pianeti di Federali, Fondatori.');
    const en = describeMap(board, electionEdict(), 'en');
    expect(en).toContain('Map of game andromeda after turn 1. Chancellor: Hutt.');
    expect(en).toContain('New units: N9.');
  });
});
