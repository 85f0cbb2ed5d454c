// Reads order mail from an IMAP mailbox a batch at a time: one FETCH, the batch handed over,
// then one MOVE to the processed mailbox and one cursor update. The next batch is fetched while
// the handler works on this one. The steps are in imap-steps.ts; this file is only the loop.
//
// Delivery contract (see BatchHandler in types.ts): at-least-once. A crash after the handler but
// before the move re-delivers that batch; a crash after the move but before the cursor update
// is harmless (the messages are no longer in the mailbox).
import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { SourceProgress } from './progress.ts';
import { backoffDelay, sleep, Wakeup } from '../../timing.ts';
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
  type BatchHandler,
} from './types.ts';

export interface ImapSourceOptions {
  connect: ImapSettings;
  mailbox: string;
  processedMailbox: string;
  cursorStore: MailboxCursorStore;
  onBatch: BatchHandler<ImapRawMail>;
  log: Logger;
  signal: AbortSignal;
  /** Poll interval when the server has no IDLE. */
  pollIntervalMs: number;
  /** Even with IDLE, re-check this often: under imapflow's 5-minute socket timeout, and a safety net. */
  idleRefreshMs?: number;
  /** Reconnects and retries of a failed onBatch. */
  backoff?: BackoffOptions;
  random?: () => number;
  /** How many messages (and about how many bytes) one FETCH brings in. */
  batch?: BatchLimits;
  /** Told when a drain completes and while the source listens in IDLE (the turn job's catch-up). */
  progress?: SourceProgress;
}

type Ctx = Required<Pick<ImapSourceOptions, 'backoff' | 'random' | 'idleRefreshMs' | 'batch'>> & ImapSourceOptions;

/**
 * Enough to amortise the round trips and the per-batch queries downstream (bench:ingest: 500 is
 * about a tenth faster than 200); a crash re-delivers at most a batch, which the store dedupes.
 * The byte cap keeps a batch of large mail small.
 */
export const DEFAULT_BATCH: BatchLimits = { maxMessages: 500, maxBytes: 16 * 1024 * 1024 };

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
  const hint = () => {
    ctx.progress?.listen(false); // new mail, or the connection gone: no longer caught up as of now
    wakeup.notify();
  };
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
      const started = ctx.progress?.drainStarting() ?? 0;
      const ok = await drainMailbox(client, ctx, uidValidity);
      if (signal.aborted) break;
      assertUsable(client);
      if (ok) ctx.progress?.drained(started);
      if (!ok) {
        // onMessage failed: keep the connection, retry the same message after a pause.
        await sleep(backoffDelay(failures++, ctx.backoff, ctx.random), signal);
        continue;
      }
      failures = 0;
      if (useIdle) {
        ctx.progress?.listen(!wakeup.isPending);
        try {
          useIdle = await idleUntilHint(client, wakeup, ctx);
        } finally {
          ctx.progress?.listen(false);
        }
      } else await wakeup.wait(ctx.pollIntervalMs, signal);
      assertUsable(client);
    }
  } finally {
    client.off('exists', hint);
    client.off('close', hint);
    await disconnectImap(client, log);
  }
}

/**
 * Delivers every message above the cursor, in UID order, a batch at a time. Returns false if the
 * handler failed: that batch and the ones after it wait, so the mailbox is consumed in order.
 *
 * While the handler stores a batch, the next one is already being fetched (imapflow queues the
 * commands on the one connection), and the batch before is moved out and the cursor advanced
 * (in order, behind): fetching, storing and the slow MOVE overlap instead of taking turns.
 * A crash mid-way re-delivers the batches not moved yet, which the contract allows (downstream
 * dedupes).
 */
async function drainMailbox(client: ImapFlow, ctx: Ctx, uidValidity: string): Promise<boolean> {
  const { log, mailbox } = ctx;
  if (currentUidValidity(client) !== uidValidity) throw new Error('UIDVALIDITY changed under an open session');
  const cursor = await resolveCursor(ctx.cursorStore, mailbox, uidValidity, log);
  const batches = batchesOf(await listNewMessages(client, cursor.lastUid), ctx.batch);
  let next = batches.length ? prefetch(client, batches[0]!) : null;
  // The move and cursor update of the batch before, at most one: its failure (a connection or a
  // database gone) stops the drain and is thrown, as it was when they ran in line.
  let settling: Promise<void> = Promise.resolve();
  const behind: { failure: { err: unknown } | null } = { failure: null };
  try {
    for (const [i, batch] of batches.entries()) {
      if (ctx.signal.aborted) return true;
      const fetched = await next!.result;
      next = i + 1 < batches.length ? prefetch(client, batches[i + 1]!) : null;
      const mails = batch.flatMap((uid) => {
        const msg = fetched.get(uid); // missing: expunged by someone else meanwhile
        return msg ? [{ ...msg, sourceKey: `imap:${mailbox}:${uidValidity}:${uid}`, uid, uidValidity }] : [];
      });
      if (mails.length) {
        try {
          await ctx.onBatch(mails);
        } catch (err) {
          log.error({ err, uids: mails.map((m) => m.uid) }, 'onBatch failed; leaving the messages in place to retry');
          return false;
        }
        log.debug({ uids: mails.map((m) => m.uid) }, 'messages delivered');
      }
      await settling;
      if (behind.failure) throw behind.failure.err;
      const upTo = { uidValidity, lastUid: batch[batch.length - 1]! };
      settling = settleBatch(
        client,
        ctx,
        mails.map((m) => m.uid),
        upTo,
      ).catch((err: unknown) => void (behind.failure = { err }));
    }
    await settling;
    if (behind.failure) throw behind.failure.err;
    return true;
  } finally {
    await settling;
    await next?.settled; // never leave a FETCH in flight behind us
  }
}

/**
 * A stored batch moved to the processed mailbox, then the cursor past it. What another reader of
 * the mailbox has already settled (at or below its cursor) is not moved again.
 */
async function settleBatch(client: ImapFlow, ctx: Ctx, uids: number[], cursor: { uidValidity: string; lastUid: number }): Promise<void> {
  await ctx.cursorStore.settle(ctx.mailbox, cursor, async (settledUpTo) => {
    const left = settledUpTo === null ? uids : uids.filter((uid) => uid > settledUpTo);
    if (left.length && !(await moveToProcessed(client, left, ctx.processedMailbox, ctx.log))) {
      // Stored already; the cursor keeps us from re-reading them within this UIDVALIDITY.
      ctx.log.error({ uids: left, to: ctx.processedMailbox }, 'could not move processed messages; leaving them');
    }
  });
}

/** A FETCH started now and awaited later; `settled` never rejects (for clean-up). */
function prefetch(client: ImapFlow, uids: number[]) {
  const result = fetchMessages(client, uids);
  return {
    result,
    settled: result.then(
      () => undefined,
      () => undefined,
    ),
  };
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
