// What an operator reads when `sf serve` cannot start: one line naming the cause and the variable
// to change, never a stack trace, and never a silent hang. The data directory is checked
// before anything opens it, because PGlite and the Maildir reader fail late and obscurely on it.
import { constants } from 'node:fs';
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Config } from './config.ts';
import { MigrationError } from './db/client.ts';
import { AppError } from './errors.ts';
import { isTransient } from './db/retry.ts';

/** A start-up failure already put in the operator's words. */
export class StartupError extends AppError {
  override name = 'StartupError';
  constructor(message: string) {
    super('startup', message);
  }
}

const code = (err: unknown): string => {
  const c = (err as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : '';
};
const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

/**
 * Makes sure `dir` is a directory we can write to, creating it when missing. `variable` names
 * the setting to change in the message.
 */
async function writableDirectory(dir: string, variable: string): Promise<void> {
  const info = await stat(dir).catch((err: unknown) => {
    if (code(err) === 'ENOENT') return null;
    if (code(err) === 'ENOTDIR')
      throw new StartupError(`${variable} ${dir} lies below a file, not a directory (ENOTDIR): set ${variable} to a directory`);
    throw new StartupError(
      `${variable} ${dir} cannot be read (${code(err) || firstLine(err)}): set ${variable} to a directory this user can write`,
    );
  });
  if (info && !info.isDirectory()) throw new StartupError(`${variable} ${dir} is a file, not a directory: set ${variable} to a directory`);
  if (!info) {
    await mkdir(dir, { recursive: true }).catch((err: unknown) => {
      throw new StartupError(
        `${variable} ${dir} does not exist and cannot be created (${code(err) || firstLine(err)}): create it, or set ${variable} to a directory this user can write`,
      );
    });
  }
  // access() says yes to root on a read-only mount and to anyone on some network file systems:
  // writing a file is the only honest test.
  const probe = path.join(dir, `.sf-write-test-${process.pid}`);
  try {
    await access(dir, constants.W_OK | constants.X_OK);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (err) {
    throw new StartupError(
      `${variable} ${dir} is not writable by this user (${code(err) || firstLine(err)}): fix its owner or permissions, or set ${variable} to another directory`,
    );
  }
}

/** Checks (and creates) the directories the service writes to, before it opens anything. */
export async function checkDirectories(config: Config): Promise<void> {
  await writableDirectory(config.dataDir, 'DATA_DIR');
  // What an earlier run (say, as root) left inside DATA_DIR must be ours too: PGlite hangs on a
  // database directory it cannot write, instead of failing.
  const inside = [config.database.kind === 'pglite' ? config.database.dataDir : null, config.mail.smtpUrl ? null : config.mail.outboxDir];
  if (!config.mail.imap) inside.push(config.mail.maildir);
  for (const dir of inside) {
    if (dir === null || dir.includes('://')) continue;
    const outside = path.relative(config.dataDir, dir).startsWith('..');
    // Below DATA_DIR: checked only when there (the service creates it); elsewhere (MAILDIR): always.
    if (
      outside ||
      (await stat(dir).then(
        () => true,
        () => false,
      ))
    )
      await writableDirectory(dir, outside ? 'MAILDIR' : 'DATA_DIR');
  }
}

/** Where DATABASE_URL points, without its password. */
function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the server in DATABASE_URL';
  }
}

/** One line for any error that stopped the start-up; unknown errors keep their first line only. */
export function describeStartupError(err: unknown, config: Config): string {
  if (err instanceof StartupError) return err.message;
  if (err instanceof ConfigError) return err.message;
  const c = code(err);
  const { host, port } = config.http;
  const db = config.database;
  if (c === 'EADDRINUSE')
    return `HTTP port ${port} on ${host} is already in use: stop what uses it, or set HTTP_PORT (or HTTP_HOST) to another`;
  if (c === 'EADDRNOTAVAIL') return `HTTP_HOST ${host} is not an address of this machine: set HTTP_HOST (0.0.0.0 for every address)`;
  if (c === 'EACCES' && (err as { syscall?: string }).syscall === 'listen')
    return `not allowed to listen on port ${port}: set HTTP_PORT to 1024 or above`;
  if (err instanceof MigrationError) {
    const [where, variable] =
      db.kind === 'postgres'
        ? [`the database at ${serverOf(db.url)}`, 'DATABASE_URL']
        : [`the embedded database in ${db.dataDir}`, 'DATA_DIR'];
    return `could not bring ${where} up to date (${firstLine(err.message.replace(/^migration failed: /, ''))}): repair it or restore a backup, or set ${variable} to another database`;
  }
  if (db.kind === 'postgres') {
    const at = serverOf(db.url);
    if (isTransient(err))
      return `database unreachable at ${at} (${c || firstLine(err)}): start PostgreSQL, or set DATABASE_URL (waited DATABASE_CONNECT_RETRY_SECONDS=${(db.connectRetryMs ?? 0) / 1000})`;
    if (c === '28P01' || c === '28000')
      return `the database at ${at} refused the login (${firstLine(err)}): set the user in DATABASE_URL and the password in DATABASE_PASSWORD`;
    if (c === '3D000') return `the database at ${at} does not exist: create it, or set DATABASE_URL`;
    if (c.startsWith('ERR_TLS') || c.startsWith('SELF_SIGNED') || c === 'DEPTH_ZERO_SELF_SIGNED_CERT')
      return `the TLS connection to the database at ${at} failed (${c}): fix sslmode in DATABASE_URL`;
    return `the database at ${at} failed at start-up (${c ? `${c}: ` : ''}${firstLine(err)}): check DATABASE_URL`;
  }
  if (db.kind === 'pglite' && /Aborted|RuntimeError|PGlite/i.test(firstLine(err))) {
    return `the embedded database in ${db.dataDir} could not be opened (${firstLine(err)}): is another program using DATA_DIR? Otherwise restore it from a backup, or set DATA_DIR`;
  }
  return `could not start: ${firstLine(err)}`;
}

/**
 * Starts the service, or says in one line on stderr why it cannot and returns null. Whatever the
 * failed start left open (a half-closed pool, a pino worker) must not keep the process alive, so
 * an exit is forced if the event loop has not emptied soon after.
 */
export async function startOrExplain<S>(
  config: Config,
  log: { debug(obj: object, msg: string): void },
  start: () => Promise<S>,
): Promise<S | null> {
  try {
    await checkDirectories(config);
    return await start();
  } catch (err) {
    log.debug({ err }, 'start-up failed');
    process.stderr.write(`sf serve: ${describeStartupError(err, config)}\n`);
    setTimeout(() => process.exit(process.exitCode ?? 1), 3_000).unref();
    return null;
  }
}

/**
 * SIGINT/SIGTERM, listened for from the start. During start-up, PGlite is left to finish opening
 * (seconds; killing it mid-migration would leave its lock to go stale), and the service then stops
 * cleanly; a wait for PostgreSQL, which may last minutes, is abandoned at once: only the HTTP
 * listener (answering 503) is open, which the exit closes, and the server is crash-safe.
 */
export function stopSignal(config: Config): { requested: Promise<void>; started(): void } {
  let started = false;
  const requested = new Promise<void>((resolve) => {
    const onSignal = () => {
      if (!started && config.database.kind === 'postgres') {
        process.stderr.write('sf serve: stopped while starting (waiting for the database in DATABASE_URL)\n');
        process.exit(1);
      }
      resolve();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return { requested, started: () => void (started = true) };
}
