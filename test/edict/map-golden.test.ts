// The map of the rulebook's figures and other turns, against golden SVG files (see golden.ts).
import { describe, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict, GameState, Lang } from '../../src/adjudicator/types.ts';
import { renderMapSvg } from '../../src/edict/map-svg.ts';
import { electionEdict, midGameEdict } from '../adjudicator/render/fixtures.ts';
import { expectGolden } from './golden.ts';
import { crowdedEdict, scenarioEdict, scenarioInput } from './positions.ts';

const board = classicMap();

const cases: [name: string, lang: Lang, input: () => Edict | GameState][] = [
  // The rulebook's figures (combat, the star cross of death, Imperial Troops) and its order examples.
  ...[
    'rb-fig1-only-d1-falls',
    'rb-fig2-mutual-elimination',
    'rb-fig3-star-cross-of-death',
    'rb-fig4-imperial-north-south-falls',
    'rb-fig5-imperial-diagonals-survives',
    'rb-fig6-imperial-west-east-falls',
    'rb-orders-valid-jump-and-politics',
    'rb-orders-invalid-b2-g7-last-order-wins',
    // Moves and failures, destructions in hyperspace, a new Imperial Troop, no-man's land.
    'move-chain-follow-and-blocked',
    'hyp-jump-onto-own-unit-or-arriving-mover',
    'pol-troop-named-cell',
    'setup-no-mans-land',
    // A unit eliminated where another advances, a stall and a standoff, a new Chancellor's unit.
    'hyp-jump-into-trap-then-production',
    'move-attack-priority-advance',
    'elec5-capital-full-default-removal',
  ].map((name): [string, Lang, () => Edict] => [name, 'en', () => scenarioEdict(name)]),
  ['mid-game', 'it', midGameEdict],
  ['mid-game', 'en', midGameEdict],
  ['turn-1-election', 'it', electionEdict],
  ['start-of-turn-state', 'en', () => scenarioInput('rb-fig1-only-d1-falls').state],
  ['crowded', 'it', () => crowdedEdict()],
];

describe('renderMapSvg golden files', () => {
  for (const [name, lang, input] of cases)
    it(`${name} (${lang})`, () => {
      expectGolden(`${name}.${lang}.svg`, renderMapSvg(board, input(), { lang }));
    });
});
