// Referee accounts: creating them, setting passwords, assigning them to games, logging in.
// Every change is written to the audit log in the same transaction (who, when, what, why).
import { and, asc, eq, isNull, ne } from 'drizzle-orm';
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
    const [row] = await tx.insert(referees).values({ email, passwordHash, passwordOneTime: true }).onConflictDoNothing().returning();
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
    const [row] = await tx
      .update(referees)
      .set({ passwordHash, passwordSetAt: new Date(), passwordOneTime: chosen === undefined, oneTimeUsedAt: null })
      .where(eq(referees.email, email))
      .returning();
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

export type LoginOutcome =
  | { kind: 'ok'; referee: RefereeView; mustChangePassword: boolean }
  | { kind: 'wrong' }
  /** The right one-time password, used once already: it logs no one in again. */
  | { kind: 'one-time-used'; referee: RefereeView };

/** Checks an address and password (the same work for an unknown address); a one-time password is spent here. */
export async function authenticate(db: Db, email: string, password: string): Promise<LoginOutcome> {
  const referee = password.length <= 256 ? await findRefereeByEmail(db, email) : null;
  const ok = await verifyPassword(referee?.passwordHash ?? (await dummyHash()), password.slice(0, 256));
  if (!referee || !ok) return { kind: 'wrong' };
  if (!referee.passwordOneTime) return { kind: 'ok', referee: view(referee), mustChangePassword: false };
  // Spent by exactly one login, even when two race, and only while it is still the password checked.
  const [spent] = await db
    .update(referees)
    .set({ oneTimeUsedAt: new Date() })
    .where(and(eq(referees.id, referee.id), eq(referees.passwordHash, referee.passwordHash), isNull(referees.oneTimeUsedAt)))
    .returning({ id: referees.id });
  return spent ? { kind: 'ok', referee: view(referee), mustChangePassword: true } : { kind: 'one-time-used', referee: view(referee) };
}

export type PasswordChange = { kind: 'changed' } | { kind: 'wrong-current' } | { kind: 'refused'; problem: string };

/**
 * A referee sets their own password in the console: the current one checked, the new one stored,
 * every other browser of theirs logged out (the one that changed it stays in).
 */
export async function changePassword(db: Db, refereeId: number, current: string, chosen: string, keepSessionSha256: string): Promise<PasswordChange> {
  const problem = passwordProblem(chosen);
  if (problem) return { kind: 'refused', problem };
  if (chosen === current) return { kind: 'refused', problem: 'the new password must differ from the current one' };
  const [referee] = await db.select().from(referees).where(eq(referees.id, refereeId));
  if (!referee || !(await verifyPassword(referee.passwordHash, current.slice(0, 256)))) return { kind: 'wrong-current' };
  const passwordHash = await hashPassword(chosen);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(referees)
      .set({ passwordHash, passwordSetAt: new Date(), passwordOneTime: false, oneTimeUsedAt: null })
      .where(and(eq(referees.id, refereeId), eq(referees.passwordHash, referee.passwordHash)))
      .returning();
    if (!row) return { kind: 'wrong-current' }; // changed meanwhile (sf referee passwd): the current one is no longer it
    await tx.delete(refereeSessions).where(and(eq(refereeSessions.refereeId, refereeId), ne(refereeSessions.tokenSha256, keepSessionSha256)));
    await recordAudit(tx, { actor: `referee:${row.email}`, gameId: null, action: 'referee.password-change', detail: { referee: row.email } });
    return { kind: 'changed' };
  });
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
