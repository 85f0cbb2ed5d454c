// Referee accounts: creating them, setting passwords, assigning them to games, logging in.
// Every change is written to the audit log in the same transaction (who, when, what, why).
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { findGame, type Game } from '../db/games.ts';
import { gameReferees, games, referees, refereeSessions } from '../db/schema.ts';
import { RefereeError } from './errors.ts';
import { dummyHash, hashPassword, oneTimePassword, passwordProblem, verifyPassword } from './passwords.ts';
import { noSuchGame } from '../errors.ts';

export type Referee = typeof referees.$inferSelect;
/** What may leave this module: never the hash. */
export type RefereeView = Pick<Referee, 'id' | 'email'>;

const view = (r: Referee): RefereeView => ({ id: r.id, email: r.email });

const emailSchema = z.email().max(254);

export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) throw new RefereeError('invalid-input', `${JSON.stringify(raw.slice(0, 80))} is not an e-mail address`);
  return email;
}

export async function findRefereeByEmail(db: Db, email: string): Promise<Referee | null> {
  const [row] = await db.select().from(referees).where(eq(referees.email, email.trim().toLowerCase()));
  return row ?? null;
}

/** Creates a referee with a one-time password, returned once and stored only as its hash. */
export async function addReferee(db: Db, rawEmail: string, actor: string): Promise<{ referee: RefereeView; password: string }> {
  const email = normaliseEmail(rawEmail);
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(referees).values({ email, passwordHash }).onConflictDoNothing().returning();
    if (!row) throw new RefereeError('referee-exists', `${email} is a referee already (sf referee passwd sets a new password)`);
    await recordAudit(tx, { actor, gameId: null, action: 'referee.add', detail: { referee: email } });
    return { referee: view(row), password };
  });
}

/** Sets a password: the one given, or a new one-time password (returned). */
export async function setRefereePassword(db: Db, rawEmail: string, actor: string, chosen?: string): Promise<{ referee: RefereeView; password: string | null }> {
  const email = normaliseEmail(rawEmail);
  if (chosen !== undefined) {
    const problem = passwordProblem(chosen);
    if (problem) throw new RefereeError('invalid-input', problem);
  }
  const password = chosen ?? oneTimePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx.update(referees).set({ passwordHash, passwordSetAt: new Date() }).where(eq(referees.email, email)).returning();
    if (!row) throw new RefereeError('no-referee', `${email} is not a referee (sf referee add creates one)`);
    // A new password logs out every browser that knew the old one.
    await tx.delete(refereeSessions).where(eq(refereeSessions.refereeId, row.id));
    await recordAudit(tx, { actor, gameId: null, action: 'referee.passwd', detail: { referee: email } });
    return { referee: view(row), password: chosen === undefined ? password : null };
  });
}

/** Makes a referee one of a game's referees (a game has one or more). */
export async function assignReferee(db: Db, rawGameId: string, rawEmail: string, actor: string): Promise<{ game: Game; referee: RefereeView; added: boolean }> {
  const email = normaliseEmail(rawEmail);
  const gameId = rawGameId.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const game = await findGame(tx, gameId);
    if (!game) throw new RefereeError('no-game', noSuchGame(gameId));
    const referee = await findRefereeByEmail(tx, email);
    if (!referee) throw new RefereeError('no-referee', `${email} is not a referee (sf referee add creates one)`);
    const [row] = await tx.insert(gameReferees).values({ gameId, refereeId: referee.id }).onConflictDoNothing().returning();
    if (row) await recordAudit(tx, { actor, gameId, action: 'referee.assign', detail: { referee: email } });
    return { game, referee: view(referee), added: row !== undefined };
  });
}

/** The referee whose address and password these are, or null (the same work either way). */
export async function authenticate(db: Db, email: string, password: string): Promise<RefereeView | null> {
  const referee = password.length <= 256 ? await findRefereeByEmail(db, email) : null;
  const ok = await verifyPassword(referee?.passwordHash ?? (await dummyHash()), password.slice(0, 256));
  return referee && ok ? view(referee) : null;
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

export async function refereesOfGame(db: Db, gameId: string): Promise<RefereeView[]> {
  const rows = await db
    .select({ referee: referees })
    .from(gameReferees)
    .innerJoin(referees, eq(referees.id, gameReferees.refereeId))
    .where(eq(gameReferees.gameId, gameId))
    .orderBy(asc(referees.email));
  return rows.map((r) => view(r.referee));
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
