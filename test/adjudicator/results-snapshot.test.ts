// A byte-for-byte guard for work on the engine's speed: every scenario file, a fixed sample of
// random cases (arbitraries.ts), crowded boards and malformed positions, adjudicated and compared
// with JSON.stringify of the result recorded in fixtures/adjudication-results.json. The fixture
// was written by the engine as it stood before the optimisation (commit ba1b5b2); a change of
// rules that is meant to change results regenerates it on purpose:
//   UPDATE_ADJUDICATION_RESULTS=1 npx vitest run --project unit test/adjudicator/results-snapshot.test.ts
// Scenario results are kept whole (a diff shows what changed); the generated ones as SHA-256 of
// the JSON, which is enough to say "identical or not" without megabytes of fixture. The random
// sample is drawn from arbitraries.ts with a fixed seed: changing those generators means
// regenerating the fixture, from an engine known to be right.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import type { CellIndex } from '../../src/adjudicator/map.ts';
import { reviewSheet } from '../../src/adjudicator/review.ts';
import { readScenario } from '../../src/adjudicator/scenario.ts';
import { IMPERIAL, type FactionId, type GameState, type Side } from '../../src/adjudicator/types.ts';
import { caseArb, type Case } from './arbitraries.ts';
import { board } from './position.ts';
import { seededRandom } from '../support/seeded-random.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixturePath = join(repo, 'test', 'adjudicator', 'fixtures', 'adjudication-results.json');
const UPDATE = process.env.UPDATE_ADJUDICATION_RESULTS === '1';

interface Fixture {
  /** Label → { result, reviews } or { error }, as the engine returned it. */
  scenarios: Record<string, unknown>;
  /** Label → SHA-256 of the JSON of the same. */
  generated: Record<string, string>;
}

