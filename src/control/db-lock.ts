// One owner for an embedded (PGlite) database directory: two processes that open one PGlite
// directory each believe they own it, and games are lost. Whoever opens it — the service
// for its whole life, a CLI command for the length of the command — first takes this lock.
// proper-lockfile makes the lock (an atomic mkdir, kept fresh while we live, stale once we die);
// the owner file beside it only says who holds it, for the message of whoever has to wait.
import { mkdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { AppError } from '../errors.ts';

type OwnerRole = 'serve' | 'cli';

export interface DbOwner {
  pid: number;
  role: OwnerRole;
  /** What the owner is doing (`sf game create`), for the waiting message. */
  what: string;
}

/** The database is held by another process and we may not (or no longer) wait. */
export class DatabaseBusyError extends AppError {
  override name = 'DatabaseBusyError';
  constructor(
    message: string,
    readonly owner: DbOwner | null,
  ) {
    super('database-busy', message);
  }
}

// A holder refreshes its lock every UPDATE_MS; a lock not refreshed for STALE_MS belongs to a
// process that died (a crash, kill -9) and is taken over. Generous, so that a busy machine or a
// long synchronous PGlite step in the holder never looks like death.
const STALE_MS = 30_000;
const UPDATE_MS = 1_000;
// When the owner file names a process that is gone, a lock not refreshed for a few periods is
// its: a live holder would have refreshed it, and a new holder writes the owner file as soon as
// it has the lock. A service restarted after a crash so waits seconds, not half a minute.
const DEAD_STALE_MS = 3 * UPDATE_MS;

export const lockPaths = (dbDir: string) => ({ lock: `${dbDir}.lock`, owner: `${dbDir}.owner.json` });

/** Who holds the lock, as it said when it took it; null when unknown. */
async function readOwner(dbDir: string): Promise<DbOwner | null> {
  try {
    const o = JSON.parse(await readFile(lockPaths(dbDir).owner, 'utf8')) as Partial<DbOwner>;
    return typeof o.pid === 'number' && (o.role === 'serve' || o.role === 'cli')
      ? { pid: o.pid, role: o.role, what: String(o.what ?? '') }
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether the process that wrote the owner file still runs. Our own pid is not (we do not hold
 * the lock): after a container restart the new service may have the pid the dead one had.
 */
export function ownerAlive(o: DbOwner): boolean {
  if (o.pid === process.pid) return false;
  try {
    process.kill(o.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

export const describeOwner = (o: DbOwner | null): string =>
  o === null
    ? 'another sf process'
    : !ownerAlive(o)
      ? `the lock left by ${o.role === 'serve' ? 'a service' : 'an sf command'} that stopped (pid ${o.pid}) to expire (at most ${DEAD_STALE_MS / 1000} s)`
      : o.role === 'serve'
        ? `the service (pid ${o.pid})`
        : `another sf command (pid ${o.pid}${o.what ? `, ${o.what}` : ''})`;

export interface HeldLock {
  release(): Promise<void>;
}

export interface LockOptions {
  role: OwnerRole;
  what: string;
  /** Tries once more every this many ms while the lock is held (default 200). */
  retryMs?: number;
  /**
   * Called before each new try with the current owner; return false to stop waiting (then
   * DatabaseBusyError). Not given: one try only.
   */
  keepWaiting?: (owner: DbOwner | null, waitedMs: number) => boolean | Promise<boolean>;
  /** A held lock was lost (its directory removed, or taken over after a long stall). */
  onCompromised?: (err: Error) => void;
}

/** Removes a lock whose owner is gone and that nobody refreshes (see DEAD_STALE_MS). */
async function removeIfOwnerGone(dbDir: string): Promise<void> {
  const owner = await readOwner(dbDir);
  if (owner === null || ownerAlive(owner)) return;
  const paths = lockPaths(dbDir);
  const since = await stat(paths.lock).then(
    (s) => Date.now() - s.mtimeMs,
    () => null,
  );
  if (since === null || since < DEAD_STALE_MS) return;
  await rm(paths.owner, { force: true });
  await rmdir(paths.lock).catch(() => {}); // another waiter was first: fine
}

/** Takes the lock on a PGlite directory, waiting while `keepWaiting` says so. */
export async function lockDatabase(dbDir: string, opts: LockOptions): Promise<HeldLock> {
  const paths = lockPaths(dbDir);
  await mkdir(path.dirname(paths.lock), { recursive: true });
  const started = Date.now();
  for (;;) {
    await removeIfOwnerGone(dbDir);
    try {
      const release = await lockfile.lock(dbDir, {
        lockfilePath: paths.lock,
        realpath: false, // the directory may not exist yet: PGlite creates it
        stale: STALE_MS,
        update: UPDATE_MS,
        onCompromised: opts.onCompromised ?? (() => {}),
      });
      const me: DbOwner = { pid: process.pid, role: opts.role, what: opts.what };
      await writeFile(paths.owner, `${JSON.stringify(me)}\n`, { mode: 0o600 });
      return {
        async release() {
          await rm(paths.owner, { force: true });
          await release().catch(() => {}); // already compromised: nothing of ours left to remove
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    }
    const owner = await readOwner(dbDir);
    if (!opts.keepWaiting || !(await opts.keepWaiting(owner, Date.now() - started)))
      throw new DatabaseBusyError(`the database in ${path.dirname(dbDir)} is in use by ${describeOwner(owner)}`, owner);
    await new Promise((r) => setTimeout(r, opts.retryMs ?? 200));
  }
}
