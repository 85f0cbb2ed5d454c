// Mail whose sender or code does not check out (identify-sender.ts): what the sender is told,
// what the owner of a misused code is told, and what the referee is alerted to.
// - The sender learns nothing about other players: a code that belongs to someone else is
//   answered exactly as an unknown one (same words, same subject, same language choice). The one
//   exception, a player of the game answering a relay that reached another player (D-PRESS-38),
//   is told that the reply address is not theirs: it names no one. Its owner is never told that
//   player's address; the referees see whose it was (the audit log).
// - The owner is warned at most once an hour, and the warning counts the attempts since the last
//   one (twenty forged mails would be twenty warnings and use up the hourly replies).
// - Failed codes are counted per sender and per game; past a threshold the referee is alerted
//   (secret-probes.ts, D-MAIL-23).
import type { Logger } from 'pino';
import type { InboundHead, InboundOutcome } from '../../db/inbound.ts';
import { formatInstant } from '../../games/index.ts';
import type { ReadMail } from './read-mails.ts';
import type { Identification } from './identify-sender.ts';
import type { IntakeStore } from './intake-store.ts';
import { enqueueReply, replySubject, type ReplyContext, type Thread } from './outgoing.ts';
import { refusalText, spoofWarningSubject, spoofWarningText } from './reply-texts.ts';
import type { SecretProbeWatch } from './secret-probes.ts';
import { pressTexts } from '../../text/press.ts';
import type { Board } from '../../adjudicator/map.ts';
import { conversationName } from '../../games/press/conversation-name.ts';
import { visible } from '../read/visible.ts';

/** One warning an hour at most to the owner of a misused code. */
const WARNING_INTERVAL_MS = 3_600_000;

export interface StrangerContext {
  store: IntakeStore;
  replyCtx: ReplyContext;
  row: InboundHead;
  mail: ReadMail;
  /** The answer's echo key (echo-guard.ts), or null without a sender. */
  echo: string | null;
  thread: Thread;
  probes: SecretProbeWatch;
  log: Logger;
  /** The game's board, to name the conversation of a forged reply. */
  boardFor: (mapId: string) => Board;
}

export function refuseStranger(c: StrangerContext, who: Extract<Identification, { kind: 'refused' }>): InboundOutcome {
  const { store, replyCtx, row, mail, thread, echo } = c;
  const detail: Record<string, unknown> = { reason: who.reason, from: mail.from };
  const badCode = who.reason === 'unknown-code' || who.reason === 'sender-mismatch';
  // D-PRESS-38: another player of the game used a player's code or reply address. The owner is
  // never told that player's address, the referees whose it was (the audit log); a reply to another's
  // relay (forwarded to them, say) is told the address is not theirs.
  const fellow = who.warn && who.answer?.gameId === who.warn.gameId && who.answer.id !== who.warn.id ? who.answer : null;
  if (fellow) {
    detail.fellow = fellow.faction;
    store.audit({
      actor: 'intake',
      gameId: fellow.gameId,
      action: who.viaToken ? 'press.reply-not-yours' : 'intake.code-not-yours',
      detail: { inbound: row.id, from: fellow.faction, owner: who.warn!.faction },
    });
  }
  if (who.answer) {
    // The same refusal is not sent twice a day for the same words (D-MAIL-24: robots repeat).
    if (echo !== null && store.answered(echo)) detail.repeated = true;
    // A bad code is answered without the game it belongs to: that too would tell a prober something.
    const tag = badCode ? null : (who.game?.id ?? null);
    detail.answered = enqueueReply(store, replyCtx, {
      kind: 'refusal',
      gameId: who.game?.id ?? who.answer.gameId,
      to: who.answer.email,
      subject: replySubject(thread, 'Starts Foundation', tag),
      text:
        fellow && who.viaToken
          ? pressTexts[fellow.lang].replyNotYours
          : refusalText(who.answer.lang, who.reason, who.game?.id ?? mail.gameTag),
      thread,
      dedupeKey: `refusal:${row.id}`,
      echoKey: echo,
    });
  }
  if (who.warn) {
    const owner = who.warn;
    const misuse = store.codeMisuse(owner.id);
    const now = replyCtx.now;
    const recentlyWarned = misuse.lastWarnedAt !== null && now.getTime() - misuse.lastWarnedAt.getTime() < WARNING_INTERVAL_MS;
    let warned = false;
    if (!recentlyWarned && owner.email !== who.answer?.email) {
      const tz = owner.timeZone ?? who.game?.timeZone ?? 'UTC';
      const when = (d: Date) => formatInstant(d, tz, owner.lang);
      const attempts = misuse.unreported + 1;
      const referees = store.refereesOf(owner.gameId);
      // The forger chose this address: a quoted local part may hold a direction override that
      // would turn the warning's sentence around it, so it is shown with such characters escaped.
      const sender = visible(mail.from ?? '?');
      // A forged reply to a press conversation is said as such, naming the conversation: the code itself was not used.
      const conversation = who.viaToken && who.game ? conversationName(who.viaToken, owner, c.boardFor(who.game.map)) : null;
      const text = conversation
        ? pressTexts[owner.lang].forgedReply(
            when(row.receivedAt),
            fellow ? null : sender,
            conversation,
            referees.length ? ` (${referees.join(', ')})` : '',
          )
        : spoofWarningText(
            owner.lang,
            fellow ? null : sender,
            when(row.receivedAt),
            attempts > 1 ? { attempts, since: when(misuse.firstUnreportedAt ?? row.receivedAt) } : null,
            referees,
          );
      warned = enqueueReply(store, replyCtx, {
        kind: 'warning',
        gameId: owner.gameId,
        to: owner.email,
        subject: conversation
          ? pressTexts[owner.lang].forgedReplySubject(owner.gameId, conversation)
          : spoofWarningSubject(owner.lang, owner.gameId),
        text,
        thread: null,
        dedupeKey: `warning:${row.id}`,
      });
    }
    detail.warned = warned;
    if (!warned) detail.warningHeldBack = true;
    store.noteCodeMisuse(owner.id, now, warned);
  }
  if (badCode) noteFailedCode(c, who.game?.id ?? null, detail);
  return {
    status: who.reason === 'unknown-sender' ? 'ignored' : 'rejected',
    outcome: who.reason,
    detail,
    gameId: who.game?.id ?? null,
    playerId: who.warn?.id ?? who.answer?.id ?? null,
  };
}

function noteFailedCode(c: StrangerContext, gameId: string | null, detail: Record<string, unknown>): void {
  const sender = c.mail.from?.trim().toLowerCase() ?? null;
  const { alerts, probing } = c.probes.note(sender, gameId, c.replyCtx.now);
  if (probing) detail.probing = true;
  for (const alert of alerts) {
    detail.alert = alert;
    c.log.warn({ inbound: c.row.id, from: sender, gameId, ...alert }, 'codes are being guessed: the referee should look (D-MAIL-23)');
    c.store.audit({ actor: 'intake', gameId, action: 'intake.code-guessing', detail: { ...alert, from: sender, inbound: c.row.id } });
  }
}
