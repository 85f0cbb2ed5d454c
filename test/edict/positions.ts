// Positions and edicts for the map tests and the map benchmark: the rulebook's figures and other
// cases from the scenario files, adjudicated by the engine, and a crowded 8-faction board built
// from a seeded generator (the same every run).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { classicMap } from '../../src/adjudicator/map.ts';
import { readScenario } from '../../src/adjudicator/scenario.ts';
import { IMPERIAL, type Edict, type FactionId, type GameState, type Side, type Unit } from '../../src/adjudicator/types.ts';
import { seededRandom } from '../support/seeded-random.ts';

const board = classicMap();
const scenarioDir = fileURLToPath(new URL('../scenarios/', import.meta.url));

export function scenarioInput(name: string): { state: GameState; sheets: Record<string, string> } {
  return readScenario(JSON.parse(readFileSync(`${scenarioDir}${name}.json`, 'utf8')), board);
}

/** The edict of a scenario file in test/scenarios, as the engine gives it. */
export function scenarioEdict(name: string): Edict {
  const { state, sheets } = scenarioInput(name);
  return adjudicate(board, state, sheets).edict;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/**
 * Turn 9 of a full game: all 8 factions, about half of the open cells taken (some by Imperial
 * Troops), everyone hostile to everyone, most units ordered to move or jump: a turn with many
 * arrows, failures, eliminations, destructions and contested advances.
 */
export function crowdedTurn(seed = 7): { state: GameState; sheets: Record<FactionId, string> } {
  const r = seededRandom(seed);
  const factions = [...board.factionIds];
  const units: Unit[] = [];
  for (let i = 0; i < board.size; i++) {
    const owner = board.planetOwner[i];
    let side: Side | null = null;
    if (owner !== undefined) side = owner;
    else if (board.isCapital[i]) side = pick(r, factions);
    else if (r() < 0.45) side = r() < 0.06 ? IMPERIAL : pick(r, factions);
    if (side !== null) units.push({ side, at: board.name(i) });
  }
  const lines = new Map<FactionId, string[]>(factions.map((f) => [f, []]));
  const chancellor = 'sith';
  for (const f of factions) {
    const others = factions.filter((g) => g !== f).map((g) => board.factions.get(g)!.names.it[0]!);
    lines.get(f)!.push(`H: ${[...others, ...(f === chancellor ? [] : ['Imperiali'])].join(', ')}`);
  }
  for (const u of units) {
    const cell = board.parseCell(u.at)!;
    const x = r();
    let order: string | null = null;
    if (board.isCapital[cell]) order = x < 0.5 ? `${u.at}#` : null;
    else if (x < 0.55) order = `${u.at}-${board.name(pick(r, board.moveNeighbours(cell)))}`;
    else if (x < 0.7) {
      const near = Array.from({ length: board.size }, (_, j) => j).filter((j) => j !== cell && board.distance(j, cell) <= 4);
      order = `${u.at}=${board.name(pick(r, near))}`;
    }
    if (order) lines.get(u.side === IMPERIAL ? chancellor : u.side)!.push(order);
  }
  const state: GameState = {
    gameId: 'crowded',
    turn: 9,
    factions,
    chancellor,
    election: false,
    hostility: {},
    units,
    settings: { victoryPlanets: 12, nmrHostility: 'keep' },
  };
  return { state, sheets: Object.fromEntries([...lines].map(([f, l]) => [f, `${l.join('\n')}\n`])) };
}

export function crowdedEdict(seed = 7): Edict {
  const { state, sheets } = crowdedTurn(seed);
  return adjudicate(board, state, sheets).edict;
}
