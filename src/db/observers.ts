// Observers: people who receive a game's edicts without playing, until they unsubscribe.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from './client.ts';
import { games, observers } from './schema.ts';

export type Observer = typeof observers.$inferSelect;

/** Adds an observer, or subscribes one who had left again; returns the row. */
export async function addObserver(db: Db, gameId: string, email: string, lang: 'it' | 'en'): Promise<Observer> {
  const token = randomBytes(18).toString('base64url');
  const [row] = await db
    .insert(observers)
    .values({ gameId, email: email.trim().toLowerCase(), lang, token })
    .onConflictDoUpdate({ target: [observers.gameId, observers.email], set: { unsubscribedAt: null, lang } })
    .returning();
  return row!;
}

export async function activeObservers(db: Db, gameId: string): Promise<Observer[]> {
  return db
    .select()
    .from(observers)
    .where(and(eq(observers.gameId, gameId), isNull(observers.unsubscribedAt)))
    .orderBy(asc(observers.id));
}

/** One-click unsubscribe (RFC 8058): true when a subscription was ended. */
export async function unsubscribe(db: Db, token: string, at: Date = new Date()): Promise<boolean> {
  const rows = await db
    .update(observers)
    .set({ unsubscribedAt: at })
    .where(and(eq(observers.token, token), isNull(observers.unsubscribedAt)))
    .returning({ id: observers.id });
  return rows.length > 0;
}

/** The subscription a link's token names, with its game's name, or null. */
export async function observerByToken(db: Db, token: string): Promise<{ lang: 'it' | 'en'; gameName: string } | null> {
  const [row] = await db
    .select({ lang: observers.lang, gameName: games.name })
    .from(observers)
    .innerJoin(games, eq(games.id, observers.gameId))
    .where(eq(observers.token, token))
    .limit(1);
  return row ?? null;
}
