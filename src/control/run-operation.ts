// How an `sf` command runs an operation. On PostgreSQL it opens the database itself (many
// openers are fine there). On the embedded database exactly one process may open it: the
// running service is asked over its control socket; with no service, the command takes the
// lock, opens the database, runs the operation, closes and lets go — waiting, with one line on
// stderr, while another command holds it.
import { stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { describeStartupError, StartupError } from '../startup-errors.ts';
import { receiveMail } from '../mail/intake/receive.ts';
import { intakeDeps } from '../mail/intake/intake-deps.ts';
import { DatabaseBusyError, describeOwner, lockDatabase, ownerAlive, type DbOwner } from './db-lock.ts';
import { OperationError, runOperation } from './operations.ts';
import { callControl, NoServiceError, socketPath } from './socket.ts';

export interface RunOptions {
  /** The command, for the owner file and the waiting message: `sf game create`. */
  what: string;
  log: Logger;
  /** How long to wait for another command before giving up (default 2 minutes). */
  maxWaitMs?: number;
  /** After this long without an answer from the service, say that we wait for it (default 10 s). */
  slowAnswerMs?: number;
  /** Where the one "waiting for …" line goes (default stderr). */
  say?: (line: string) => void;
}

function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli:unknown'; // no passwd entry (some containers): the audit row still says it came from the CLI
  }
}

/** Runs the operation here, on a database this process may open. */
async function runHere(config: Config, name: string, args: unknown, log: Logger): Promise<unknown> {
  // A database that cannot be opened is said as `sf serve` says it, naming the variable to change
  // (DATABASE_URL, DATA_DIR), not as the driver's ECONNREFUSED.
  const database = await openDatabase(config).catch((err: unknown) => {
    throw new StartupError(describeStartupError(err, config));
  });
  try {
    const deps = intakeDeps(config, database, log);
    return await runOperation({ db: database.db, config, log, actor: cliActor(), receive: (m) => receiveMail(deps, m) }, name, args);
  } finally {
    await database.close();
  }
}

/** Whether a service answers on the socket (an error it answers with counts; a broken connection does not). */
async function serviceAnswers(file: string): Promise<boolean> {
  try {
    await callControl(file, 'game.list', {}, cliActor());
    return true;
  } catch (err) {
    return err instanceof OperationError;
  }
}

/** DATA_DIR must be a directory (or not exist yet): a file there is said so, not as the socket's ENOTDIR. */
async function checkDataDir(dir: string): Promise<void> {
  const info = await stat(dir).catch((err: unknown) => {
    if ((err as { code?: string }).code === 'ENOTDIR')
      throw new AppError('config', `DATA_DIR ${dir} lies below a file, not a directory: set DATA_DIR to a directory`);
    return null;
  });
  if (info && !info.isDirectory()) throw new AppError('config', `DATA_DIR ${dir} is a file, not a directory: set DATA_DIR to a directory`);
}

export async function performOperation(config: Config, name: string, args: unknown, opts: RunOptions): Promise<unknown> {
  if (config.database.kind !== 'pglite' || config.database.dataDir.includes('://')) return runHere(config, name, args, opts.log);
  await checkDataDir(config.dataDir);
  const dbDir = config.database.dataDir;
  const file = socketPath(config.dataDir);
  const say = opts.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const maxWaitMs = opts.maxWaitMs ?? 120_000;
  let told = '';
  for (;;) {
    // A service that takes long to answer (a turn being adjudicated, a slow disk) is waited for,
    // but not in silence.
    const slow = setTimeout(() => say('waiting for the service to answer …'), opts.slowAnswerMs ?? 10_000);
    try {
      return await callControl(file, name, args, cliActor());
    } catch (err) {
      if (!(err instanceof NoServiceError)) throw err;
    } finally {
      clearTimeout(slow);
    }
    let serviceCameUp = false;
    let lastProbe = 0;
    const keepWaiting = async (owner: DbOwner | null, waited: number): Promise<boolean> => {
      const who = describeOwner(owner);
      if (who !== told) {
        told = who;
        const alive = owner !== null && ownerAlive(owner);
        say(`waiting for ${who}${!alive ? '' : owner.role === 'serve' ? ' to start' : ' to finish'} …`);
      }
      // The holder may be a service still starting: once its socket answers, go through it.
      if (waited - lastProbe >= 1_000) {
        lastProbe = waited;
        if (await serviceAnswers(file)) return !(serviceCameUp = true);
      }
      return waited < maxWaitMs;
    };
    let lock;
    try {
      lock = await lockDatabase(dbDir, { role: 'cli', what: opts.what, keepWaiting });
    } catch (err) {
      if (serviceCameUp) continue;
      if (err instanceof DatabaseBusyError)
        throw new DatabaseBusyError(
          `gave up after ${Math.round(maxWaitMs / 1000)} s: ${err.message}; try again when it is done`,
          err.owner,
        );
      throw err;
    }
    try {
      return await runHere(config, name, args, opts.log);
    } finally {
      await lock.release();
    }
  }
}
