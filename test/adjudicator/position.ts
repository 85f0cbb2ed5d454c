// Small positions for engine tests: `pos({ hutt: ['M4'], aristocrats: ['O4'] }, { chancellor: 'sith' })`
// gives a legal GameState on the classic map with every faction's 3 starting units (R-SETUP-2)
// added unless told otherwise, and `play` adjudicates it with helpers to read the result.
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { classicMap } from '../../src/adjudicator/map.ts';
import {
  IMPERIAL,
  type AdjudicationResult,
  type Edict,
  type FactionId,
  type GameState,
  type OrderOutcome,
  type Side,
} from '../../src/adjudicator/types.ts';

export const board = classicMap();

export interface PosOptions {
  /** Factions in play. Default: the R-SETUP-1 prefix covering every faction named, at least 4. */
  factions?: FactionId[];
  chancellor?: FactionId | null;
  /** Default 5 (a mid-game turn, not an election). */
  turn?: number;
  election?: boolean;
  /** Hostility in force from the previous turn (used by NMR, R-TURN-5). */
  hostility?: Record<FactionId, Side[]>;
  /** Add the 3 starting units of each faction in play (true, default), of the listed ones, or none. */
  homes?: boolean | FactionId[];
  gameId?: string;
  victoryPlanets?: number;
  nmrHostility?: 'keep' | 'none';
  joining?: FactionId[];
  /** The game's last turn (R-WIN-2); default none. */
  lastTurn?: number | null;
}

/** Cells are written as in sheets (`m4`, `b 2` are fine); the state carries canonical names. */
export function pos(units: Partial<Record<Side, string[]>>, opts: PosOptions = {}): GameState {
  const named = new Set<FactionId>();
  for (const side of Object.keys(units)) if (side !== IMPERIAL) named.add(side);
  if (opts.chancellor) named.add(opts.chancellor);
  for (const [f, list] of Object.entries(opts.hostility ?? {})) {
    named.add(f);
    for (const s of list) if (s !== IMPERIAL) named.add(s);
  }
  const last = Math.max(3, ...[...named].map((f) => board.factionIds.indexOf(f)));
  const factions = opts.factions ?? board.factionIds.slice(0, last + 1);
  for (const f of named) if (!board.factionIds.includes(f)) throw new Error(`pos: unknown faction ${f}`);

  const taken = new Map<string, Side>();
  const put = (side: Side, text: string) => {
    const cell = board.parseCell(text);
    if (cell === null) throw new Error(`pos: ${text} is off the board`);
    const name = board.name(cell);
    if (taken.has(name)) throw new Error(`pos: two units on ${name}`);
    taken.set(name, side);
  };
  for (const [side, cells] of Object.entries(units)) for (const c of cells ?? []) put(side, c);
  const homes = opts.homes ?? true;
  const withHomes = homes === true ? factions : homes === false ? [] : homes;
  for (const f of withHomes) {
    for (const c of board.startingCells(f)) if (!taken.has(board.name(c))) taken.set(board.name(c), f);
  }
  return {
    gameId: opts.gameId ?? 'game',
    turn: opts.turn ?? 5,
    factions,
    chancellor: opts.chancellor ?? null,
    election: opts.election ?? false,
    hostility: opts.hostility ?? {},
    units: [...taken].map(([at, side]) => ({ side, at })),
    settings: {
      victoryPlanets: opts.victoryPlanets ?? 12,
      nmrHostility: opts.nmrHostility ?? 'keep',
      ...(opts.lastTurn !== undefined ? { lastTurn: opts.lastTurn } : {}),
    },
    ...(opts.joining ? { joining: opts.joining } : {}),
  };
}

export interface Played extends AdjudicationResult {
  /** Final position: canonical cell → side. */
  at: Map<string, Side>;
  /** The outcome of the order written as `order` (canonical, e.g. `M4-M5`); throws unless exactly one. */
  outcome(order: string): OrderOutcome;
}

export function play(state: GameState, sheets: Partial<Record<FactionId, string>> = {}): Played {
  const result = adjudicate(board, state, sheets);
  const at = new Map(result.edict.units.map((u) => [u.at, u.side] as const));
  return {
    ...result,
    at,
    outcome(order: string) {
      const found = allOutcomes(result.edict).filter((o) => o.order === order);
      if (found.length !== 1) throw new Error(`${found.length} outcomes for ${order}`);
      return found[0]!;
    },
  };
}

export function allOutcomes(edict: Edict): OrderOutcome[] {
  return edict.declarations.flatMap((d) => d.orders);
}

/** The final units that are not on a starting cell of their own side: what a test usually moved. */
export function awayFromHome(edict: Edict): Record<string, Side> {
  const out: Record<string, Side> = {};
  for (const u of edict.units) {
    const home = u.side !== IMPERIAL && board.startingCells(u.side).some((c) => board.name(c) === u.at);
    if (!home) out[u.at] = u.side;
  }
  return out;
}
