// Games: one row per game, with its settings and the number of the open turn.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from './client.ts';
import { games } from './schema.ts';

export type Game = typeof games.$inferSelect;
export type NewGame = typeof games.$inferInsert;

/** Null when a game with that id exists already. */
export async function insertGame(db: Db, game: NewGame): Promise<Game | null> {
  const [row] = await db.insert(games).values(game).onConflictDoNothing({ target: games.id }).returning();
  return row ?? null;
}

export async function findGame(db: Db, id: string): Promise<Game | null> {
  const [row] = await db.select().from(games).where(eq(games.id, id));
  return row ?? null;
}

export async function findGames(db: Db, ids: string[]): Promise<Game[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(games)
    .where(inArray(games.id, [...new Set(ids)]));
}

/**
 * The game row locked until the transaction ends. Lock order everywhere: game, then turn, so
 * that joining, adjudicating and opening the next turn never deadlock each other.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: the id never changes, and a full lock would also block the
 * key-share lock that every insert referencing the game takes (outbox, inbound). Intake holds a
 * turn's lock while it writes such rows, so a join waiting on that turn with the game fully locked
 * would deadlock with it.
 */
export async function lockGame(tx: Db, id: string): Promise<Game | null> {
  const [row] = await tx.select().from(games).where(eq(games.id, id)).for('no key update');
  return row ?? null;
}

export async function listGames(db: Db): Promise<Game[]> {
  return db.select().from(games).orderBy(games.createdAt, games.id);
}

export async function updateGame(
  db: Db,
  id: string,
  change: Partial<Pick<Game, 'status' | 'currentTurn' | 'pausedAt' | 'lastTurn' | 'pressSettings'>>,
): Promise<Game | null> {
  const [row] = await db.update(games).set(change).where(eq(games.id, id)).returning();
  return row ?? null;
}
