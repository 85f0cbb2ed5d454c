// Sends what the outbox holds. Any instance may run this: claims are leases (SKIP LOCKED), so
// a mail is handed to one sender at a time, and a sender that dies leaves it to be retried.
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { findAssets, type AttachmentRef, type MailAsset } from '../../db/assets.ts';
import { claimBatch, markFailed, markSent, releaseClaim, type OutboxMail } from '../../db/outbox.ts';
import { ANSWER_KINDS } from '../intake/outgoing.ts';
import { bracketed } from './headers.ts';
import type { MailTransport, OutgoingMail } from './types.ts';

export interface OutboxSenderDeps {
  db: Db;
  transport: MailTransport;
  from: string;
  log: Logger;
  now?: () => Date;
  /** The clock the lease runs on (milliseconds): the wall clock, whatever clock the game uses. */
  leaseClock?: () => number;
}

export function toOutgoing(row: OutboxMail, from: string, assets: ReadonlyMap<number, MailAsset> = new Map()): OutgoingMail {
  const mail: OutgoingMail = { from, to: row.toAddress, subject: row.subject, text: row.bodyText, messageId: bracketed(row.messageId), reply: ANSWER_KINDS.has(row.kind) };
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
/** Mails in flight at once: a few more than the SMTP pool's 3 connections, so that one mail's database write overlaps another's SMTP transaction. */
const CONCURRENCY = 5;

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
    const read = await findAssets(db, ids.filter((id) => !out.has(id)));
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

/** Sends one batch of due mail; returns how many were sent. */
export async function sendDueMail(deps: OutboxSenderDeps, limit = 100): Promise<number> {
  const now = deps.now ?? (() => new Date());
  const leaseClock = deps.leaseClock ?? Date.now;
  const claimedAt = leaseClock();
  const rows = await claimBatch(deps.db, { limit, now: now(), leaseMs: SEND_LEASE_MS });
  if (rows.length === 0) return 0;
  let cache = assetCaches.get(deps.db);
  if (!cache) assetCaches.set(deps.db, (cache = new AssetCache(ASSET_CACHE_BYTES)));
  const assets = await cache.get(deps.db, [...new Set(rows.flatMap((r) => attachmentsOf(r).map((a) => a.assetId)))]);
  let sent = 0;
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      if (leaseClock() - claimedAt > SEND_LEASE_MS / 2) {
        await releaseClaim(deps.db, row.id, now());
        continue;
      }
      if (await sendOne(deps, row, assets, now)) sent++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  return sent;
}

async function sendOne(deps: OutboxSenderDeps, row: OutboxMail, assets: ReadonlyMap<number, MailAsset>, now: () => Date): Promise<boolean> {
  try {
    await deps.transport.send(toOutgoing(row, deps.from, assets));
    await markSent(deps.db, row.id, now());
    return true;
  } catch (err) {
    const permanent = isPermanent(err);
    deps.log.warn({ err, outbox: row.id, to: row.toAddress, permanent }, 'sending failed');
    await markFailed(deps.db, row.id, String((err as Error).message ?? err), { now: now(), permanent });
    return false;
  }
}
