// Referee accounts: passwords only as argon2id hashes, one-time passwords (one login only), sessions stored as
// digests, a new password ending every session, and every change in the audit log.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../../src/db/audit.ts';
import { refereeSessions, referees } from '../../src/db/schema.ts';
import { gamesOfReferee } from '../../src/db/referees.ts';
import { addReferee, assignReferee, authenticate, changePassword, setRefereePassword } from '../../src/referee/accounts.ts';
import { RefereeError } from '../../src/referee/errors.ts';
import { createSession, endSession, sessionDigest, sessionReferee, SESSION_TTL_MS } from '../../src/referee/sessions.ts';
import { databasePerFile } from '../harness/pglite.ts';
import { gameWithReferee } from './world.ts';

const dbs = databasePerFile();

describe('referee accounts', () => {
  it('stores an argon2id hash, never the password, and logs in with the one-time password', async () => {
    const { db } = await dbs.fresh();
    const { referee, password } = await addReferee(db, ' Ref@Example.ORG ', 'cli:test');
    expect(referee.email).toBe('ref@example.org');
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const [row] = await db.select().from(referees).where(eq(referees.id, referee.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
    expect(row!.passwordHash).not.toContain(password);
    expect(JSON.stringify(await listAudit(db))).not.toContain(password);
    expect(await authenticate(db, 'ref@example.org', `${password}x`)).toEqual({ kind: 'wrong' });
    expect(await authenticate(db, 'nobody@example.org', password)).toEqual({ kind: 'wrong' });
    expect(await authenticate(db, 'ref@example.org', 'x'.repeat(10_000))).toEqual({ kind: 'wrong' });
    expect(await authenticate(db, 'REF@example.org', password)).toEqual({
      kind: 'ok',
      referee: { id: referee.id, email: 'ref@example.org' },
      mustChangePassword: true,
    });
  });

  it('lets a one-time password in once only, even when two logins race', async () => {
    const { db } = await dbs.fresh();
    const { referee, password } = await addReferee(db, 'ref@example.org', 'cli:test');
    const both = await Promise.all([authenticate(db, 'ref@example.org', password), authenticate(db, 'ref@example.org', password)]);
    expect(both.map((o) => o.kind).sort()).toEqual(['ok', 'one-time-used']);
    expect(await authenticate(db, 'ref@example.org', password)).toEqual({
      kind: 'one-time-used',
      referee: { id: referee.id, email: 'ref@example.org' },
    });
    // A session made with it is held to setting a new password first.
    const { token } = await createSession(db, referee.id);
    expect(await sessionReferee(db, token)).toMatchObject({ mustChangePassword: true });
    // A new one-time password from the CLI works once again.
    const fresh = await setRefereePassword(db, 'ref@example.org', 'cli:test');
    expect(await authenticate(db, 'ref@example.org', fresh.password!)).toMatchObject({ kind: 'ok', mustChangePassword: true });
    expect(await authenticate(db, 'ref@example.org', fresh.password!)).toMatchObject({ kind: 'one-time-used' });
  });

  it('changes a password in the console: current one checked, other sessions ended, the changing one kept', async () => {
    const { db } = await dbs.fresh();
    const { referee, password } = await addReferee(db, 'ref@example.org', 'cli:test');
    const mine = await createSession(db, referee.id);
    const other = await createSession(db, referee.id);
    const keep = sessionDigest(mine.token);
    expect(await changePassword(db, referee.id, 'not it at all', 'a long enough passphrase', keep)).toEqual({ kind: 'wrong-current' });
    expect(await changePassword(db, referee.id, password, 'short', keep)).toMatchObject({ kind: 'refused' });
    expect(await changePassword(db, referee.id, password, password, keep)).toMatchObject({ kind: 'refused' });
    expect(await changePassword(db, referee.id, password, 'a long enough passphrase', keep)).toEqual({ kind: 'changed' });
    expect(await sessionReferee(db, mine.token)).toEqual({ id: referee.id, email: 'ref@example.org', mustChangePassword: false });
    expect(await sessionReferee(db, other.token)).toBeNull();
    expect(await authenticate(db, 'ref@example.org', password)).toEqual({ kind: 'wrong' });
    expect(await authenticate(db, 'ref@example.org', 'a long enough passphrase')).toMatchObject({ kind: 'ok', mustChangePassword: false });
    expect((await listAudit(db, { action: 'referee.password-change' })).map((e) => [e.actor, e.detail])).toEqual([
      ['referee:ref@example.org', { referee: 'ref@example.org' }],
    ]);
  });

  it('refuses a second account for one address, and a bad address', async () => {
    const { db } = await dbs.fresh();
    await addReferee(db, 'ref@example.org', 'cli:test');
    await expect(addReferee(db, 'REF@example.org', 'cli:test')).rejects.toMatchObject({ code: 'referee-exists' });
    await expect(addReferee(db, 'not an address', 'cli:test')).rejects.toBeInstanceOf(RefereeError);
  });

  it('sets a new password (chosen or one-time) and logs out every session of the old one', async () => {
    const { db } = await dbs.fresh();
    const { referee, password } = await addReferee(db, 'ref@example.org', 'cli:test');
    const { token } = await createSession(db, referee.id);
    expect(await sessionReferee(db, token)).toEqual({ ...referee, mustChangePassword: true });
    await expect(setRefereePassword(db, 'ref@example.org', 'cli:test', 'short')).rejects.toMatchObject({ code: 'invalid-input' });
    const chosen = await setRefereePassword(db, 'ref@example.org', 'cli:test', 'a long enough passphrase');
    expect(chosen.password).toBeNull();
    expect(await sessionReferee(db, token)).toBeNull();
    expect(await authenticate(db, 'ref@example.org', password)).toEqual({ kind: 'wrong' });
    expect(await authenticate(db, 'ref@example.org', 'a long enough passphrase')).toMatchObject({ kind: 'ok', mustChangePassword: false });
    const fresh = await setRefereePassword(db, 'ref@example.org', 'cli:test');
    expect(await authenticate(db, 'ref@example.org', fresh.password!)).toMatchObject({ kind: 'ok', mustChangePassword: true });
    await expect(setRefereePassword(db, 'nobody@example.org', 'cli:test')).rejects.toMatchObject({ code: 'no-referee' });
    expect((await listAudit(db)).map((e) => e.action)).toEqual(['referee.passwd', 'referee.passwd', 'referee.add']);
  });

  it('keeps only a digest of the session token; sessions expire and end', async () => {
    const { db } = await dbs.fresh();
    const { referee } = await addReferee(db, 'ref@example.org', 'cli:test');
    const now = new Date('2026-03-02T10:00:00Z');
    const { token } = await createSession(db, referee.id, now);
    const rows = await db.select().from(refereeSessions);
    expect(rows.map((r) => r.tokenSha256)).not.toContain(token);
    expect(await sessionReferee(db, token, new Date(now.getTime() + SESSION_TTL_MS - 1))).toEqual({ ...referee, mustChangePassword: true });
    expect(await sessionReferee(db, token, new Date(now.getTime() + SESSION_TTL_MS))).toBeNull();
    await endSession(db, token);
    expect(await sessionReferee(db, token, now)).toBeNull();
  });

  it('assigns referees to games: one or more per game, each sees their own', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'one@x.org');
    const { referee: two } = await addReferee(db, 'two@x.org', 'cli:test');
    expect((await assignReferee(db, gameId, 'two@x.org', 'cli:test')).added).toBe(true);
    expect((await assignReferee(db, gameId, 'TWO@x.org', 'cli:test')).added).toBe(false);
    expect((await gamesOfReferee(db, two.id)).map((g) => g.id)).toEqual([gameId]);
    await expect(assignReferee(db, 'nope', 'two@x.org', 'cli:test')).rejects.toMatchObject({ code: 'no-game' });
    await expect(assignReferee(db, gameId, 'three@x.org', 'cli:test')).rejects.toMatchObject({ code: 'no-referee' });
    expect((await listAudit(db, { gameId, action: 'referee.assign' })).map((e) => e.detail)).toEqual([
      { referee: 'two@x.org' },
      { referee: 'one@x.org' },
    ]);
  });
});