/** What a case gives: the full result and each sheet's review, or the error thrown. */
function outcome(state: GameState, sheets: Partial<Record<FactionId, string>>): unknown {
  try {
    const result = adjudicate(board, state, sheets);
    const reviews: Record<string, unknown> = {};
    for (const [f, text] of Object.entries(sheets)) if (typeof text === 'string') reviews[f] = reviewSheet(board, state, f, text);
    return { result, reviews };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

// ---------------------------------------------------------------- the cases

function scenarioCases(): [string, unknown][] {
  const dirs: [string, string][] = [
    [join(repo, '..', 'shared', 'scenarios'), 'shared/'],
    [join(repo, 'test', 'scenarios'), 'test/scenarios/'],
  ];
  const out: [string, unknown][] = [];
  for (const [dir, prefix] of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const raw: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      let value: unknown;
      try {
        const { state, sheets } = readScenario(raw, board);
        value = outcome(state, sheets);
      } catch (e) {
        value = { error: `${(e as Error).name}: ${(e as Error).message}` };
      }
      out.push([`${prefix}${file}`, value]);
    }
  }
  return out;
}

/**
 * A crowded board: cells filled with probability `share` (planets too, but never no-man's land),
 * every unit ordered at random (moves, jumps, politics, off-board and foreign orders), hostility
 * drawn per faction. Standoffs, rings, chains, collisions and advances all happen here at scale.
 */
function crowded(seed: number, share: number, nFactions: number, turn: number, election: boolean): Case {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const factions = board.factionIds.slice(0, nFactions);
  const chancellor = r() < 0.8 ? pick(factions) : null;
  const sides: Side[] = chancellor === null ? [...factions] : [...factions, IMPERIAL];
  const units: { side: Side; at: string }[] = [];
  for (let c = 0; c < board.size; c++) {
    const owner = board.planetOwner[c];
    if (owner !== undefined && !factions.includes(owner)) continue;
    if (r() < share) units.push({ side: pick(sides), at: board.name(c) });
  }
  const near = (c: CellIndex, d: number) => {
    const out: CellIndex[] = [];
    for (let x = 0; x < board.size; x++) if (x !== c && board.distance(x, c) <= d) out.push(x);
    return out;
  };
  const lines = new Map<FactionId, string[]>(factions.map((f) => [f, []]));
  for (const u of units) {
    const cell = board.parseCell(u.at)!;
    const writer = u.side === IMPERIAL ? chancellor! : r() < 0.03 ? pick(factions) : u.side;
    const x = r();
    let order: string | null;
    if (board.isCapital[cell] && x < 0.5) order = r() < 0.3 ? `${u.at}#${board.name(pick(near(cell, 1)))}` : `${u.at}#`;
    else if (x < 0.15) order = null;
    else if (x < 0.75) order = `${u.at}-${board.name(pick(board.moveNeighbours(cell)))}`;
    else if (x < 0.95) order = `${u.at}=${board.name(pick(near(cell, 4)))}`;
    else
      order = pick([
        `${u.at}-Z9`,
        `${u.at}=${board.name(pick(near(cell, 6)))}`,
        `${u.at}#`,
        `${u.at.toLowerCase()} - ${board.name(pick(board.moveNeighbours(cell)))}`,
      ]);
    if (order !== null) lines.get(writer)!.push(order);
  }
  const names = (s: Side) => (s === IMPERIAL ? 'Imperiali' : board.factions.get(s)!.names.en[0]!);
  const sheets: Record<FactionId, string> = {};
  const hostility: Record<FactionId, Side[]> = {};
  for (const f of factions) {
    const hostile = sides.filter((s) => s !== f && !(s === IMPERIAL && f === chancellor) && r() < 0.7);
    if (hostile.length) hostility[f] = hostile;
    const own = lines.get(f)!;
    const text = [
      ...(hostile.length ? [`H: ${hostile.map(names).join(', ')}`] : []),
      ...(election ? [`V: ${names(pick(factions))}`] : []),
      ...own,
    ];
    // Some factions miss the turn (R-TURN-5), some send their orders a few to a line.
    if (r() < 0.1) continue;
    sheets[f] = r() < 0.5 ? text.join('\n') : text.join('\r\n');
  }
  return {
    state: {
      gameId: `crowded-${seed}`,
      turn,
      factions,
      chancellor,
      election,
      hostility,
      units,
      settings: { victoryPlanets: 12, nmrHostility: r() < 0.5 ? 'keep' : 'none' },
    },
    sheets,
  };
}

/** Positions the engine must refuse, each with its one-line reason (state-check.ts). */
function malformed(): [string, GameState][] {
  const base = (): GameState => ({
    gameId: 'bad',
    turn: 3,
    factions: ['hutt', 'aristocrats', 'sith', 'knights'],
    chancellor: 'sith',
    election: false,
    hostility: {},
    units: [
      { side: 'hutt', at: 'B2' },
      { side: 'imperial', at: 'M9' },
    ],
    settings: { victoryPlanets: 12, nmrHostility: 'keep' },
  });
  const with_ = (name: string, change: (s: GameState) => void): [string, GameState] => {
    const s = base();
    change(s);
    return [name, s];
  };
  return [
    with_('turn 0', (s) => (s.turn = 0)),
    with_('unknown faction', (s) => s.factions.push('pirates')),
    with_('faction twice', (s) => s.factions.push('hutt')),
    with_('chancellor not in play', (s) => (s.chancellor = 'merchants')),
    with_('unit of unknown side', (s) => s.units.push({ side: 'pirates', at: 'C3' })),
    with_('unit of side not in play', (s) => s.units.push({ side: 'merchants', at: 'C3' })),
    with_('unit off the board', (s) => s.units.push({ side: 'hutt', at: 'Z99' })),
    with_('unit on J', (s) => s.units.push({ side: 'hutt', at: 'J5' })),
    with_('two units on a cell', (s) => s.units.push({ side: 'sith', at: 'B2' })),
    with_('two units, one spelled loosely', (s) => s.units.push({ side: 'sith', at: ' b 02 ' })),
    with_('loose spelling accepted', (s) => s.units.push({ side: 'sith', at: 'c 3' })),
    with_('unknown joiner', (s) => (s.joining = ['pirates'])),
    with_('victoryPlanets 0', (s) => (s.settings.victoryPlanets = 0)),
  ];
}

function generatedCases(): [string, unknown][] {
  const out: [string, unknown][] = [];
  fc.sample(caseArb, { seed: 20261122, numRuns: 300 }).forEach((c, i) => out.push([`random #${i}`, outcome(c.state, c.sheets)]));
  const boards: [number, number, number, number, boolean][] = [
    [1, 1, 8, 7, false],
    [2, 0.9, 8, 9, true],
    [3, 0.6, 6, 4, false],
    [4, 0.5, 8, 1, true],
    [5, 0.3, 4, 12, false],
    [6, 1, 5, 20, true],
    [7, 0.75, 7, 2, false],
    [8, 0.45, 8, 6, false],
  ];
  for (const [seed, share, n, turn, election] of boards) {
    const c = crowded(seed, share, n, turn, election);
    out.push([`crowded #${seed}`, outcome(c.state, c.sheets)]);
  }
  for (const [name, state] of malformed()) out.push([`malformed: ${name}`, outcome(state, {})]);
  return out;
}

// ---------------------------------------------------------------- the comparison

describe('results identical to the recorded ones', () => {
  const scenarios = scenarioCases();
  const generated = generatedCases().map(([label, value]) => [label, sha(value)] as const);

  if (UPDATE) {
    it('writes the fixture', () => {
      const fixture: Fixture = { scenarios: Object.fromEntries(scenarios), generated: Object.fromEntries(generated) };
      writeFileSync(fixturePath, `${JSON.stringify(fixture, null, 1)}\n`);
    });
    return;
  }

  const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as Fixture;

  it('covers the same cases as the fixture', () => {
    expect(scenarios.map(([l]) => l)).toEqual(Object.keys(fixture.scenarios));
    expect(generated.map(([l]) => l)).toEqual(Object.keys(fixture.generated));
  });

  it('every scenario: the same result and reviews, byte for byte', () => {
    const differ: string[] = [];
    for (const [label, value] of scenarios) {
      if (JSON.stringify(value) !== JSON.stringify(fixture.scenarios[label])) differ.push(label);
    }
    // On a difference, show the first one in full: the diff says what moved.
    if (differ.length) expect(scenarios.find(([l]) => l === differ[0])![1]).toEqual(fixture.scenarios[differ[0]!]);
    expect(differ).toEqual([]);
  });

  it('random, crowded and malformed cases: the same result and reviews, byte for byte', () => {
    const differ = generated.filter(([label, hash]) => fixture.generated[label] !== hash).map(([label]) => label);
    expect(differ).toEqual([]);
  });
});
