// Reads order mail from an IMAP mailbox: deliver each message, then move it to the processed
// mailbox and advance the cursor. The steps are in imap-steps.ts; this file is only the loop.
//
// Delivery contract (see MailHandler in types.ts): at-least-once. A crash after onMessage but
// before the move re-delivers that message; a crash after the move but before the cursor update
// is harmless (the message is no longer in the mailbox).
import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import { backoffDelay, sleep, Wakeup } from './timing.ts';
import {
  assertUsable,
  connectImap,
  currentUidValidity,
  disconnectImap,
  ensureMailbox,
  fetchMessage,
  listNewUids,
  moveToProcessed,
  openMailbox,
  resolveCursor,
} from './imap-steps.ts';
import {
  DEFAULT_BACKOFF,
  type BackoffOptions,
  type ImapRawMail,
  type ImapSettings,
  type MailboxCursorStore,
  type MailHandler,
} from './types.ts';

export interface ImapSourceOptions {
  connect: ImapSettings;
  mailbox: string;
  processedMailbox: string;
  cursorStore: MailboxCursorStore;
  onMessage: MailHandler<ImapRawMail>;
  log: Logger;
  signal: AbortSignal;
  /** Poll interval when the server has no IDLE. */
  pollIntervalMs: number;
  /** Even with IDLE, re-check this often: under imapflow's 5-minute socket timeout, and a safety net. */
  idleRefreshMs?: number;
  /** Reconnects and retries of a failed onMessage. */
  backoff?: BackoffOptions;
  random?: () => number;
}

type Ctx = Required<Pick<ImapSourceOptions, 'backoff' | 'random' | 'idleRefreshMs'>> & ImapSourceOptions;

/** Runs until `signal` aborts. Never rejects: every failure is logged and retried. */
export async function runImapSource(options: ImapSourceOptions): Promise<void> {
  const ctx: Ctx = {
    backoff: DEFAULT_BACKOFF,
    random: Math.random,
    idleRefreshMs: 4 * 60_000,
    ...options,
    log: options.log.child({ source: 'imap', mailbox: options.mailbox }),
  };
  let attempt = 0;
  while (!ctx.signal.aborted) {
    try {
      await runSession(ctx, () => (attempt = 0));
    } catch (err) {
      if (ctx.signal.aborted) break;
      const delayMs = backoffDelay(attempt++, ctx.backoff, ctx.random);
      ctx.log.warn({ err, delayMs, attempt }, 'IMAP session failed; reconnecting');
      await sleep(delayMs, ctx.signal);
    }
  }
  ctx.log.info('IMAP source stopped');
}

/** One connection's life: returns on abort, throws when the connection (or the store) fails. */
async function runSession(ctx: Ctx, onConnected: () => void): Promise<void> {
  const { log, signal } = ctx;
  const client = await connectImap(ctx.connect, log);
  const wakeup = new Wakeup();
  const hint = () => wakeup.notify();
  client.on('exists', hint); // new mail (seen during IDLE or any other command)
  client.on('close', hint); // wake up to notice the connection is gone
  try {
    const uidValidity = await openMailbox(client, ctx.mailbox);
    await ensureMailbox(client, ctx.processedMailbox, log);
    let useIdle = client.capabilities.has('IDLE');
    log.info({ uidValidity, idle: useIdle }, 'IMAP mailbox open');
    onConnected();
    let failures = 0;
    while (!signal.aborted) {
      wakeup.clear();
      const ok = await drainMailbox(client, ctx, uidValidity);
      if (signal.aborted) break;
      assertUsable(client);
      if (!ok) {
        // onMessage failed: keep the connection, retry the same message after a pause.
        await sleep(backoffDelay(failures++, ctx.backoff, ctx.random), signal);
        continue;
      }
      failures = 0;
      if (useIdle) useIdle = await idleUntilHint(client, wakeup, ctx);
      else await wakeup.wait(ctx.pollIntervalMs, signal);
      assertUsable(client);
    }
  } finally {
    client.off('exists', hint);
    client.off('close', hint);
    await disconnectImap(client, log);
  }
}

/**
 * Delivers every message above the cursor, in UID order. Returns false if onMessage failed:
 * later messages wait, so the mailbox is always consumed in order.
 */
async function drainMailbox(client: ImapFlow, ctx: Ctx, uidValidity: string): Promise<boolean> {
  const { log, mailbox } = ctx;
  if (currentUidValidity(client) !== uidValidity) throw new Error('UIDVALIDITY changed under an open session');
  const cursor = await resolveCursor(ctx.cursorStore, mailbox, uidValidity, log);
  for (const uid of await listNewUids(client, cursor.lastUid)) {
    if (ctx.signal.aborted) return true;
    const msg = await fetchMessage(client, uid);
    if (!msg) continue;
    const sourceKey = `imap:${mailbox}:${uidValidity}:${uid}`;
    try {
      await ctx.onMessage({ ...msg, sourceKey, uid, uidValidity });
    } catch (err) {
      log.error({ err, uid, sourceKey }, 'onMessage failed; leaving the message in place to retry');
      return false;
    }
    if (!(await moveToProcessed(client, uid, ctx.processedMailbox, log))) {
      // Stored already; the cursor keeps us from re-reading it within this UIDVALIDITY.
      log.error({ uid, to: ctx.processedMailbox }, 'could not move processed message; leaving it');
    }
    await ctx.cursorStore.set(mailbox, { uidValidity, lastUid: uid });
    log.debug({ uid, sourceKey }, 'message delivered');
  }
  return true;
}

/**
 * IDLE until new mail, the refresh timeout, abort, or the server ending IDLE. The IDLE is not
 * broken here: the next command does that (imapflow sends DONE first). Returns whether to keep
 * using IDLE: a server that refuses it gets polled instead.
 */
async function idleUntilHint(client: ImapFlow, wakeup: Wakeup, ctx: Ctx): Promise<boolean> {
  if (wakeup.isPending) return true; // mail arrived during the pass: no point entering IDLE
  let refused = false;
  const ended = client.idle().then(
    (res) => void (refused = res === false && client.usable),
    () => undefined,
  );
  await Promise.race([wakeup.wait(ctx.idleRefreshMs, ctx.signal), ended]);
  if (refused) ctx.log.warn('server refused IDLE; polling instead');
  return !refused;
}
