// A reply to a relayed press message, sent to its conversation's token address by the token's
// owner from a registered address (both factors checked by identify-sender.ts, D-PRESS-9). Its
// text — quotes and signature already stripped by the sheet's readers — is a message to the
// conversation or a REPORT, never a sheet: nothing in it is read as orders. The message, its
// relays and the acknowledgement are written in the batch's transaction, as a new message's are.
import type { InboundOutcome } from '../../db/inbound.ts';
import type { FoundToken } from '../../db/press.ts';
import { pressReplyAddress } from '../../games/press/press-token.ts';
import { relayPressRun, relayRefereeReply, type PressReplyResult } from '../../games/press/relay.ts';
import { refereeReplyText } from '../../games/press/read-press.ts';
import type { Board } from '../../adjudicator/map.ts';
import type { Game } from '../../db/games.ts';
import type { InboundHead } from '../../db/inbound.ts';
import type { IntakeStore } from './intake-store.ts';
import type { ReadMail } from './read-mails.ts';
import type { ReplyContext, Thread } from './outgoing.ts';
import { answerPlayer, pressWriterFacts, textOnlyNote, type PlayerMailContext } from './answer-player.ts';
import { enqueueReply, replySubject } from './outgoing.ts';

export interface PressReplyContext extends PlayerMailContext {
  token: FoundToken;
  /** Where reports go when the game has no referee (D-PRESS-17), and the console's address. */
  operatorAddress?: string;
  publicUrl?: string;
}

export function answerPressReply(c: PressReplyContext): InboundOutcome {
  const { store, mail, player, game } = c;
  // What is wrong with the mail itself is answered as for any player's mail (too large, unreadable).
  if (mail.oversized || mail.bodyFailure || (mail.broken && mail.sheetSource === 'none')) return answerPlayer(c);
  const addressing = { domain: c.replyCtx.domain, ordersLocalPart: c.replyCtx.ordersLocalPart };
  // Text only: an attachment is never relayed (the reader may have taken one for the text).
  const text = mail.sheetSource === 'attachment' ? '' : mail.sheetText;
  const summary: { press?: PressReplyResult['summary'] } = {};
  // Relayed in bulk with the batch's other press mails and replies in a row (relayPressRun), then queued in order.
  store.laterMany(
    relayPressRun,
    {
      kind: 'reply',
      deps: {
        mail: addressing,
        ...(c.operatorAddress ? { operatorAddress: c.operatorAddress } : {}),
        ...(c.publicUrl ? { publicUrl: c.publicUrl } : {}),
      },
      facts: {
        ...pressWriterFacts(c),
        token: c.token,
        references: [...(mail.inReplyTo ? [mail.inReplyTo] : []), ...mail.references],
      },
      text,
    },
    (result) => {
      const r = result as PressReplyResult;
      summary.press = r.summary;
      // Relays and reports are not replies: they do not count towards anyone's hourly limit.
      for (const m of [...r.relays, ...r.toReferees]) store.enqueue(m, false);
      acknowledgeInThread(c, player.email, [...r.ack, ...textOnlyNote(mail, player.lang)]);
    },
  );
  return { gameId: game.id, playerId: player.id, status: 'processed', outcome: 'press-reply', detail: summary };
}

export interface RefereeReplyContext {
  store: IntakeStore;
  row: InboundHead;
  mail: ReadMail;
  referee: { id: number; email: string };
  game: Game;
  board: Board;
  replyCtx: ReplyContext;
  thread: Thread;
  token: FoundToken;
}

/** A referee's reply in a player's conversation with the referees: relayed to the player, acknowledged to the referee. */
export function answerRefereeReply(c: RefereeReplyContext): InboundOutcome {
  const { store, row, mail, game } = c;
  const addressing = { domain: c.replyCtx.domain, ordersLocalPart: c.replyCtx.ordersLocalPart };
  // Too large or unreadable: nothing to relay; the acknowledgement says the reply was empty.
  const unread = mail.oversized || !!mail.bodyFailure || mail.sheetSource === 'attachment';
  const summary: { press?: PressReplyResult['summary'] } = {};
  store.later(async (tx) => {
    const r = await relayRefereeReply(
      tx,
      { mail: addressing },
      {
        game,
        board: c.board,
        referee: c.referee,
        seated: store.playersOf(game.id).filter((p) => p.removedAt === null),
        inboundId: row.id,
        receivedAt: row.receivedAt,
        token: c.token,
        references: [...(mail.inReplyTo ? [mail.inReplyTo] : []), ...mail.references],
      },
      // The player reads it as a player's message is read: controls and overrides gone (D-INPUT-1),
      // a copy of the relay answered left out.
      unread ? '' : refereeReplyText(mail.sheetText),
    );
    summary.press = r.summary;
    for (const m of r.relays) store.enqueue(m, false);
    acknowledgeInThread(c, c.referee.email, r.ack);
  });
  return { gameId: game.id, playerId: null, status: 'processed', outcome: 'referee-reply', detail: summary };
}

/**
 * A reply's acknowledgement to its writer, in the mail's thread; its Reply-To is the writer's own
 * token, so that replying to the acknowledgement continues the same conversation.
 */
function acknowledgeInThread(
  c: { store: IntakeStore; row: InboundHead; game: Game; replyCtx: ReplyContext; thread: Thread; token: FoundToken },
  to: string,
  ack: readonly string[],
): void {
  const { game } = c;
  enqueueReply(c.store, c.replyCtx, {
    kind: 'press-ack',
    gameId: game.id,
    to,
    replyTo: pressReplyAddress({ domain: c.replyCtx.domain, ordersLocalPart: c.replyCtx.ordersLocalPart }, c.token.token),
    subject: replySubject(c.thread, game.name, game.id),
    text: ack.join('\n'),
    thread: c.thread,
    dedupeKey: `press-ack:${c.row.id}`,
    echoKey: null,
  });
}
