// Console sessions: the cookie carries a random token; the database keeps only its sha256, so a
// copy of the database logs no one in. Sessions expire; logging out deletes the row.
import { hash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { deleteSession, insertSession, sessionRefereeOf } from '../db/referees.ts';
import type { RefereeView } from './accounts.ts';

export const SESSION_TTL_MS = 12 * 3_600_000;

/** The session's key in the table. */
export const sessionDigest = (token: string) => hash('sha256', token, 'hex');
const digest = sessionDigest;

/** The referee of a session, and whether they must set a password before anything else (a one-time one was used). */
export type SessionReferee = RefereeView & { mustChangePassword: boolean };

export async function createSession(db: Db, refereeId: number, now: Date = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(db, digest(token), refereeId, expiresAt, now);
  return { token, expiresAt };
}

/** The referee of a live session, or null. Tokens of the wrong shape are not worth a query. */
export async function sessionReferee(db: Db, token: string | undefined, now: Date = new Date()): Promise<SessionReferee | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return sessionRefereeOf(db, digest(token), now);
}

export async function endSession(db: Db, token: string | undefined): Promise<void> {
  if (!token) return;
  await deleteSession(db, digest(token));
}
