// What becomes of one stored mail: ignored (loops), refused (identity), answered (commands,
// unreadable, late) or stored as a new sheet version and acknowledged. Everything it changes —
// the sheet, the replies in the outbox, the message's outcome — commits in one transaction that
// starts by locking the message, so two instances never process one mail twice.
import { eq, getTableColumns } from 'drizzle-orm';
import type { Logger } from 'pino';
import { classicMap, type Board } from '../../adjudicator/map.ts';
import type { Db } from '../../db/client.ts';
import { markProcessed, type InboundMessage, type InboundOutcome } from '../../db/inbound.ts';
import { findOutboxByMessageId } from '../../db/outbox.ts';
import { inboundMessages } from '../../db/schema.ts';
import { extractMail, type ExtractedMail } from '../extract.ts';
import { identifySender } from './identify-sender.ts';
import { answerPlayer, type PlayerMailContext } from './answer-player.ts';
import { enqueueReply, replySubject, type ReplyContext } from './outgoing.ts';
import { refusalText, spoofWarningText } from './reply-texts.ts';
import { formatInstant } from '../../games/time-format.ts';

export interface IntakeDeps {
  db: Db;
  log: Logger;
  now: () => Date;
  mail: {
    domain: string;
    ordersLocalPart: string;
    maxBytes: number;
    replyRateLimitPerHour: number;
    /** Our own addresses: mail from them is never answered. */
    ourAddresses: string[];
  };
  /** The map a game is played on (R-BOARD-5). */
  boardFor?: (mapId: string) => Board;
}

export type IntakeResult = Pick<InboundOutcome, 'status' | 'outcome'> | { status: 'already'; outcome: string | null };

/** Locks the message's row and reads it, all but the bytes: the caller has those already. */
async function lockInbound(tx: Db, id: number, raw: Buffer): Promise<InboundMessage | null> {
  const { raw: _bytes, ...columns } = getTableColumns(inboundMessages);
  const [row] = await tx.select(columns).from(inboundMessages).where(eq(inboundMessages.id, id)).for('update');
  return row ? { ...row, raw } : null;
}

/**
 * `justStored`: the bytes of a message this caller has just inserted (so it is pending unless
 * another instance got there first, which the locked re-check below catches). It spares reading
 * back what we hold already — a round trip, and megabytes for a large mail.
 */
export async function processInbound(deps: IntakeDeps, id: number, justStored?: Buffer): Promise<IntakeResult> {
  const { db, log } = deps;
  let raw = justStored;
  if (!raw) {
    const peek = await db.select({ raw: inboundMessages.raw, status: inboundMessages.status, outcome: inboundMessages.outcome })
      .from(inboundMessages).where(eq(inboundMessages.id, id));
    const first = peek[0];
    if (!first) throw new Error(`inbound message ${id} does not exist`);
    if (first.status !== 'pending') return { status: 'already', outcome: first.outcome };
    raw = first.raw;
  }
  // Parsing is slow and pure: done before the transaction, which then stays short.
  const mail = await extractMail(raw, {
    maxBytes: deps.mail.maxBytes,
    ourDomain: deps.mail.domain,
    ordersLocalPart: deps.mail.ordersLocalPart,
    ourAddresses: deps.mail.ourAddresses,
  });
  return db.transaction(async (tx) => {
    const row = await lockInbound(tx, id, raw);
    if (!row || row.status !== 'pending') return { status: 'already', outcome: row?.outcome ?? null } as const;
    const outcome = await decide(deps, tx, row, mail);
    await markProcessed(tx, id, { ...outcome, at: deps.now() });
    log.info({ inbound: id, from: mail.from, status: outcome.status, outcome: outcome.outcome }, 'mail processed');
    return { status: outcome.status, outcome: outcome.outcome };
  });
}

async function decide(deps: IntakeDeps, tx: Db, row: InboundMessage, mail: ExtractedMail): Promise<InboundOutcome> {
  const now = deps.now();
  if (mail.automatic) return { status: 'ignored', outcome: 'automatic', detail: { reasons: mail.automaticReasons } };
  if (mail.messageId && (await findOutboxByMessageId(tx, mail.messageId.replace(/^<|>$/g, '')))) {
    return { status: 'ignored', outcome: 'own-mail' };
  }
  const replyCtx: ReplyContext = { domain: deps.mail.domain, ordersLocalPart: deps.mail.ordersLocalPart, replyRateLimitPerHour: deps.mail.replyRateLimitPerHour, now };
  const thread = { messageId: mail.messageId, references: mail.references, subject: mail.subject };
  const who = await identifySender(tx, mail);
  if (who.kind === 'refused') {
    const detail: Record<string, unknown> = { reason: who.reason, from: mail.from };
    if (who.answer) {
      detail.answered = await enqueueReply(tx, replyCtx, {
        kind: 'refusal',
        gameId: who.game?.id ?? who.answer.gameId,
        to: who.answer.email,
        subject: replySubject(thread, 'Starts Foundation', who.game?.id ?? null),
        text: refusalText(who.answer.lang, who.reason, who.game?.id ?? mail.gameTag),
        thread,
        dedupeKey: `refusal:${row.id}`,
      });
    }
    if (who.warn && who.warn.email !== who.answer?.email) {
      const tz = who.warn.timeZone ?? who.game?.timeZone ?? 'UTC';
      detail.warned = await enqueueReply(tx, replyCtx, {
        kind: 'warning',
        gameId: who.warn.gameId,
        to: who.warn.email,
        subject: `[SF ${who.warn.gameId}] ${who.warn.lang === 'it' ? 'Tentativo di usare il tuo codice' : 'Someone tried to use your code'}`,
        text: spoofWarningText(who.warn.lang, mail.from ?? '?', formatInstant(row.receivedAt, tz, who.warn.lang)),
        thread: null,
        dedupeKey: `warning:${row.id}`,
      });
    }
    return {
      status: who.reason === 'unknown-sender' ? 'ignored' : 'rejected',
      outcome: who.reason,
      detail,
      gameId: who.game?.id ?? null,
      playerId: who.warn?.id ?? who.answer?.id ?? null,
    };
  }
  const board = (deps.boardFor ?? (() => classicMap()))(who.game.map);
  const ctx: PlayerMailContext = { tx, row, mail, player: who.player, game: who.game, board, replyCtx, thread };
  return answerPlayer(ctx);
}
