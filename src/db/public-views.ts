// Read-only queries for the public pages and the JSON API. Nothing here returns an e-mail address,
// a secret or a word of a sheet (R-EDICT-4, even from an edict stored before it): the Chancellor's accepted sheet is the one exception, and only its
// parsed orders (public once accepted, R-TURN-3, D-WEB-1).
import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import { problemKind } from '../adjudicator/declarations.ts';
import { classicMap } from '../adjudicator/map.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import type { Edict, FactionId, GameState, Side } from '../adjudicator/types.ts';
import type { Db } from './client.ts';
import { absences, edicts, games, players, sheets, turns } from './schema.ts';

export interface GameSummary {
  id: string;
  name: string;
  status: 'active' | 'paused' | 'finished';
  timeZone: string;
  turn: number;
  turnStatus: 'open' | 'adjudicated' | null;
  deadline: Date | null;
  chancellor: FactionId | null;
  factions: FactionId[];
  createdAt: Date;
}

/** Every game with its current turn, in the order they were created. One query. */
export async function gameSummaries(db: Db, onlyId?: string): Promise<GameSummary[]> {
  const rows = await db
    .select({
      id: games.id,
      name: games.name,
      status: games.status,
      timeZone: games.timeZone,
      turn: games.currentTurn,
      createdAt: games.createdAt,
      turnStatus: turns.status,
      deadline: turns.deadline,
      state: turns.state,
    })
    .from(games)
    .leftJoin(turns, and(eq(turns.gameId, games.id), eq(turns.number, games.currentTurn)))
    .where(onlyId === undefined ? undefined : eq(games.id, onlyId))
    .orderBy(asc(games.createdAt), asc(games.id));
  return rows.map((r) => {
    const state = r.state as GameState | null;
    return {
      id: r.id,
      name: r.name,
      status: r.status,
      timeZone: r.timeZone,
      turn: r.turn,
      turnStatus: r.turnStatus,
      deadline: r.deadline,
      chancellor: state?.chancellor ?? null,
      factions: state?.factions ?? [],
      createdAt: r.createdAt,
    };
  });
}

export interface PublicTurn {
  number: number;
  election: boolean;
  state: GameState;
  deadline: Date;
  declarationDeadline: Date;
  status: 'open' | 'adjudicated';
  createdAt: Date;
  adjudicatedAt: Date | null;
}

export async function publicTurn(db: Db, gameId: string, number: number): Promise<PublicTurn | null> {
  const [row] = await db
    .select({
      number: turns.number,
      election: turns.election,
      state: turns.state,
      deadline: turns.deadline,
      declarationDeadline: turns.declarationDeadline,
      status: turns.status,
      createdAt: turns.createdAt,
      adjudicatedAt: turns.adjudicatedAt,
    })
    .from(turns)
    .where(and(eq(turns.gameId, gameId), eq(turns.number, number)));
  return row ? { ...row, state: row.state as GameState } : null;
}

/** Factions and when each entered play (R-SETUP-4); never addresses, names or secrets. */
export async function publicSeats(db: Db, gameId: string): Promise<Array<{ faction: FactionId; joinedTurn: number }>> {
  return db
    .select({ faction: players.faction, joinedTurn: players.joinedTurn })
    .from(players)
    .where(eq(players.gameId, gameId))
    .orderBy(asc(players.id));
}

export interface EdictHeader {
  turn: number;
  version: number;
  reason: string | null;
  createdAt: Date;
}

/** The archive's index: every version of every edict of a game, without their bodies. */
export async function edictHeaders(db: Db, gameId: string, turn?: number): Promise<EdictHeader[]> {
  return db
    .select({ turn: edicts.turn, version: edicts.version, reason: edicts.reason, createdAt: edicts.createdAt })
    .from(edicts)
    .where(turn === undefined ? eq(edicts.gameId, gameId) : and(eq(edicts.gameId, gameId), eq(edicts.turn, turn)))
    .orderBy(asc(edicts.turn), asc(edicts.version));
}

/** When a turn was closed late (the service was down at its deadline): ISO instants. */
export interface ClosedLate {
  deadline: string;
  closedAt: string;
}

export interface PublicEdict extends EdictHeader {
  json: Edict;
  textIt: string;
  textEn: string;
  closedLate: ClosedLate | null;
}

const edictColumns = {
  turn: edicts.turn,
  version: edicts.version,
  reason: edicts.reason,
  createdAt: edicts.createdAt,
  json: edicts.json,
  closedLate: edicts.closedLate,
  textIt: edicts.textIt,
  textEn: edicts.textEn,
};

