// Every scenario file — the public ones in ../shared/scenarios and the project's own in
// test/scenarios — run through runScenario, the exact code path of `sf adjudicate`, and compared
// with its `expect` block the way /work/shared/hooks/check_scenario.py does: units as a multiset
// (order irrelevant, cells upper-cased), chancellor / electionNextTurn / votes exact when present,
// winners as a sorted set, planets only for the factions listed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/adjudicator/scenario.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const sharedDir = join(repo, '..', 'shared', 'scenarios');
const ownDir = join(repo, 'test', 'scenarios');

interface UnitOut {
  side: string;
  at: string;
}
/** What the command prints (SCENARIOS.md); declared here so the test does not lean on the engine's types. */
interface Output {
  units: UnitOut[];
  chancellor: string | null;
  electionNextTurn: boolean;
  winners: string[];
  votes: Record<string, number>;
  planets: Record<string, number>;
  edict: string;
}
interface Expect {
  units: UnitOut[];
  chancellor?: string | null;
  electionNextTurn?: boolean;
  votes?: Record<string, number>;
  winners?: string[];
  planets?: Record<string, number>;
}
interface Scenario {
  name: string;
  expect: Expect;
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

interface Case {
  label: string;
  path: string;
  raw: unknown;
  scenario: Scenario;
}

function load(dir: string, prefix: string): Case[] {
  return jsonFiles(dir).map((file) => {
    const path = join(dir, file);
    const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const scenario = raw as Scenario;
    return { label: `${prefix}${file}: ${scenario.name}`, path, raw, scenario };
  });
}

const shared = load(sharedDir, 'shared/');
const own = load(ownDir, 'test/scenarios/');
const all = [...shared, ...own];

function unitCounts(units: readonly UnitOut[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const u of units) {
    const k = `${u.side} ${u.at.toUpperCase()}`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

function minus(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [k, n] of a) for (let i = b.get(k) ?? 0; i < n; i++) out.push(k);
  return out.sort();
}

/** The problems check_scenario.py would report; empty when the result matches. */
function scenarioProblems(exp: Expect, got: Partial<Output>): string[] {
  const problems: string[] = [];
  const want = unitCounts(exp.units);
  const have = unitCounts(got.units ?? []);
  const missing = minus(want, have);
  const extra = minus(have, want);
  if (missing.length || extra.length) problems.push(`units: missing [${missing.join(', ')}] extra [${extra.join(', ')}]`);
  for (const key of ['chancellor', 'electionNextTurn', 'votes'] as const) {
    if (!(key in exp)) continue;
    const value = key in got ? got[key] : null;
    if (!isDeepStrictEqual(exp[key], value)) {
      problems.push(`${key}: want ${JSON.stringify(exp[key])} got ${JSON.stringify(value)}`);
    }
  }
  if (exp.winners !== undefined) {
    const w = [...exp.winners].sort();
    const g = [...(got.winners ?? [])].sort();
    if (!isDeepStrictEqual(w, g)) problems.push(`winners: want ${JSON.stringify(exp.winners)} got ${JSON.stringify(got.winners)}`);
  }
  for (const [faction, n] of Object.entries(exp.planets ?? {})) {
    const g = got.planets?.[faction];
    if (g !== n) problems.push(`planets[${faction}]: want ${n} got ${JSON.stringify(g)}`);
  }
  return problems;
}

describe('scenario folders', () => {
  it('the shared scenario folder exists and holds scenarios', () => {
    expect(existsSync(sharedDir), `${sharedDir} is missing`).toBe(true);
    expect(shared.length, `${sharedDir} holds no *.json`).toBeGreaterThan(0);
  });
  it('the project scenario folder holds scenarios', () => {
    expect(own.length, `${ownDir} holds no *.json`).toBeGreaterThan(0);
  });
});

describe('scenarios through runScenario', () => {
  for (const c of all) {
    it(c.label, () => {
      const got: Output = runScenario(c.raw);
      expect(scenarioProblems(c.scenario.expect, got)).toEqual([]);
    });
  }
});

describe('the edict of every scenario', () => {
  it('R-EDICT-2: the same scenario adjudicated twice gives the same result and the same edict, byte for byte', () => {
    const differ: string[] = [];
    for (const c of all) {
      const a: Output = runScenario(structuredClone(c.raw));
      const b: Output = runScenario(structuredClone(c.raw));
      if (a.edict !== b.edict || !isDeepStrictEqual(a, b)) differ.push(c.label);
    }
    expect(differ).toEqual([]);
  });

  it('R-EDICT-1: the edict names the final cell of every unit', () => {
    const missing: string[] = [];
    for (const c of all) {
      const out: Output = runScenario(structuredClone(c.raw));
      expect(typeof out.edict).toBe('string');
      for (const u of out.units) {
        const cell = u.at.toUpperCase();
        if (!new RegExp(`(^|[^A-Za-z0-9])${cell}([^0-9]|$)`).test(out.edict)) missing.push(`${c.label}: ${cell}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

// ---------------------------------------------------------------- the command itself

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function sf(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/sf.js', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'sf-scenario-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HOMES: Record<string, string[]> = {
  hutt: ['B2', 'B1', 'A2'],
  aristocrats: ['G7', 'G6', 'F7'],
  sith: ['T7', 'T6', 'U7'],
  knights: ['X2', 'X1', 'Y2'],
};

/** A well-formed scenario to spoil one way at a time. */
function base(): {
  name: string;
  rules: string[];
  setup: Record<string, unknown> & { units: UnitOut[] };
  sheets: Record<string, string>;
  expect: Expect;
} {
  const units = Object.entries(HOMES).flatMap(([side, cells]) => cells.map((at) => ({ side, at })));
  units.push({ side: 'sith', at: 'N9' });
  return {
    name: 'malformed-input base',
    rules: [],
    setup: { turn: 4, factions: Object.keys(HOMES), chancellor: 'sith', election: false, hostility: {}, units },
    sheets: {},
    expect: { units: [] },
  };
}

const malformed: [string, () => string][] = [
  ['not JSON', () => '{ "name": "broken", "setup": '],
  [
    'a missing field (setup)',
    () => {
      const s: Partial<ReturnType<typeof base>> = base();
      delete s.setup;
      return JSON.stringify(s);
    },
  ],
  [
    'a missing field (setup.factions)',
    () => {
      const s = base();
      delete s.setup.factions;
      return JSON.stringify(s);
    },
  ],
  [
    'an unknown faction id',
    () => {
      const s = base();
      s.setup.factions = ['hutt', 'aristocrats', 'sith', 'knights', 'jawas'];
      return JSON.stringify(s);
    },
  ],
  [
    'a sheet keyed by an id that is no faction',
    () => {
      const s = base();
      s.sheets.jawas = 'V: Hutt';
      return JSON.stringify(s);
    },
  ],
  [
    'a cell off the board',
    () => {
      const s = base();
      s.setup.units.push({ side: 'hutt', at: 'K5' });
      return JSON.stringify(s);
    },
  ],
  [
    'two units on one cell',
    () => {
      const s = base();
      s.setup.units.push({ side: 'aristocrats', at: 'B2' });
      return JSON.stringify(s);
    },
  ],
  [
    'a unit of a faction not in play',
    () => {
      const s = base();
      s.setup.units.push({ side: 'merchants', at: 'T12' });
      return JSON.stringify(s);
    },
  ],
  [
    'a Chancellor not in play',
    () => {
      const s = base();
      s.setup.chancellor = 'merchants';
      return JSON.stringify(s);
    },
  ],
];

describe('sheets of sides with no player (SCENARIOS.md, clarified 2026-11-23)', () => {
  it('a sheet for a faction not in play, or for the Imperial Troops, is ignored, not malformed', () => {
    const plain = base();
    plain.sheets = { hutt: 'B2-C3' };
    const extra = base();
    extra.sheets = { hutt: 'B2-C3', merchants: 'T12-T11\nH: Hutt', imperial: 'N9-M9' };
    const a = runScenario(plain);
    const b = runScenario(extra);
    expect(b).toEqual(a);
    expect(b.units).toContainEqual({ side: 'hutt', at: 'C3' });
  });
});

describe('sf adjudicate (the command line)', () => {
  it('prints one JSON object and exits 0 for a shared scenario, matching its expect block', { timeout: 60_000 }, async () => {
    const first = shared[0];
    expect(first, `no scenario in ${sharedDir}`).toBeDefined();
    if (!first) return;
    const run = await sf(['adjudicate', first.path]);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as Output;
    expect(Array.isArray(out.units)).toBe(true);
    expect(typeof out.edict).toBe('string');
    expect(scenarioProblems(first.scenario.expect, out)).toEqual([]);
  });

  it('the well-formed base used below is accepted', { timeout: 60_000 }, async () => {
    const path = join(tmp, 'base.json');
    writeFileSync(path, JSON.stringify(base()));
    const run = await sf(['adjudicate', path]);
    expect(run.status, run.stderr).toBe(0);
    JSON.parse(run.stdout);
  });

  for (const [what, text] of malformed) {
    it.concurrent(`a malformed scenario (${what}) exits 2 with one line on stderr`, { timeout: 60_000 }, async () => {
      const path = join(tmp, `${what.replace(/[^a-z]+/gi, '-')}.json`);
      writeFileSync(path, text());
      const run = await sf(['adjudicate', path]);
      expect(run.status, `stdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(2);
      const lines = run.stderr.replace(/\r?\n$/, '').split(/\r?\n/);
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]!.trim()).not.toBe('');
    });
  }
});
