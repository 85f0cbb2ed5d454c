// A game's mail to one address, made in one place: the address, the game's thread, the private
// reply-to, a fresh Message-ID and the dedupe key become one outbox row here, and nowhere else.
// The transports only deliver it (nodemailer's mail-composer and transports); the headers every
// mail of ours carries (Auto-Submitted, X-SF-Origin) are added when it is sent, by its kind.
import type { AttachmentRef } from '../db/assets.ts';
import { bracketed, newMessageId, type OutboxInput } from '../db/outbox.ts';
import type { Player } from '../db/players.ts';
import type { Config } from '../config.ts';
import { gameThread } from './thread.ts';

export type MailAddressing = Pick<Config['mail'], 'domain' | 'ordersLocalPart'>;

/** `orders+<secret>@<domain>`: the secret names game and player (MAIL.md). */
export function privateAddress(mail: MailAddressing, secret: string): string {
  return `${mail.ordersLocalPart}+${secret}@${mail.domain}`;
}

export interface GameMail {
  kind: string;
  gameId: string;
  to: string;
  /** The secret of the player whose private address takes the replies; null: no reply-to. */
  replySecret: string | null;
  /** Rendered in the reader's language by the caller (each text takes its own values). */
  subject: string;
  text: string;
  html?: string | null;
  attachments?: AttachmentRef[] | null;
  headers?: Record<string, string> | null;
  /** The same key is enqueued at most once: what happened, to whom (`pause:<game>:<at>:<player>`). */
  dedupeKey: string;
  /** False for a mail that starts its own conversation (the welcome); the rest thread under the game. */
  threaded?: boolean;
  /** A conversation of its own instead of the game's (a press thread's root for this reader, bare or bracketed). */
  threadRoot?: string | null;
  /** A reply address other than the private one (a press thread's token address); wins over `replySecret`. */
  replyAddress?: string | null;
}

export function gameMail(mail: MailAddressing, m: GameMail): OutboxInput {
  const thread = m.threadRoot ? bracketed(m.threadRoot) : m.threaded === false ? null : gameThread(m.gameId, mail.domain);
  return {
    kind: m.kind,
    gameId: m.gameId,
    toAddress: m.to,
    replyTo: m.replyAddress ? m.replyAddress : m.replySecret === null ? null : privateAddress(mail, m.replySecret),
    subject: m.subject,
    inReplyTo: thread,
    references: thread,
    messageId: newMessageId(mail.domain),
    bodyText: m.text,
    ...(m.html != null ? { bodyHtml: m.html } : {}),
    ...(m.attachments != null ? { attachments: m.attachments } : {}),
    ...(m.headers != null ? { headers: m.headers } : {}),
    dedupeKey: m.dedupeKey,
  };
}

/** The common case: to a player's address, replies to their private address. */
export function playerMail(
  mail: MailAddressing,
  p: Pick<Player, 'email' | 'secret'>,
  m: Omit<GameMail, 'to' | 'replySecret' | 'subject' | 'text'> & { rendered: { subject: string; text: string } },
): OutboxInput {
  const { rendered, ...rest } = m;
  return gameMail(mail, { ...rest, to: p.email, replySecret: p.secret, subject: rendered.subject, text: rendered.text });
}
