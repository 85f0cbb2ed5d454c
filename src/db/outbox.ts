// Mail to send. Rows are written in the same transaction as the change they announce, then sent
// by whichever service instance claims them; several instances may share one PostgreSQL.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { exponentialDelay } from '../timing.ts';
import { pgArray, recordsetInsert, rowsOf } from './arrays.ts';
import type { AttachmentRef } from './assets.ts';
import type { Db } from './client.ts';
import { outbox } from './schema.ts';

export type OutboxMail = typeof outbox.$inferSelect;

export interface OutboxInput {
  kind: string;
  gameId: string | null;
  toAddress: string;
  replyTo?: string | null;
  subject: string;
  inReplyTo?: string | null;
  references?: string | null;
  messageId: string;
  bodyText: string;
  bodyHtml?: string | null;
  attachments?: AttachmentRef[] | null;
  headers?: Record<string, string> | null;
  /** The same key is enqueued at most once (e.g. `ack:<inbound id>`, `welcome:<player id>`). */
  dedupeKey: string;
  /** Not sent before then (an anonymous message's relays, D-PRESS-10); else due when queued. */
  nextAttemptAt?: Date;
}

/** A Message-ID of ours, without angle brackets (the outbox stores it bare, as inbound does). */
export function newMessageId(domain: string): string {
  return `${randomUUID()}@${domain}`;
}

/** `id@host` → `<id@host>`; Message-ID, In-Reply-To and References want the angle brackets. */
export function bracketed(id: string): string {
  const t = id.trim();
  return t.startsWith('<') ? t : `<${t}>`;
}

/** Enqueues a mail unless its dedupe key is already there; returns the row either way. */
export async function enqueue(db: Db, mail: OutboxInput): Promise<{ mail: OutboxMail; duplicate: boolean }> {
  const [row] = await db.insert(outbox).values(mail).onConflictDoNothing({ target: outbox.dedupeKey }).returning();
  if (row) return { mail: row, duplicate: false };
  const [seen] = await db.select().from(outbox).where(eq(outbox.dedupeKey, mail.dedupeKey));
  if (!seen) throw new Error(`outbox ${mail.dedupeKey} conflicted but cannot be found`);
  return { mail: seen, duplicate: true };
}

/** Enqueues many mails in one statement; a dedupe key already there is skipped. */
export async function enqueueMany(db: Db, mails: OutboxInput[]): Promise<void> {
  if (mails.length === 0) return;
  const spec = {
    kind: 'text',
    gameId: 'text',
    toAddress: 'text',
    replyTo: 'text',
    subject: 'text',
    inReplyTo: 'text',
    references: 'text',
    messageId: 'text',
    bodyText: 'text',
    bodyHtml: 'text',
    attachments: 'jsonb',
    headers: 'jsonb',
    dedupeKey: 'text',
    nextAttemptAt: 'timestamptz',
  } as const;
  // Any conflict is a dedupe key (message ids are fresh UUIDs). Due when queued unless held: set
  // here rather than updated after (an UPDATE of next_attempt_at rewrites every index of the row).
  await db.execute(recordsetInsert(outbox, spec, mails, { onConflictDoNothing: true, orElse: { nextAttemptAt: sql`now()` } }));
}

/**
 * Which of `values` are in a unique text column of the outbox: one array parameter, not one per
 * value (drizzle builds and types each parameter, and intake asks for a whole batch's at once).
 */
async function presentIn(
  db: Db,
  column: typeof outbox.messageId | typeof outbox.dedupeKey,
  values: readonly string[],
): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const rows = await db
    .select({ value: column })
    .from(outbox)
    .where(sql`${column} = any(${pgArray([...new Set(values)])}::text[])`);
  return new Set(rows.map((r) => r.value));
}

/** Which of these Message-IDs (bare) are of mail we sent: our own mail coming back. */
export function ownMessageIds(db: Db, messageIds: readonly string[]): Promise<Set<string>> {
  return presentIn(db, outbox.messageId, messageIds);
}

/** Which of these dedupe keys are taken already (the unique index answers). */
export function takenDedupeKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  return presentIn(db, outbox.dedupeKey, keys);
}

/** Replies (mail of `kinds`) written to each address since `since`: for the hourly limit. */
export async function countSentSince(db: Db, addresses: string[], kinds: readonly string[], since: Date): Promise<Map<string, number>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .select({ to: outbox.toAddress, n: sql<number>`count(*)::int` })
    .from(outbox)
    .where(and(inArray(outbox.toAddress, addresses), gte(outbox.createdAt, since), inArray(outbox.kind, [...kinds])))
    .groupBy(outbox.toAddress);
  return new Map(rows.map((r) => [r.to, r.n]));
}

export interface ClaimOptions {
  limit?: number;
  now?: Date;
  /** How long a claim lasts; an instance that dies mid-send leaves the mail to be retried after it. */
  leaseMs?: number;
}

/**
 * Claims due mail for sending. SKIP LOCKED lets concurrent instances take disjoint batches; the
 * claim pushes next_attempt_at past the lease, so a claimed row is not due again until the lease
 * runs out, whether or not the claiming transaction is still open.
 */
