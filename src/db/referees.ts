// Referees, the games they run and their console sessions (the rules — hashing, one-time
// passwords, audit — are src/referee). A session row keeps only the token's sha256.
import { and, asc, eq, gt, isNull, lte, ne } from 'drizzle-orm';
import type { Db } from './client.ts';
import type { Game } from './games.ts';
import { gameReferees, games, referees, refereeSessions } from './schema.ts';

export type Referee = typeof referees.$inferSelect;

export async function findRefereeByEmail(db: Db, email: string): Promise<Referee | null> {
  const [row] = await db.select().from(referees).where(eq(referees.email, email.trim().toLowerCase()));
  return row ?? null;
}

export async function findReferee(db: Db, id: number): Promise<Referee | null> {
  const [row] = await db.select().from(referees).where(eq(referees.id, id));
  return row ?? null;
}

/** A new referee with a one-time password; null when the address is a referee already. */
export async function insertReferee(db: Db, email: string, passwordHash: string): Promise<Referee | null> {
  const [row] = await db.insert(referees).values({ email, passwordHash, passwordOneTime: true }).onConflictDoNothing().returning();
  return row ?? null;
}

/** Sets the password of the referee with this address, unspent; null when there is none. */
export async function resetRefereePassword(
  db: Db,
  email: string,
  passwordHash: string,
  oneTime: boolean,
  at: Date = new Date(),
): Promise<Referee | null> {
  const [row] = await db
    .update(referees)
    .set({ passwordHash, passwordSetAt: at, passwordOneTime: oneTime, oneTimeUsedAt: null })
    .where(eq(referees.email, email))
    .returning();
  return row ?? null;
}

/**
 * Replaces a referee's password with one of their own, only while `currentHash` is still theirs:
 * null when it changed meanwhile.
 */
export async function replaceRefereePassword(
  db: Db,
  refereeId: number,
  currentHash: string,
  passwordHash: string,
  at: Date = new Date(),
): Promise<Referee | null> {
  const [row] = await db
    .update(referees)
    .set({ passwordHash, passwordSetAt: at, passwordOneTime: false, oneTimeUsedAt: null })
    .where(and(eq(referees.id, refereeId), eq(referees.passwordHash, currentHash)))
    .returning();
  return row ?? null;
}

/** Marks a one-time password used, once: false when it was already, or is no longer the password (`hash`). */
export async function spendOneTimePassword(db: Db, refereeId: number, hash: string, at: Date = new Date()): Promise<boolean> {
  const [spent] = await db
    .update(referees)
    .set({ oneTimeUsedAt: at })
    .where(and(eq(referees.id, refereeId), eq(referees.passwordHash, hash), isNull(referees.oneTimeUsedAt)))
    .returning({ id: referees.id });
  return spent !== undefined;
}

/** Makes a referee one of a game's; false when they were already. */
export async function addGameReferee(db: Db, gameId: string, refereeId: number): Promise<boolean> {
  const [row] = await db.insert(gameReferees).values({ gameId, refereeId }).onConflictDoNothing().returning();
  return row !== undefined;
}

/** The games a referee runs, by id. */
export async function gamesOfReferee(db: Db, refereeId: number): Promise<Game[]> {
  const rows = await db
    .select({ game: games })
    .from(gameReferees)
    .innerJoin(games, eq(games.id, gameReferees.gameId))
    .where(eq(gameReferees.refereeId, refereeId))
    .orderBy(asc(games.id));
  return rows.map((r) => r.game);
}

/** A game's referees, by address. */
export async function refereesOfGame(db: Db, gameId: string): Promise<Referee[]> {
  const rows = await db
    .select({ referee: referees })
    .from(gameReferees)
    .innerJoin(referees, eq(referees.id, gameReferees.refereeId))
    .where(eq(gameReferees.gameId, gameId))
    .orderBy(asc(referees.email));
  return rows.map((r) => r.referee);
}

/** The game, if this referee runs it; otherwise the same answer as for no game at all. */
export async function refereedGame(db: Db, refereeId: number, gameId: string): Promise<Game | null> {
  const [row] = await db
    .select({ game: games })
    .from(gameReferees)
    .innerJoin(games, eq(games.id, gameReferees.gameId))
    .where(and(eq(gameReferees.refereeId, refereeId), eq(gameReferees.gameId, gameId)));
  return row?.game ?? null;
}

/** A new session, by the sha256 of its token; expired sessions go as new ones come. */
export async function insertSession(db: Db, tokenSha256: string, refereeId: number, expiresAt: Date, now: Date): Promise<void> {
  await db.delete(refereeSessions).where(lte(refereeSessions.expiresAt, now));
  await db.insert(refereeSessions).values({ tokenSha256, refereeId, expiresAt });
}

/** The referee of a live session, and whether their password is a one-time one. */
export async function sessionRefereeOf(
  db: Db,
  tokenSha256: string,
  now: Date,
): Promise<{ id: number; email: string; mustChangePassword: boolean } | null> {
  const [row] = await db
    .select({ id: referees.id, email: referees.email, mustChangePassword: referees.passwordOneTime })
    .from(refereeSessions)
    .innerJoin(referees, eq(referees.id, refereeSessions.refereeId))
    .where(and(eq(refereeSessions.tokenSha256, tokenSha256), gt(refereeSessions.expiresAt, now)));
  return row ?? null;
}

export async function deleteSession(db: Db, tokenSha256: string): Promise<void> {
  await db.delete(refereeSessions).where(eq(refereeSessions.tokenSha256, tokenSha256));
}

/** Logs a referee out everywhere, or everywhere but the session `keepSha256`. */
export async function deleteSessionsOf(db: Db, refereeId: number, keepSha256?: string): Promise<void> {
  await db
    .delete(refereeSessions)
    .where(
      keepSha256 === undefined
        ? eq(refereeSessions.refereeId, refereeId)
        : and(eq(refereeSessions.refereeId, refereeId), ne(refereeSessions.tokenSha256, keepSha256)),
    );
}
