// Reads order mail from an IMAP mailbox: deliver each message, then move it to the processed
// mailbox and advance the cursor (a batch at a time: one FETCH, one MOVE, one cursor update).
// The steps are in imap-steps.ts; this file is only the loop.
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
  batchesOf,
  fetchMessages,
  listNewMessages,
  moveToProcessed,
  type BatchLimits,
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
  /** How many messages (and about how many bytes) one FETCH brings in. */
  batch?: BatchLimits;
}

type Ctx = Required<Pick<ImapSourceOptions, 'backoff' | 'random' | 'idleRefreshMs' | 'batch'>> & ImapSourceOptions;

/** Enough to amortise the round trips; small enough that a crash re-delivers little. */
export const DEFAULT_BATCH: BatchLimits = { maxMessages: 50, maxBytes: 16 * 1024 * 1024 };

/** Runs until `signal` aborts. Never rejects: every failure is logged and retried. */
export async function runImapSource(options: ImapSourceOptions): Promise<void> {
  const ctx: Ctx = {
    backoff: DEFAULT_BACKOFF,
    random: Math.random,
    idleRefreshMs: 4 * 60_000,
    batch: DEFAULT_BATCH,
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
 *
 * Messages are fetched in batches (one FETCH each), and the delivered ones of a batch are moved
 * in one MOVE and the cursor advanced once: per-message round trips were most of the time an
 * IMAP source spent outside onMessage. A crash mid-batch re-delivers the batch's delivered but
 * unmoved messages, which the contract allows (at-least-once; downstream dedupes).
 */
async function drainMailbox(client: ImapFlow, ctx: Ctx, uidValidity: string): Promise<boolean> {
  const { log, mailbox } = ctx;
  if (currentUidValidity(client) !== uidValidity) throw new Error('UIDVALIDITY changed under an open session');
  const cursor = await resolveCursor(ctx.cursorStore, mailbox, uidValidity, log);
  for (const batch of batchesOf(await listNewMessages(client, cursor.lastUid), ctx.batch)) {
    if (ctx.signal.aborted) return true;
    const fetched = await fetchMessages(client, batch);
    const delivered: number[] = [];
    let handled = 0; // the highest UID dealt with, in order: delivered, or gone from the mailbox
    let ok = true;
    for (const uid of batch) {
      if (ctx.signal.aborted) break;
      const msg = fetched.get(uid);
      if (msg) {
        const sourceKey = `imap:${mailbox}:${uidValidity}:${uid}`;
        try {
          await ctx.onMessage({ ...msg, sourceKey, uid, uidValidity });
        } catch (err) {
          log.error({ err, uid, sourceKey }, 'onMessage failed; leaving the message in place to retry');
          ok = false;
          break;
        }
        delivered.push(uid);
        log.debug({ uid, sourceKey }, 'message delivered');
      }
      handled = uid;
    }
    if (delivered.length && !(await moveToProcessed(client, delivered, ctx.processedMailbox, log))) {
      // Stored already; the cursor keeps us from re-reading them within this UIDVALIDITY.
      log.error({ uids: delivered, to: ctx.processedMailbox }, 'could not move processed messages; leaving them');
    }
    if (handled) await ctx.cursorStore.set(mailbox, { uidValidity, lastUid: handled });
    if (!ok) return false;
    if (ctx.signal.aborted) return true;
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
