// Replies to players go through the outbox, in the transaction of the change they announce,
// threaded under the mail they answer, and never more than the hourly limit to one address
// (a last guard against loops with a misbehaving robot).
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { enqueue, newMessageId } from '../../db/outbox.ts';
import { outbox } from '../../db/schema.ts';
import { bracketed } from '../send/headers.ts';

/** Kinds of mail written in answer to an inbound mail: these count towards the rate limit. */
export const REPLY_KINDS = ['ack', 'refusal', 'warning', 'status', 'help', 'late', 'unreadable'] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

export interface ReplyContext {
  domain: string;
  ordersLocalPart: string;
  replyRateLimitPerHour: number;
  now: Date;
}

export interface Thread {
  messageId: string | null;
  references: string[];
  subject: string | null;
}

/** `Re: <their subject>`, keeping the game tag visible so the player sees which game it is about. */
export function replySubject(thread: Thread | null, fallback: string, tag: string | null): string {
  const base = thread?.subject?.trim() ? thread.subject.trim() : fallback;
  const re = /^(re|r|aw|sv|antw)\s*:/i.test(base) ? base : `Re: ${base}`;
  return tag && !re.toLowerCase().includes(`[sf ${tag.toLowerCase()}]`) ? `${re} [SF ${tag}]` : re;
}

export async function repliesSentSince(db: Db, address: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(outbox)
    .where(and(eq(outbox.toAddress, address), gte(outbox.createdAt, since), inArray(outbox.kind, [...REPLY_KINDS])));
  return row?.n ?? 0;
}

export interface Reply {
  kind: ReplyKind;
  gameId: string | null;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  thread: Thread | null;
  dedupeKey: string;
}

/** Enqueues a reply unless the address has had its fill this hour. Returns whether it was enqueued. */
export async function enqueueReply(db: Db, ctx: ReplyContext, reply: Reply): Promise<boolean> {
  const since = new Date(ctx.now.getTime() - 3_600_000);
  if ((await repliesSentSince(db, reply.to, since)) >= ctx.replyRateLimitPerHour) return false;
  const id = reply.thread?.messageId ?? null;
  const refs = [...(reply.thread?.references ?? []), ...(id ? [id] : [])].map(bracketed);
  await enqueue(db, {
    kind: reply.kind,
    gameId: reply.gameId,
    toAddress: reply.to,
    replyTo: reply.replyTo ?? null,
    subject: reply.subject,
    inReplyTo: id ? bracketed(id) : null,
    references: refs.length ? refs.join(' ') : null,
    messageId: newMessageId(ctx.domain),
    bodyText: reply.text,
    dedupeKey: reply.dedupeKey,
  });
  return true;
}
