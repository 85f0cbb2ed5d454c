// Sends what the outbox holds. Any instance may run this: claims are leases (SKIP LOCKED), so
// a mail is handed to one sender at a time, and a sender that dies leaves it to be retried.
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { findAssets, type AttachmentRef, type MailAsset } from '../../db/assets.ts';
import { loggableDbError } from '../../db/errors.ts';
import { findGames } from '../../db/games.ts';
import { claimBatch, enqueueMany, markFailed, newMessageId, releaseClaim, type OutboxMail } from '../../db/outbox.ts';
import { refereeAddressesOf } from '../../db/referee-addresses.ts';
import { gameThread } from '../../games/thread.ts';
import { deliveryTexts } from '../../text/delivery-mail.ts';
import { ANSWER_KINDS } from '../intake/outgoing.ts';
import { bracketed } from './headers.ts';
import { recordUnrecorded, SentMarks } from './sent-marks.ts';
import type { MailTransport, OutgoingMail } from './types.ts';

export interface OutboxSenderDeps {
  db: Db;
  transport: MailTransport;
  from: string;
  log: Logger;
  now?: () => Date;
  /** The clock the lease runs on (milliseconds): the wall clock, whatever clock the game uses. */
  leaseClock?: () => number;
  /** Waits between tries to record a mail as sent (sent-marks.ts: MARK_RETRY_MS unless given). */
  markRetryMs?: readonly number[];
}

export function toOutgoing(row: OutboxMail, from: string, assets: ReadonlyMap<number, MailAsset> = new Map()): OutgoingMail {
  const mail: OutgoingMail = {
    from,
    to: row.toAddress,
    subject: row.subject,
    text: row.bodyText,
    messageId: bracketed(row.messageId),
    reply: ANSWER_KINDS.has(row.kind),
  };
  const refs = attachmentsOf(row);
  if (refs.length) {
    mail.attachments = refs.map((r) => {
      const asset = assets.get(r.assetId);
      if (!asset) throw new Error(`attachment ${r.assetId} of outbox ${row.id} is missing`);
      return { filename: r.filename, contentType: r.contentType, content: asset.bytes, ...(r.cid ? { cid: r.cid } : {}) };
    });
  }
  if (row.bodyHtml) mail.html = row.bodyHtml;
  if (row.inReplyTo) mail.inReplyTo = row.inReplyTo;
  if (row.references) mail.references = row.references.split(/\s+/).filter(Boolean);
  const extra = row.headers && typeof row.headers === 'object' ? (row.headers as Record<string, string>) : {};
  if (row.replyTo || Object.keys(extra).length) mail.headers = { ...extra, ...(row.replyTo ? { 'Reply-To': row.replyTo } : {}) };
  return mail;
}

const attachmentsOf = (row: OutboxMail): AttachmentRef[] => (Array.isArray(row.attachments) ? (row.attachments as AttachmentRef[]) : []);

/** A 5xx answer from the SMTP server will not get better by retrying. */
function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * How long a claim holds a mail. An instance killed mid-batch leaves its claimed mail to others
 * after this; a live sender never starts a mail past half of it (the rest is handed back), so a
 * mail is sent twice only when a sender dies inside the SMTP transaction, with the same Message-ID.
 */
export const SEND_LEASE_MS = 60_000;
/** Mails in flight at once: a few more than the SMTP pool's 3 connections, so that a connection that frees takes the next mail at once. */
const CONCURRENCY = 5;
/** Mails a claim takes. */
const BATCH = 100;

/**
 * Attachments recently sent, by id, per database. A stored asset never changes (it is found by its
 * content), and an edict's map goes to every player of the game, often across two batches: read
 * once, not once a batch.
 */
class AssetCache {
  private readonly byId = new Map<number, MailAsset>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(db: Db, ids: readonly number[]): Promise<Map<number, MailAsset>> {
    const out = new Map<number, MailAsset>();
    for (const id of ids) {
      const hit = this.byId.get(id);
      if (hit) out.set(id, hit);
    }
    const read = await findAssets(
      db,
      ids.filter((id) => !out.has(id)),
    );
    for (const [id, asset] of read) {
      out.set(id, asset);
      this.byId.set(id, asset);
      this.bytes += asset.bytes.length;
    }
    // The oldest go first (a Map keeps insertion order); what this batch uses is in `out` anyway.
    for (const [id, asset] of this.byId) {
      if (this.bytes <= this.maxBytes) break;
      this.byId.delete(id);
      this.bytes -= asset.bytes.length;
    }
    return out;
  }
}

const assetCaches = new WeakMap<Db, AssetCache>();
const ASSET_CACHE_BYTES = 16 * 1024 * 1024;

function assetCacheOf(db: Db): AssetCache {
  let cache = assetCaches.get(db);
  if (!cache) assetCaches.set(db, (cache = new AssetCache(ASSET_CACHE_BYTES)));
  return cache;
}

/** Sends one batch of due mail; returns how many were sent. */
export function sendDueMail(deps: OutboxSenderDeps, limit = BATCH): Promise<number> {
  return send(deps, { limit, batches: 1 });
}

/**
 * Sends due mail, batch after batch, until none is due or `signal` is aborted (what is claimed then
 * is still sent); returns how many were sent. The next batch is claimed while the last quarter of
 * one is sent, so the relay never waits for a claim and its attachments' read between batches
 * (~50 ms a batch of 100 edicts, an eighth of the time to send them: bench:deadline).
 */