const PROBLEM_KEYS = new Set(['line', 'code', 'rule']);

/**
 * A stored edict as the public may see it (R-EDICT-4): each problem its line and kind. An edict
 * stored before that rule kept the words of its problems, in its JSON and in its texts: the JSON
 * loses them here and the texts are rendered again from it, as closing the turn rendered them.
 */
function asPublic(stored: Omit<PublicEdict, 'json' | 'closedLate'> & { json: unknown; closedLate: unknown }): PublicEdict {
  const row = { ...stored, closedLate: stored.closedLate as ClosedLate | null };
  const json = row.json as Edict;
  const worded = json.declarations.some((d) => d.problems.some((p) => Object.keys(p).some((k) => !PROBLEM_KEYS.has(k))));
  if (!worded) return { ...row, json };
  const clean: Edict = { ...json, declarations: json.declarations.map((d) => ({ ...d, problems: d.problems.map(problemKind) })) };
  // Only the classic map exists (R-BOARD-5); an edict of another would show no text rather than words.
  const board = clean.map === 'classic' ? classicMap() : null;
  return {
    ...row,
    json: clean,
    textIt: board ? renderEdict(clean, board, 'it') : '',
    textEn: board ? renderEdict(clean, board, 'en') : '',
  };
}

/** One version of a turn's edict, or its newest when version is omitted. */
export async function publicEdict(db: Db, gameId: string, turn: number, version?: number): Promise<PublicEdict | null> {
  const where =
    version === undefined
      ? and(eq(edicts.gameId, gameId), eq(edicts.turn, turn))
      : and(eq(edicts.gameId, gameId), eq(edicts.turn, turn), eq(edicts.version, version));
  const [row] = await db.select(edictColumns).from(edicts).where(where).orderBy(desc(edicts.version)).limit(1);
  return row ? asPublic(row) : null;
}

/** The newest version of the newest edict before this turn: the position the current map shows. */
export async function edictBefore(db: Db, gameId: string, turn: number): Promise<PublicEdict | null> {
  const [row] = await db
    .select(edictColumns)
    .from(edicts)
    .where(and(eq(edicts.gameId, gameId), lt(edicts.turn, turn)))
    .orderBy(desc(edicts.turn), desc(edicts.version))
    .limit(1);
  return row ? asPublic(row) : null;
}

export interface ChancellorDeclaration {
  faction: FactionId;
  receivedAt: Date;
  hostility: Side[];
  /** The orders that apply, canonical (`B2-C3`, `N9#M9`): the parsed sheet, never the mail. */
  orders: string[];
}

interface StoredOrders {
  orders?: Array<{ order: string; applies: boolean }>;
  hostility?: Side[];
}

/**
 * The Chancellor's sheet for a turn once accepted (R-TURN-3: published as soon as accepted and
 * final), as parsed; null before. Only the Chancellor's faction is ever read here.
 */
export async function chancellorDeclaration(
  db: Db,
  gameId: string,
  turn: number,
  chancellor: FactionId | null,
): Promise<ChancellorDeclaration | null> {
  if (!chancellor) return null;
  const [row] = await db
    .select({ parsed: sheets.parsed, receivedAt: sheets.receivedAt })
    .from(sheets)
    .where(and(eq(sheets.gameId, gameId), eq(sheets.turn, turn), eq(sheets.faction, chancellor)))
    .orderBy(asc(sheets.version))
    .limit(1);
  if (!row) return null;
  const parsed = (row.parsed ?? {}) as StoredOrders;
  return {
    faction: chancellor,
    receivedAt: row.receivedAt,
    hostility: Array.isArray(parsed.hostility) ? parsed.hostility.filter((s) => typeof s === 'string') : [],
    orders: Array.isArray(parsed.orders)
      ? parsed.orders.filter((o) => o && o.applies && typeof o.order === 'string').map((o) => o.order)
      : [],
  };
}

export interface PublicAbsence {
  faction: FactionId;
  /** Whole days in the game's zone, `YYYY-MM-DD`. */
  fromDay: string;
  toDay: string;
}

/** Announced absences not over by `today` (YYYY-MM-DD in the game's zone), by faction: no reason, no address. */
export async function publicAbsences(db: Db, gameId: string, today: string): Promise<PublicAbsence[]> {
  return db
    .select({ faction: players.faction, fromDay: absences.fromDay, toDay: absences.toDay })
    .from(absences)
    .innerJoin(players, eq(players.id, absences.playerId))
    .where(and(eq(absences.gameId, gameId), gte(absences.toDay, today)))
    .orderBy(asc(absences.fromDay), asc(players.id));
}
