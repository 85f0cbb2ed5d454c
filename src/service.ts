// The running service: the database, the mail source (IMAP, or the Maildir by default) feeding
// the intake queue, the sweep of mail left pending, the outbox sender and the web app, which
// listens first and answers 503 until the database is open. Every loop logs and carries on
// after a failure; stop() ends them in order and closes the database last. On the embedded
// database the service is its one owner (a lock in DATA_DIR) and answers `sf` commands on a
// control socket there, so that they never open it beside us (two owners of one PGlite directory lose games).
import type { Logger } from 'pino';
import { readFileSync } from 'node:fs';
import { ConfigError, type Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { mailboxCursorStore } from './db/cursors.ts';
import { closeMapPool } from './edict/png-pool.ts';
import { closeHashThread } from './referee/hash-thread.ts';
import { buildApp } from './http/app.ts';
import { refereeConsoleOptions } from './http/referee/plugin.ts';
import { IntakeQueue } from './mail/intake/intake-queue.ts';
import type { RawMail } from './mail/sources/types.ts';
import { BodyReader } from './mail/intake/body-reader.ts';
import type { IntakeDeps } from './mail/intake/process-inbound.ts';
import { intakeDeps } from './mail/intake/intake-deps.ts';
import type { ArrivedMail } from './mail/intake/receive.ts';
import { sendAllDue } from './mail/send/outbox-sender.ts';
import { createFileTransport } from './mail/send/file-transport.ts';
import { createSmtpTransport } from './mail/send/smtp-transport.ts';
import type { MailTransport } from './mail/send/types.ts';
import { runImapSource } from './mail/sources/imap-source.ts';
import { runMaildirSource } from './mail/sources/maildir-source.ts';
import { sleep } from './timing.ts';
import { SourceProgress } from './mail/sources/progress.ts';
import { Liveness } from './liveness.ts';
import { startTurnJob } from './turn-loop.ts';
import { DatabaseBusyError, describeOwner, lockDatabase, ownerAlive, type HeldLock } from './control/db-lock.ts';
import { startControlServer, socketPath, type ControlServer } from './control/socket.ts';

export interface Service {
  database: Database;
  url: string;
  stop(): Promise<void>;
}

export function createTransport(config: Config, log: Logger): MailTransport {
  if (!config.mail.smtpUrl) return createFileTransport(config.mail.outboxDir, log);
  const d = config.mail.dkim;
  // The key is read once, at start: a missing or unreadable file stops the service with its name.
  const dkim = d ? { domainName: d.domainName, keySelector: d.keySelector, privateKey: readDkimKey(d.privateKeyFile) } : null;
  return createSmtpTransport(config.mail.smtpUrl, log, { dkim });
}

function readDkimKey(file: string): string {
  let key: string;
  try {
    key = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError('DKIM_PRIVATE_KEY_FILE', `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): ${file}`);
  }
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(key))
    throw new ConfigError('DKIM_PRIVATE_KEY_FILE', `is not a PEM private key: ${file}`);
  return key;
}

/** Runs `step` every `ms` until the signal aborts; a failing step is logged, never fatal. */
async function every(
  ms: number,
  signal: AbortSignal,
  log: Logger,
  what: string,
  step: () => Promise<unknown>,
  pass: () => void = () => {},
): Promise<void> {
  while (!signal.aborted) {
    try {
      await step();
    } catch (err) {
      log.error({ err }, `${what} failed`);
    }
    pass(); // a pass that failed still moved: only a step that never returns is stuck
    // sleep() drops its abort listener when the timer fires: one left behind per pass would
    // pile up on the service's signal for as long as it runs (MaxListenersExceededWarning).
    await sleep(ms, signal);
  }
}

/** A loop silent this long is stuck (/health answers 503): far beyond any interval, backoff or IDLE refresh. */
const STUCK_AFTER_MS = 10 * 60_000;

export interface ServiceOptions {
  pollIntervalMs?: number;
  sweepIntervalMs?: number;
  sendIntervalMs?: number;
  /** How often the turn job looks for deadlines, reminders and notices. */
  turnJobIntervalMs?: number;
  /** False: no turn job (a test of intake alone, whose game's deadline has long passed). */
  turnJob?: boolean;
  listen?: boolean;
  /** The clock of the game's schedule (tests drive it). */
  now?: () => Date;
}

/** The embedded database's lock, for the service's whole life; null on PostgreSQL or in memory. */
async function ownDatabase(config: Config, log: Logger): Promise<HeldLock | null> {
  const c = config.database;
  if (c.kind !== 'pglite' || c.dataDir.includes('://')) return null;
  let told = false;
  try {
    return await lockDatabase(c.dataDir, {
      role: 'serve',
      what: 'sf serve',
      // Another service: refuse at once. A CLI command: it is done in moments, wait for it.
      keepWaiting: (owner, waited) => {
        if (owner?.role === 'serve' && ownerAlive(owner)) return false;
        if (!told) log.info(`waiting for ${describeOwner(owner)}${owner && ownerAlive(owner) ? ' to finish' : ''}`);
        told = true;
        return waited < (owner ? 120_000 : 10_000);
      },
      onCompromised: (err) =>
        log.error({ err }, `the database lock in ${config.dataDir} was lost: another process may open the database; stop the service`),
    });
  } catch (err) {
    if (err instanceof DatabaseBusyError && err.owner?.role === 'serve')
      throw new DatabaseBusyError(
        `another sf serve (pid ${err.owner.pid}) already uses DATA_DIR ${config.dataDir}: stop it, or set DATA_DIR to another directory`,
        err.owner,
      );
    throw err;
  }
}