export function sendAllDue(deps: OutboxSenderDeps, opts: { limit?: number; signal?: AbortSignal } = {}): Promise<number> {
  return send(deps, { limit: opts.limit ?? BATCH, batches: Infinity, ...(opts.signal ? { signal: opts.signal } : {}) });
}

/** A claimed mail with its attachments' bytes, and when its claim was taken (on the lease's clock). */
interface Claimed {
  row: OutboxMail;
  assets: ReadonlyMap<number, MailAsset>;
  claimedAt: number;
}

async function send(deps: OutboxSenderDeps, opts: { limit: number; batches: number; signal?: AbortSignal }): Promise<number> {
  const now = deps.now ?? (() => new Date());
  const leaseClock = deps.leaseClock ?? Date.now;
  // Throws while the database is still away: nothing is claimed, the loop tries again.
  await recordUnrecorded(deps.db);
  const queue: Claimed[] = [];
  let claims = 0;
  let more = true;
  let claiming: Promise<void> | null = null;
  let claimFailed: { err: unknown } | null = null;
  // A batch's worth of refusals in a row: the relay is down, and gets no more this pass (the loop
  // comes back in a moment), as when a pass ended with a batch that sent nothing.
  let refusedInARow = 0;
  const claim = async () => {
    const claimedAt = leaseClock();
    const rows = await claimBatch(deps.db, { limit: opts.limit, now: now(), leaseMs: SEND_LEASE_MS });
    // A short batch: nothing more was due when it was claimed.
    if (rows.length < opts.limit || ++claims >= opts.batches) more = false;
    if (rows.length === 0) return;
    const assets = await assetCacheOf(deps.db).get(deps.db, [...new Set(rows.flatMap((r) => attachmentsOf(r).map((a) => a.assetId)))]);
    for (const row of rows) queue.push({ row, assets, claimedAt });
  };
  /** The next batch's claim, started once a quarter of this one is left to start. */
  const refill = (): Promise<void> | null => {
    if (!claiming && more && !opts.signal?.aborted && queue.length <= opts.limit / 4) {
      claiming = claim()
        .catch((err: unknown) => {
          more = false;
          claimFailed = { err };
        })
        .finally(() => (claiming = null));
    }
    return claiming;
  };
  const marks = new SentMarks(deps.db, deps.log, deps.markRetryMs);
  let sent = 0;
  const worker = async () => {
    for (;;) {
      const claimed = refill();
      const item = queue.shift();
      if (!item) {
        if (!claimed) return;
        await claimed;
        continue;
      }
      if (leaseClock() - item.claimedAt > SEND_LEASE_MS / 2) {
        await releaseClaim(deps.db, item.row.id, now());
        continue;
      }
      const refused = () => {
        if (++refusedInARow >= opts.limit) more = false;
      };
      if (await sendOne(deps, item, marks, now, refused)) {
        sent++;
        refusedInARow = 0;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await marks.settled();
  // The claimed mail is sent and recorded: now say the database failed (the loop tries again).
  if (claimFailed) throw (claimFailed as { err: unknown }).err;
  return sent;
}

/** Sends one claimed mail; `refused` is told at once when the relay does not take it, before the failure is recorded. */
async function sendOne(
  deps: OutboxSenderDeps,
  { row, assets }: Claimed,
  marks: SentMarks,
  now: () => Date,
  refused: () => void,
): Promise<boolean> {
  try {
    await deps.transport.send(toOutgoing(row, deps.from, assets));
  } catch (err) {
    refused();
    const permanent = isPermanent(err);
    deps.log.warn({ err, outbox: row.id, to: row.toAddress, permanent }, 'sending failed');
    try {
      await recordFailure(deps.db, row, String((err as Error).message ?? err), { now: now(), permanent });
    } catch (dbErr) {
      // The claim's lease runs out and the mail is tried again: nothing is lost.
      deps.log.warn(
        { err: loggableDbError(dbErr), outbox: row.id },
        'could not record a failed send; the mail is tried again when its claim runs out',
      );
    }
    return false;
  }
  marks.add(row.id, now());
  return true;
}

/**
 * A failed try, and when the mail is given up, the game's referees told, in the same transaction
 * (once per mail: the notice's dedupe key). A notice that fails itself tells no one (no loop).
 */
async function recordFailure(db: Db, row: OutboxMail, error: string, opts: { now: Date; permanent: boolean }): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await markFailed(tx, row.id, error, opts);
    if (failed?.status !== 'failed' || row.gameId === null || row.kind === 'undelivered') return;
    const [game] = await findGames(tx, [row.gameId]);
    if (!game) return;
    const domain = row.messageId.slice(row.messageId.lastIndexOf('@') + 1); // our own Message-IDs end with our domain
    const thread = gameThread(game.id, domain);
    // Referees use the console, in English.
    const text = deliveryTexts.en.undelivered({
      game: game.id,
      gameName: game.name,
      to: row.toAddress,
      subject: row.subject,
      error: error.slice(0, 500),
      outboxId: row.id,
    });
    const referees = (await refereeAddressesOf(tx, [game.id])).get(game.id) ?? [];
    await enqueueMany(
      tx,
      referees.map((to) => ({
        kind: 'undelivered',
        gameId: game.id,
        toAddress: to,
        subject: text.subject,
        bodyText: text.text,
        inReplyTo: thread,
        references: thread,
        messageId: newMessageId(domain),
        dedupeKey: `undelivered:${row.id}:${to}`,
      })),
    );
  });
}
