// Replies to players go through the outbox, in the transaction of the change they announce,
// threaded under the mail they answer, and never more than the hourly limit to one address
// (a last guard against loops with a misbehaving robot).
import { newMessageId } from '../../db/outbox.ts';
import { bracketed } from '../send/headers.ts';
import type { IntakeStore } from './intake-store.ts';

/** Kinds of mail written in answer to an inbound mail: these count towards the rate limit. */
export const REPLY_KINDS = ['ack', 'press-ack', 'refusal', 'warning', 'status', 'help', 'late', 'unreadable'] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];
/** The reply kinds that answer whoever wrote (RFC 3834 `auto-replied`); a warning goes to the code's owner. */
export const ANSWER_KINDS: ReadonlySet<string> = new Set<string>(REPLY_KINDS.filter((k) => k !== 'warning'));

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

export interface Reply {
  kind: ReplyKind;
  gameId: string | null;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  thread: Thread | null;
  dedupeKey: string;
  /** For an answer to mail that is not a sheet (echo-guard.ts): sent once per sender, text and day. */
  echoKey?: string | null;
}

/**
 * An acknowledgement of an authenticated sheet goes out even past the hourly limit: refusals to
 * mail forged in the player's name must not starve it. It still counts, and this many
 * times the limit stops it, a last guard against a loop through the player's own robot.
 */
export const ACK_CEILING_FACTOR = 5;

/** Enqueues a reply unless the address has had its fill this hour. Returns whether it was enqueued. */
export function enqueueReply(store: IntakeStore, ctx: ReplyContext, reply: Reply): boolean {
  const limit =
    reply.kind === 'ack' || reply.kind === 'press-ack' ? ctx.replyRateLimitPerHour * ACK_CEILING_FACTOR : ctx.replyRateLimitPerHour;
  if (store.repliesTo(reply.to) >= limit) return false;
  if (reply.echoKey && store.answered(reply.echoKey)) return false;
  const id = reply.thread?.messageId ?? null;
  const refs = [...(reply.thread?.references ?? []), ...(id ? [id] : [])].map(bracketed);
  store.enqueue(
    {
      kind: reply.kind,
      gameId: reply.gameId,
      toAddress: reply.to,
      replyTo: reply.replyTo ?? null,
      subject: reply.subject,
      inReplyTo: id ? bracketed(id) : null,
      references: refs.length ? refs.join(' ') : null,
      messageId: newMessageId(ctx.domain),
      bodyText: reply.text,
      dedupeKey: reply.echoKey ?? reply.dedupeKey,
    },
    true,
  );
  return true;
}
