// Inbound mail, stored byte for byte before anything else happens to it, so that nothing is
// lost if parsing or answering fails, and so the referee can always see what a player sent.
import { createHash } from 'node:crypto';
import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { inboundMessages } from './schema.ts';

export type InboundMessage = typeof inboundMessages.$inferSelect;
export type InboundSource = InboundMessage['source'];
export type InboundStatus = InboundMessage['status'];

export interface InboundMeta {
  source: InboundSource;
  /** Unique per delivery: `imap:<uidvalidity>:<uid>`, a maildir file name, `cli:<sha256>`… */
  sourceKey: string;
  /** Taken from the headers when not given (undefined); null means the mail has none. */
  messageId?: string | null;
  receivedAt?: Date;
}

/** The Message-ID header, unfolded, without angle brackets; null when there is none. */
export function headerMessageId(raw: Uint8Array): string | null {
  const head = headerBlock(raw).toString('latin1').replace(/\r?\n[ \t]+/g, ' ');
  const m = /^message-id:[ \t]*<?([^\s<>]+)>?/im.exec(head);
  return m ? m[1]! : null;
}

/**
 * sha256 of the body only: two copies of one message (say To: the private address and Cc: the
 * common one) differ in their trace headers (Received, Delivered-To) but not in their body.
 */
export function contentSha256(raw: Uint8Array): string {
  return createHash('sha256').update(asBuffer(raw).subarray(headerBlock(raw).length)).digest('hex');
}

// A view, not a copy: messages may be megabytes.
const asBuffer = (raw: Uint8Array): Buffer => Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);

function headerBlock(raw: Uint8Array): Buffer {
  const buf = asBuffer(raw);
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  const ends = [crlf < 0 ? -1 : crlf + 4, lf < 0 ? -1 : lf + 2].filter((n) => n >= 0);
  return buf.subarray(0, ends.length ? Math.min(...ends) : buf.length);
}

/**
 * Stores a message unless it is already stored: the same delivery (source key), or the same
 * message arriving twice (Message-ID and body). Returns the stored row's id either way.
 */
export async function storeInbound(
  db: Db,
  raw: Uint8Array,
  meta: InboundMeta,
): Promise<{ id: number; duplicate: boolean }> {
  const messageId = meta.messageId === undefined ? headerMessageId(raw) : meta.messageId;
  const hash = contentSha256(raw);
  const [row] = await db
    .insert(inboundMessages)
    .values({
      source: meta.source,
      sourceKey: meta.sourceKey,
      messageId,
      contentSha256: hash,
      raw: asBuffer(raw),
      size: raw.byteLength,
      ...(meta.receivedAt ? { receivedAt: meta.receivedAt } : {}),
    })
    // No conflict target: either unique constraint (source key, message id + hash) means "seen".
    .onConflictDoNothing()
    .returning({ id: inboundMessages.id });
  if (row) return { id: row.id, duplicate: false };

  const [seen] = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(
      messageId === null
        ? eq(inboundMessages.sourceKey, meta.sourceKey)
        : sql`${inboundMessages.sourceKey} = ${meta.sourceKey}
            or (${inboundMessages.messageId} = ${messageId} and ${inboundMessages.contentSha256} = ${hash})`,
    )
    .orderBy(asc(inboundMessages.id))
    .limit(1);
  if (!seen) throw new Error(`inbound message ${meta.sourceKey} conflicted but cannot be found`);
  return { id: seen.id, duplicate: true };
}

export interface InboundOutcome {
  status: Exclude<InboundStatus, 'pending'>;
  /** A word for the referee console: `sheet`, `auto-reply`, `unknown-sender`, `too-large`… */
  outcome: string;
  detail?: unknown;
  gameId?: string | null;
  playerId?: number | null;
  at?: Date;
}

/** Records what became of a message. Null when there is no such message. */
export async function markProcessed(db: Db, id: number, o: InboundOutcome): Promise<Omit<InboundMessage, 'raw'> | null> {
  const { raw: _bytes, ...columns } = getTableColumns(inboundMessages); // not megabytes back for a word
  const [row] = await db
    .update(inboundMessages)
    .set({
      status: o.status,
      outcome: o.outcome,
      outcomeDetail: o.detail ?? null,
      gameId: o.gameId ?? null,
      playerId: o.playerId ?? null,
      processedAt: o.at ?? new Date(),
    })
    .where(eq(inboundMessages.id, id))
    .returning(columns);
  return row ?? null;
}

export async function findInbound(db: Db, id: number): Promise<InboundMessage | null> {
  const [row] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
  return row ?? null;
}

/** Stored but not yet processed (say the process stopped in between), oldest first. */
export async function listPendingInbound(db: Db, limit = 100): Promise<InboundMessage[]> {
  return db
    .select()
    .from(inboundMessages)
    .where(eq(inboundMessages.status, 'pending'))
    .orderBy(asc(inboundMessages.receivedAt), asc(inboundMessages.id))
    .limit(limit);
}
