// What the referee console shows of a game, everything a dispute may need (its read model; the public one
// is public-views.ts): every sheet of every player with
// all its versions and the mail behind each, mail set aside as unprocessable, outbox failures and
// the addresses that keep failing, and the audit log. Read-only.
import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { listAudit, type AuditEntry } from './audit.ts';
import type { Db } from './client.ts';
import type { Game } from './games.ts';
import type { InboundHead } from './inbound.ts';
import type { OutboxMail } from './outbox.ts';
import { addressesOfGame, listSeats, type Player } from './players.ts';
import { inboundMessages, outbox, sheets } from './schema.ts';
import type { Sheet } from './sheets.ts';
import { listTurns, type Turn } from './turns.ts';

export interface SheetVersions {
  faction: string;
  versions: Sheet[];
}

export interface GameOverview {
  game: Game;
  /** The seated players, who get the game's mail. */
  players: Player[];
  /** Seats left empty by a removed player (D-SEAT-1), for the referee to give to someone. */
  vacant: Player[];
  /** Every address of each player, by player id, the primary first. */
  addresses: Map<number, string[]>;
  turns: Turn[];
  /** The turn shown (the current one unless asked otherwise). */
  turn: Turn | null;
  sheets: SheetVersions[];
  /** The mail behind each sheet version, without its bytes (they are fetched one at a time). */
  mails: Map<number, InboundHead>;
  unprocessable: InboundHead[];
  outboxProblems: OutboxMail[];
  bouncing: BouncingAddress[];
  audit: AuditEntry[];
}

export interface BouncingAddress {
  address: string;
  failed: number;
  lastError: string | null;
  lastAt: Date;
}

const { raw: _raw, ...headColumns } = getTableColumns(inboundMessages);

export async function gameOverview(db: Db, game: Game, turnNumber?: number): Promise<GameOverview> {
  const [seats, addresses, turns] = await Promise.all([listSeats(db, game.id), addressesOfGame(db, game.id), listTurns(db, game.id)]);
  const players = seats.filter((p) => !p.removedAt);
  const turn = turns.find((t) => t.number === (turnNumber ?? game.currentTurn)) ?? null;
  const rows = turn
    ? await db
        .select()
        .from(sheets)
        .where(and(eq(sheets.gameId, game.id), eq(sheets.turn, turn.number)))
        .orderBy(asc(sheets.faction), asc(sheets.version))
    : [];
  const byFaction = new Map<string, Sheet[]>();
  for (const s of rows) byFaction.set(s.faction, [...(byFaction.get(s.faction) ?? []), s]);
  const inboundIds = rows.flatMap((s) => (s.inboundId === null ? [] : [s.inboundId]));
  const [mails, unprocessable, outboxProblems, bouncing, audit] = await Promise.all([
    inboundIds.length ? db.select(headColumns).from(inboundMessages).where(inArray(inboundMessages.id, inboundIds)) : Promise.resolve([]),
    unprocessableMail(db, game.id),
    db
      .select()
      .from(outbox)
      .where(
        and(eq(outbox.gameId, game.id), or(eq(outbox.status, 'failed'), and(eq(outbox.status, 'pending'), isNotNull(outbox.lastError)))),
      )
      .orderBy(desc(outbox.id))
      .limit(200),
    bouncingAddresses(db, game.id),
    listAudit(db, { gameId: game.id, limit: 200 }),
  ]);
  return {
    game,
    players,
    vacant: seats.filter((p) => p.removedAt),
    addresses,
    turns,
    turn,
    sheets: [...byFaction].map(([faction, versions]) => ({ faction, versions })),
    mails: new Map(mails.map((m) => [m.id, m])),
    unprocessable,
    outboxProblems,
    bouncing,
    audit,
  };
}

/** Mail set aside (D-MAIL-21) for a game; with `null`, the mail that could not be tied to any game. */
export async function unprocessableMail(db: Db, gameId: string | null): Promise<InboundHead[]> {
  return db
    .select(headColumns)
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.outcome, 'unprocessable'),
        gameId === null ? isNull(inboundMessages.gameId) : eq(inboundMessages.gameId, gameId),
      ),
    )
    .orderBy(desc(inboundMessages.id))
    .limit(200);
}

/** Addresses whose mail the server refused for good: the players a referee should reach otherwise. */
export async function bouncingAddresses(db: Db, gameId: string): Promise<BouncingAddress[]> {
  const rows = await db
    .select({
      address: outbox.toAddress,
      failed: sql<number>`count(*)::int`,
      lastAt: sql<string>`max(${outbox.createdAt})`,
      lastError: sql<string | null>`(array_agg(${outbox.lastError} order by ${outbox.id} desc))[1]`,
    })
    .from(outbox)
    .where(and(eq(outbox.gameId, gameId), eq(outbox.status, 'failed')))
    .groupBy(outbox.toAddress)
    .orderBy(asc(outbox.toAddress));
  return rows.map((r) => ({ address: r.address, failed: Number(r.failed), lastError: r.lastError, lastAt: new Date(r.lastAt) }));
}

/**
 * The bytes of one stored mail, if it belongs to this game: behind one of its sheets, or tied to it
 * by intake. Mail set aside and tied to no game is for every referee: only a person can sort it out.
 */
export async function mailOfGame(db: Db, gameId: string, inboundId: number): Promise<Buffer | null> {
  const [row] = await db
    .select({ raw: inboundMessages.raw, gameId: inboundMessages.gameId, outcome: inboundMessages.outcome })
    .from(inboundMessages)
    .where(eq(inboundMessages.id, inboundId));
  if (!row) return null;
  if (row.gameId === gameId || (row.gameId === null && row.outcome === 'unprocessable')) return row.raw;
  return null;
}

/** The first `bytes` bytes of stored mails, by id: enough to read on a page without loading megabytes. */
export async function mailStarts(db: Db, ids: readonly number[], bytes: number): Promise<Map<number, { start: Buffer; size: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: inboundMessages.id,
      size: inboundMessages.size,
      start: sql<Uint8Array>`substring(${inboundMessages.raw} from 1 for ${bytes})`,
    })
    .from(inboundMessages)
    .where(inArray(inboundMessages.id, [...ids]));
  // PGlite answers with a Uint8Array, node-postgres with a Buffer.
  return new Map(rows.map((r) => [r.id, { size: r.size, start: Buffer.isBuffer(r.start) ? r.start : Buffer.from(r.start) }]));
}