export async function claimBatch(db: Db, opts: ClaimOptions = {}): Promise<OutboxMail[]> {
  const now = opts.now ?? new Date();
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(opts.limit ?? 20)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(outbox)
    .set({
      attempts: sql`${outbox.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + (opts.leaseMs ?? 5 * 60_000)),
    })
    .where(inArray(outbox.id, due))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Hands a claimed mail back untried: due at once again, the claim not counted as an attempt. */
export async function releaseClaim(db: Db, id: number, now: Date = new Date()): Promise<void> {
  await db
    .update(outbox)
    .set({ nextAttemptAt: now, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'pending')));
}

/**
 * Records mails as sent, each at its own time, in one statement (the sender writes the marks of the
 * mails the relay took in the same few milliseconds together); how many rows it marked. The commit
 * does not wait for the disk (synchronous_commit off, for this transaction only): a database crash
 * in the next moment can lose the marks, and those mails are then sent again with the same
 * Message-ID — what a crash of the sender can do anyway — while sending stops waiting for an fsync
 * (bench:deadline: the send rate).
 */
export async function markSentMany(db: Db, marks: readonly { id: number; at: Date }[]): Promise<number> {
  if (marks.length === 0) return 0;
  // One statement, so one round trip: set_config(…, true) lasts to the end of this statement's own
  // transaction, whose commit it governs.
  const ids = pgArray(marks.map((m) => m.id));
  const ats = pgArray(marks.map((m) => m.at.toISOString()));
  const rows = await rowsOf<{ id: unknown }>(
    db,
    sql`with quick as (select set_config('synchronous_commit', 'off', true))
        update ${outbox} set status = 'sent', sent_at = m.at, last_error = null
        from quick, unnest(${ids}::bigint[], ${ats}::timestamptz[]) as m(id, at)
        where ${outbox.id} = m.id returning ${outbox.id}`,
  );
  return rows.length;
}

/** Records one mail as sent (markSentMany); false when there is no such mail. */
export async function markSent(db: Db, id: number, at: Date = new Date()): Promise<boolean> {
  return (await markSentMany(db, [{ id, at }])) > 0;
}

export interface FailOptions {
  now?: Date;
  /** The server refused for good (a 5xx): do not retry. */
  permanent?: boolean;
  /** After this many attempts the mail is given up as failed (by default only its age counts). */
  maxAttempts?: number;
  /** A mail this old is given up as failed: GIVE_UP_AFTER_MS unless given. */
  giveUpAfterMs?: number;
}

/**
 * How long a mail the relay does not take is retried, like a mail server's queue: a relay down
 * for a long weekend delays the edicts, it does not lose them (D-MAIL-34).
 */
export const GIVE_UP_AFTER_MS = 5 * 24 * 3_600_000;
const MIN_ATTEMPTS = 10;

/** Retry delay after the n-th failed attempt: 1, 2, 4 … minutes, at most an hour. */
export function backoffMs(attempts: number): number {
  return exponentialDelay(attempts - 1, { initialMs: 60_000, maxMs: 3_600_000 });
}

export async function markFailed(db: Db, id: number, error: string, opts: FailOptions = {}): Promise<OutboxMail | null> {
  const now = opts.now ?? new Date();
  const [current] = await db.select({ attempts: outbox.attempts, createdAt: outbox.createdAt }).from(outbox).where(eq(outbox.id, id));
  if (!current) return null;
  // A mail the referee queued again (attempts counted afresh) gets a few tries however old it is.
  const tooOld =
    current.attempts >= MIN_ATTEMPTS && now.getTime() - current.createdAt.getTime() >= (opts.giveUpAfterMs ?? GIVE_UP_AFTER_MS);
  const giveUp = opts.permanent === true || tooOld || current.attempts >= (opts.maxAttempts ?? Infinity);
  const [row] = await db
    .update(outbox)
    .set({
      status: giveUp ? 'failed' : 'pending',
      lastError: error.slice(0, 2000),
      nextAttemptAt: new Date(now.getTime() + backoffMs(current.attempts)),
    })
    .where(eq(outbox.id, id))
    .returning();
  return row ?? null;
}

export async function findOutbox(db: Db, id: number): Promise<OutboxMail | null> {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row ?? null;
}

export async function listOutbox(db: Db, filter: { gameId?: string; kind?: string } = {}): Promise<OutboxMail[]> {
  const where = [];
  if (filter.gameId !== undefined) where.push(eq(outbox.gameId, filter.gameId));
  if (filter.kind !== undefined) where.push(eq(outbox.kind, filter.kind));
  return db
    .select()
    .from(outbox)
    .where(and(...where))
    .orderBy(asc(outbox.id));
}

/** A game's outgoing mail, locked until the transaction ends (a referee's retry or drop). */
export async function lockGameMail(tx: Db, gameId: string, id: number): Promise<OutboxMail | null> {
  const [row] = await tx
    .select()
    .from(outbox)
    .where(and(eq(outbox.id, id), eq(outbox.gameId, gameId)))
    .for('update');
  return row ?? null;
}

/** A mail back in the queue, due at `now`, its attempts counted afresh. */
export async function requeueMail(db: Db, id: number, now: Date): Promise<OutboxMail> {
  const [row] = await db.update(outbox).set({ status: 'pending', attempts: 0, nextAttemptAt: now }).where(eq(outbox.id, id)).returning();
  return row!;
}

/** A mail given up: failed, with `error` as the reason. */
export async function giveUpMail(db: Db, id: number, error: string): Promise<OutboxMail> {
  const [row] = await db
    .update(outbox)
    .set({ status: 'failed', lastError: error.slice(0, 2000) })
    .where(eq(outbox.id, id))
    .returning();
  return row!;
}

/** Our own mail coming back (a bounce, a loop) is recognised by its Message-ID. */
export async function findOutboxByMessageId(db: Db, messageId: string): Promise<OutboxMail | null> {
  const [row] = await db
    .select()
    .from(outbox)
    .where(eq(outbox.messageId, messageId.replace(/^<|>$/g, '')));
  return row ?? null;
}
