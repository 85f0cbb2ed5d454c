// The shared scenario format (../shared/rules/SCENARIOS.md): read, validate, adjudicate, and
// answer in the shape `sf adjudicate` prints. Tests and the CLI share this one code path.
import { z } from 'zod';
import { adjudicate } from './adjudicate.ts';
import { classicMap, type Board } from './map.ts';
import { renderEdict } from './render/edict-text.ts';
import { assertValidState, InvalidStateError } from './state-check.ts';
import { IMPERIAL, type AdjudicationResult, type GameState, type Side } from './types.ts';

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

const scenarioSchema = z.object({
  setup: z.looseObject({
    turn: z.number().int().min(1),
    factions: z.array(z.string()),
    chancellor: z.string().nullable(),
    election: z.boolean(),
    units: z.array(z.looseObject({ side: z.string(), at: z.string() })),
    hostility: z.record(z.string(), z.array(z.string())).optional(),
    gameId: z.string().min(1).optional(),
    victoryPlanets: z.number().int().min(1).optional(),
    nmrHostility: z.enum(['keep', 'none']).optional(),
    lastTurn: z.boolean().optional(),
  }),
  sheets: z.record(z.string(), z.string().nullable()),
});

export interface ScenarioOutput {
  units: { side: Side; at: string }[];
  chancellor: string | null;
  electionNextTurn: boolean;
  winners: string[];
  votes: Record<string, number>;
  planets: Record<string, number>;
  edict: string;
}

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : typeof v === 'undefined'
          ? 'missing'
          : `a ${typeof v}`;

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? issue.path.join('.') : 'scenario';
  if (issue.code === 'invalid_type') {
    if (issue.path.length === 0) return `a scenario is a JSON object, not ${typeOf(issue.input)}`;
    // Needs { reportInput: true }: without it every input looks missing.
    if (issue.input === undefined) return `missing field ${path}`;
    const expected = issue.expected === 'record' ? 'object' : issue.expected;
    return `${path} must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}, not ${typeOf(issue.input)}`;
  }
  return `${path}: ${issue.message}`;
}

// The keys SCENARIOS.md names. Others are ignored (a `why` note…); `unknownKeys` lists them so the
// command can say so on stderr without changing its answer.
const KNOWN_TOP = new Set(['name', 'rules', 'setup', 'sheets', 'expect', 'why', 'map']);
const KNOWN_SETUP = new Set([
  'turn',
  'factions',
  'chancellor',
  'election',
  'units',
  'hostility',
  'gameId',
  'victoryPlanets',
  'nmrHostility',
  'lastTurn',
  'map',
  'why',
]);

export function unknownKeys(raw: unknown): string[] {
  const keys = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : []);
  const setup = (raw as { setup?: unknown } | null)?.setup;
  return [
    ...keys(raw).filter((k) => !KNOWN_TOP.has(k)),
    ...keys(setup)
      .filter((k) => !KNOWN_SETUP.has(k))
      .map((k) => `setup.${k}`),
  ];
}

/** A scenario may name its map; only the classic one exists (R-BOARD-5), so any other is refused, not ignored. */
function checkMap(raw: unknown): void {
  const r = raw as { map?: unknown; setup?: { map?: unknown } };
  for (const [where, map] of [
    ['map', r.map],
    ['setup.map', r.setup?.map],
  ] as const)
    if (map !== undefined && map !== 'classic')
      throw new ScenarioError(`unknown map ${JSON.stringify(map)} in ${where}: the only map is "classic"`);
}

/** Reads a scenario into the engine's terms, or throws ScenarioError with a one-line reason. */
export function readScenario(raw: unknown, board: Board = classicMap()): { state: GameState; sheets: Record<string, string> } {
  const parsed = scenarioSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw new ScenarioError(describeIssue(parsed.error.issues[0]!));
  checkMap(raw);
  const { setup, sheets } = parsed.data;
  const known = (side: string, where: string) => {
    if (side !== IMPERIAL && !board.factions.has(side)) throw new ScenarioError(`unknown faction id "${side}" in ${where}`);
  };
  for (const [f, list] of Object.entries(setup.hostility ?? {})) {
    known(f, 'setup.hostility');
    for (const s of list) known(s, `setup.hostility.${f}`);
  }
  const texts: Record<string, string> = {};
  for (const [f, text] of Object.entries(sheets)) {
    known(f, 'sheets');
    // A side with no player this turn (the Imperial Troops, a faction not in play) sends nothing
    // the engine reads: its sheet is ignored, not an error (SCENARIOS.md, clarified 2026-11-23).
    if (f === IMPERIAL || !setup.factions.includes(f)) continue;
    if (text !== null) texts[f] = text;
  }
  const state: GameState = {
    gameId: setup.gameId ?? 'game',
    turn: setup.turn,
    factions: setup.factions,
    chancellor: setup.chancellor,
    election: setup.election,
    hostility: setup.hostility ?? {},
    units: setup.units.map((u) => ({ side: u.side, at: u.at })),
    // R-WIN-2: `lastTurn: true` makes this turn the game's last.
    settings: {
      victoryPlanets: setup.victoryPlanets ?? 12,
      nmrHostility: setup.nmrHostility ?? 'keep',
      ...(setup.lastTurn ? { lastTurn: setup.turn } : {}),
    },
  };
  try {
    assertValidState(board, state);
  } catch (e) {
    if (e instanceof InvalidStateError) throw new ScenarioError(e.message);
    throw e;
  }
  // Canonical spelling, so that `b 2` in a scenario means B2 everywhere downstream.
  state.units = state.units.map((u) => ({ side: u.side, at: board.name(board.parseCell(u.at)!) }));
  return { state, sheets: texts };
}

function scenarioOutput(result: AdjudicationResult, board: Board): ScenarioOutput {
  const { edict } = result;
  return {
    units: edict.units,
    chancellor: edict.chancellor,
    electionNextTurn: edict.electionNextTurn,
    winners: edict.winners,
    votes: edict.election ? edict.election.tally : {},
    planets: edict.planets,
    edict: renderEdict(edict, board, 'en'),
  };
}

/** The `sf adjudicate` code path, minus reading the file. */
export function runScenario(raw: unknown, board: Board = classicMap()): ScenarioOutput {
  const { state, sheets } = readScenario(raw, board);
  return scenarioOutput(adjudicate(board, state, sheets), board);
}