export async function startService(config: Config, log: Logger, opts: ServiceOptions = {}): Promise<Service> {
  const lock = await ownDatabase(config, log);
  try {
    return await startOwned(config, log, opts, lock);
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

async function startOwned(config: Config, log: Logger, opts: ServiceOptions, lock: HeldLock | null): Promise<Service> {
  // First, before anything opens: a bad DKIM key is a configuration error, said in one line.
  const transport = createTransport(config, log);
  // The web app listens before the database is open: a PostgreSQL that takes minutes to
  // appear leaves /health answering 503 "database", not silent, and a port in use is said at once.
  let running: { db: Database['db']; stuck: () => string[] } | null = null;
  const app = await buildApp({
    db: () => running?.db ?? null,
    log,
    publicUrl: config.http.publicUrl,
    referee: refereeConsoleOptions(config),
    trustProxy: config.http.trustProxy,
    stuck: () => running?.stuck() ?? [],
  });
  let url = '';
  let database: Database;
  try {
    if (opts.listen !== false) url = await app.listen({ host: config.http.host, port: config.http.port });
    if (url) log.info({ url }, 'listening; opening the database');
    database = await openDatabase(config, log); // log: PostgreSQL retries and lost connections are reported
  } catch (err) {
    await app.close();
    await closeHashThread(); // the console is closed: no login is hashing
    await transport.close?.();
    throw err;
  }
  const now = opts.now ?? (() => new Date());
  // Bodies are read in a worker with a time and memory budget: no mail can hold up the service.
  const deps: IntakeDeps = { ...intakeDeps(config, database, log, now), bodyReader: new BodyReader() };
  const progress = new SourceProgress(() => now().getTime());
  const controller = new AbortController();
  const { signal } = controller;
  const loops: Promise<void>[] = [];

  const queue = new IntakeQueue(deps);
  const arrived = (source: 'imap' | 'maildir') => (m: RawMail) => ({
    raw: m.raw,
    source,
    sourceKey: m.sourceKey,
    receivedAt: m.receivedAt,
  });
  const onMessage = (m: RawMail) => queue.accept([arrived('maildir')(m)]);
  const onBatch = (ms: RawMail[]) => queue.accept(ms.map(arrived('imap')));
  const poll = opts.pollIntervalMs ?? 2_000;
  if (config.mail.imap) {
    const i = config.mail.imap;
    loops.push(
      runImapSource({
        connect: { host: i.host, port: i.port, user: i.user, pass: i.password, secure: i.secure },
        mailbox: i.mailbox,
        processedMailbox: i.processedMailbox,
        cursorStore: mailboxCursorStore(database.db, { shared: database.kind === 'postgres' }),
        onBatch,
        log,
        signal,
        pollIntervalMs: poll,
        progress,
      }),
    );
  } else {
    loops.push(runMaildirSource({ dir: config.mail.maildir, onMessage, log, signal, pollIntervalMs: poll, progress }));
  }
  // /health fails when a loop stops moving, not only when the database is away: a
  // stopped loop leaves the service up and doing nothing.
  const liveness = new Liveness(() => now().getTime());
  const startedAt = now().getTime();
  liveness.watch('intake', STUCK_AFTER_MS, () => progress.caughtUpAsOf());
  loops.push(
    every(
      opts.sweepIntervalMs ?? 30_000,
      signal,
      log,
      'pending sweep',
      () => queue.sweep(),
      liveness.track('pending sweep', STUCK_AFTER_MS),
    ),
  );
  loops.push(
    every(
      opts.sendIntervalMs ?? 2_000,
      signal,
      log,
      'outbox',
      async () => {
        await sendAllDue({ db: database.db, transport, from: config.mail.from, log }, { signal });
      },
      liveness.track('sending', STUCK_AFTER_MS),
    ),
  );

  if (opts.turnJob !== false)
    loops.push(
      startTurnJob({
        config,
        db: database.db,
        log,
        now,
        queue,
        progress,
        signal,
        intervalMs: opts.turnJobIntervalMs ?? 15_000,
        pass: liveness.track('turn job', STUCK_AFTER_MS),
      }),
    );

  let control: ControlServer | null = null;
  /** Ends what was started here, in order: first what starts new work, the database last. */
  const teardown = async (): Promise<void> => {
    await control?.close(); // no new operations; those under way finish first
    controller.abort();
    await Promise.allSettled(loops);
    await queue.idle(); // what was stored is processed before the database closes
    await deps.bodyReader?.close();
    await closeMapPool(); // the turn job has stopped: no edict is drawing its map
    await app.close();
    await transport.close?.();
    await database.close();
  };
  try {
    if (lock) {
      const ctx = { db: database.db, config, log, receive: (m: ArrivedMail) => queue.receive(m) };
      control = await startControlServer(socketPath(config.dataDir), (actor) => ({ ...ctx, actor }), log);
    }
  } catch (err) {
    await teardown();
    throw err; // startService releases the lock
  }
  running = { db: database.db, stuck: () => liveness.stuck(startedAt) };
  log.info({ url, database: database.kind, mail: config.mail.imap ? 'imap' : `maildir ${config.mail.maildir}` }, 'service started');

  return {
    database,
    url,
    async stop() {
      await teardown();
      await lock?.release();
    },
  };
}
