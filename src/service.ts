// The running service: the database, the mail source (IMAP, or the Maildir by default) feeding
// the intake queue, the sweep of mail left pending, the outbox sender and the web app. Every loop logs and carries on
// after a failure; stop() ends them in order and closes the database last.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { mailboxCursorStore } from './db/cursors.ts';
import { buildApp } from './http/app.ts';
import { IntakeQueue } from './mail/intake/intake-queue.ts';
import type { RawMail } from './mail/sources/types.ts';
import type { IntakeDeps } from './mail/intake/process-inbound.ts';
import { sendDueMail } from './mail/outbox-sender.ts';
import { createFileTransport } from './mail/send/file-transport.ts';
import { createSmtpTransport } from './mail/send/smtp-transport.ts';
import type { MailTransport } from './mail/send/types.ts';
import { runImapSource } from './mail/sources/imap-source.ts';
import { runMaildirSource } from './mail/sources/maildir-source.ts';
import { sleep } from './mail/sources/timing.ts';

export interface Service {
  database: Database;
  url: string;
  stop(): Promise<void>;
}

export function intakeDeps(config: Config, database: Database, log: Logger, now: () => Date = () => new Date()): IntakeDeps {
  const address = /<([^>]+)>/.exec(config.mail.from)?.[1] ?? config.mail.from;
  return {
    db: database.db,
    log,
    now,
    mail: {
      domain: config.mail.domain,
      ordersLocalPart: config.mail.ordersLocalPart,
      maxBytes: config.mail.maxBytes,
      replyRateLimitPerHour: config.mail.replyRateLimitPerHour,
      ourAddresses: [address.toLowerCase()],
    },
  };
}

export function createTransport(config: Config, log: Logger): MailTransport {
  return config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl, log) : createFileTransport(config.mail.outboxDir, log);
}

/** Runs `step` every `ms` until the signal aborts; a failing step is logged, never fatal. */
async function every(ms: number, signal: AbortSignal, log: Logger, what: string, step: () => Promise<unknown>): Promise<void> {
  while (!signal.aborted) {
    try {
      await step();
    } catch (err) {
      log.error({ err }, `${what} failed`);
    }
    // sleep() drops its abort listener when the timer fires: one left behind per pass would
    // pile up on the service's signal for as long as it runs (MaxListenersExceededWarning).
    await sleep(ms, signal);
  }
}

export interface ServiceOptions {
  pollIntervalMs?: number;
  sweepIntervalMs?: number;
  sendIntervalMs?: number;
  listen?: boolean;
}

export async function startService(config: Config, log: Logger, opts: ServiceOptions = {}): Promise<Service> {
  const database = await openDatabase(config);
  const deps = intakeDeps(config, database, log);
  const transport = createTransport(config, log);
  const controller = new AbortController();
  const { signal } = controller;
  const loops: Promise<void>[] = [];

  const queue = new IntakeQueue(deps);
  const arrived = (source: 'imap' | 'maildir') => (m: RawMail) => ({ raw: m.raw, source, sourceKey: m.sourceKey, receivedAt: m.receivedAt });
  const onMessage = (m: RawMail) => queue.accept([arrived('maildir')(m)]);
  const onBatch = (ms: RawMail[]) => queue.accept(ms.map(arrived('imap')));
  const poll = opts.pollIntervalMs ?? 2_000;
  if (config.mail.imap) {
    const i = config.mail.imap;
    loops.push(runImapSource({
      connect: { host: i.host, port: i.port, user: i.user, pass: i.password, secure: i.secure },
      mailbox: i.mailbox,
      processedMailbox: i.processedMailbox,
      cursorStore: mailboxCursorStore(database.db),
      onBatch,
      log,
      signal,
      pollIntervalMs: poll,
    }));
  } else {
    loops.push(runMaildirSource({ dir: config.mail.maildir, onMessage, log, signal, pollIntervalMs: poll }));
  }
  loops.push(every(opts.sweepIntervalMs ?? 30_000, signal, log, 'pending sweep', () => queue.sweep()));
  loops.push(every(opts.sendIntervalMs ?? 2_000, signal, log, 'outbox', async () => {
    while ((await sendDueMail({ db: database.db, transport, from: config.mail.from, log })) > 0 && !signal.aborted);
  }));

  const app = await buildApp({ db: database.db, log });
  let url = '';
  if (opts.listen !== false) url = await app.listen({ host: config.http.host, port: config.http.port });
  log.info({ url, database: database.kind, mail: config.mail.imap ? 'imap' : `maildir ${config.mail.maildir}` }, 'service started');

  return {
    database,
    url,
    async stop() {
      controller.abort();
      await Promise.allSettled(loops);
      await queue.idle(); // what was stored is processed before the database closes
      await app.close();
      await transport.close?.();
      await database.close();
    },
  };
}
