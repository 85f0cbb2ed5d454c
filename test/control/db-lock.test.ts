// The lock on an embedded database directory: one holder at a time, who it is said to whoever
// waits, and a lock left by a process that is gone taken over — but never a live holder's.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseBusyError, describeOwner, lockDatabase, lockPaths } from '../../src/control/db-lock.ts';

let dir: string;
let db: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sf-lock-'));
  db = join(dir, 'db');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A pid that certainly belonged to a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

/** A lock as another process would have left it, refreshed `ageMs` ago. */
async function foreignLock(pid: number, role: 'serve' | 'cli', ageMs: number) {
  const paths = lockPaths(db);
  await mkdir(paths.lock);
  await writeFile(paths.owner, JSON.stringify({ pid, role, what: role === 'cli' ? 'sf game create' : 'sf serve' }));
  const then = new Date(Date.now() - ageMs);
  await utimes(paths.lock, then, then);
}

describe('the database lock', () => {
  it('has one holder; the next one is told who holds it, and gets it once released', async () => {
    const first = await lockDatabase(db, { role: 'serve', what: 'sf serve' });
    expect(JSON.parse(await readFile(lockPaths(db).owner, 'utf8'))).toEqual({ pid: process.pid, role: 'serve', what: 'sf serve' });
    const err = await lockDatabase(db, { role: 'cli', what: 'sf game list' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseBusyError);
    // Our own pid counts as gone (we are not the holder after a restart); the holder's role is kept.
    expect((err as DatabaseBusyError).owner).toMatchObject({ pid: process.pid, role: 'serve' });
    await first.release();
    expect(existsSync(lockPaths(db).lock)).toBe(false);
    expect(existsSync(lockPaths(db).owner)).toBe(false);
    const second = await lockDatabase(db, { role: 'cli', what: 'sf game list' });
    await second.release();
  });

  it('waits while keepWaiting says so, and is told the time waited', async () => {
    const first = await lockDatabase(db, { role: 'cli', what: 'sf game create' });
    const waits: number[] = [];
    const second = lockDatabase(db, {
      role: 'cli',
      what: 'sf ingest',
      retryMs: 10,
      keepWaiting: async (_owner, waited) => {
        waits.push(waited);
        if (waits.length === 3) await first.release();
        return true;
      },
    });
    await (await second).release();
    expect(waits.length).toBeGreaterThanOrEqual(3);
  });

  it('takes over a lock whose owner is gone once it is no longer refreshed', async () => {
    const pid = deadPid();
    await foreignLock(pid, 'serve', 4_000);
    expect(describeOwner({ pid, role: 'serve', what: '' })).toContain(`that stopped (pid ${pid})`);
    const lock = await lockDatabase(db, { role: 'serve', what: 'sf serve' });
    await lock.release();
  });

  it('never takes a live owner’s lock that is still fresh, even when it is a few seconds old', async () => {
    await foreignLock(process.ppid, 'cli', 11_000); // our parent runs: a live owner
    const err = await lockDatabase(db, { role: 'cli', what: 'sf game list' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseBusyError);
    expect((err as Error).message).toContain(`another sf command (pid ${process.ppid}, sf game create)`);
  });

  it('a gone owner’s lock refreshed a moment ago is left alone: it may be a new holder’s', async () => {
    await foreignLock(deadPid(), 'cli', 0);
    await expect(lockDatabase(db, { role: 'cli', what: 'sf game list' })).rejects.toBeInstanceOf(DatabaseBusyError);
  });
});
