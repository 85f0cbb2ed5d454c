// Referee accounts: creating them, setting passwords, assigning them to games, logging in.
// Every change is written to the audit log in the same transaction (who, when, what, why).
import { z } from 'zod';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { findGame, type Game } from '../db/games.ts';
import {
  addGameReferee,
  deleteSessionsOf,
  findReferee,
  findRefereeByEmail,
  insertReferee,
  refereesOfGame as refereeRowsOfGame,
  replaceRefereePassword,
  resetRefereePassword,
  spendOneTimePassword,
  type Referee,
} from '../db/referees.ts';
import { RefereeError } from './errors.ts';
import { dummyHash, hashPassword, oneTimePassword, passwordProblem, verifyPassword } from './passwords.ts';
import { noSuchGame } from '../errors.ts';

export type { Referee };
/** What may leave this module: never the hash. */
export type RefereeView = Pick<Referee, 'id' | 'email'>;

const view = (r: Referee): RefereeView => ({ id: r.id, email: r.email });

const emailSchema = z.email().max(254);

export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success)
    throw new RefereeError('invalid-input', `${JSON.stringify(raw.slice(0, 80))} is not an e-mail address`);
  return email;
}

/** Creates a referee with a one-time password, returned once and stored only as its hash. */
export async function addReferee(db: Db, rawEmail: string, actor: string): Promise<{ referee: RefereeView; password: string }> {
  const email = normaliseEmail(rawEmail);
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await insertReferee(tx, email, passwordHash);
    if (!row) throw new RefereeError('referee-exists', `${email} is a referee already (sf referee passwd sets a new password)`);
    await recordAudit(tx, { actor, gameId: null, action: 'referee.add', detail: { referee: email } });
    return { referee: view(row), password };
  });
}

/** Sets a password: the one given, or a new one-time password (returned). */
export async function setRefereePassword(
  db: Db,
  rawEmail: string,
  actor: string,
  chosen?: string,
): Promise<{ referee: RefereeView; password: string | null }> {
  const email = normaliseEmail(rawEmail);
  if (chosen !== undefined) {
    const problem = passwordProblem(chosen);
    if (problem) throw new RefereeError('invalid-input', problem);
  }
  const password = chosen ?? oneTimePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await resetRefereePassword(tx, email, passwordHash, chosen === undefined);
    if (!row) throw new RefereeError('no-referee', `${email} is not a referee (sf referee add creates one)`);
    // A new password logs out every browser that knew the old one.
    await deleteSessionsOf(tx, row.id);
    await recordAudit(tx, { actor, gameId: null, action: 'referee.passwd', detail: { referee: email } });
    return { referee: view(row), password: chosen === undefined ? password : null };
  });
}

/** Makes a referee one of a game's referees (a game has one or more). */
export async function assignReferee(
  db: Db,
  rawGameId: string,
  rawEmail: string,
  actor: string,
): Promise<{ game: Game; referee: RefereeView; added: boolean }> {
  const email = normaliseEmail(rawEmail);
  const gameId = rawGameId.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const game = await findGame(tx, gameId);
    if (!game) throw new RefereeError('no-game', noSuchGame(gameId));
    const referee = await findRefereeByEmail(tx, email);
    if (!referee) throw new RefereeError('no-referee', `${email} is not a referee (sf referee add creates one)`);
    const added = await addGameReferee(tx, gameId, referee.id);
    if (added) await recordAudit(tx, { actor, gameId, action: 'referee.assign', detail: { referee: email } });
    return { game, referee: view(referee), added };
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
  const spent = await spendOneTimePassword(db, referee.id, referee.passwordHash);
  return spent ? { kind: 'ok', referee: view(referee), mustChangePassword: true } : { kind: 'one-time-used', referee: view(referee) };
}

export type PasswordChange = { kind: 'changed' } | { kind: 'wrong-current' } | { kind: 'refused'; problem: string };

/**
 * A referee sets their own password in the console: the current one checked, the new one stored,
 * every other browser of theirs logged out (the one that changed it stays in).
 */
export async function changePassword(
  db: Db,
  refereeId: number,
  current: string,
  chosen: string,
  keepSessionSha256: string,
): Promise<PasswordChange> {
  const problem = passwordProblem(chosen);
  if (problem) return { kind: 'refused', problem };
  if (chosen === current) return { kind: 'refused', problem: 'the new password must differ from the current one' };
  const referee = await findReferee(db, refereeId);
  if (!referee || !(await verifyPassword(referee.passwordHash, current.slice(0, 256)))) return { kind: 'wrong-current' };
  const passwordHash = await hashPassword(chosen);
  return db.transaction(async (tx) => {
    const row = await replaceRefereePassword(tx, refereeId, referee.passwordHash, passwordHash);
    if (!row) return { kind: 'wrong-current' }; // changed meanwhile (sf referee passwd): the current one is no longer it
    await deleteSessionsOf(tx, refereeId, keepSessionSha256);
    await recordAudit(tx, {
      actor: `referee:${row.email}`,
      gameId: null,
      action: 'referee.password-change',
      detail: { referee: row.email },
    });
    return { kind: 'changed' };
  });
}

export async function refereesOfGame(db: Db, gameId: string): Promise<RefereeView[]> {
  return (await refereeRowsOfGame(db, gameId)).map(view);
}
