// Mail from an identified player: a command (STATUS, HELP), something we cannot read, a sheet
// too late, or a sheet — stored as a new version (R-TURN-4) and acknowledged at once.
import type { Board } from '../../adjudicator/map.ts';
import { reviewSheet } from '../../adjudicator/review.ts';
import type { Lang } from '../../adjudicator/types.ts';
import type { Game } from '../../db/games.ts';
import type { InboundHead, InboundOutcome } from '../../db/inbound.ts';
import type { Player } from '../../db/players.ts';
import { newMessageId } from '../../db/outbox.ts';
import type { Turn } from '../../db/turns.ts';
import { ordersReceivedOf } from '../../games/orders-received.ts';
import { localDay, readAbsenceCommand } from '../../games/absence.ts';
import { turnClosesAt } from '../../games/schedule.ts';
import { gameThread } from '../../games/thread.ts';
import { formatInstant } from '../../games/time-format.ts';
import { privateAddress } from '../../games/welcome.ts';
import type { ExtractedMail } from '../read/extract.ts';
import type { ReadMail } from './read-mails.ts';
import type { IntakeStore, SheetSummary } from './intake-store.ts';
import { storedReview } from './stored-review.ts';
import { echoKey } from './echo-guard.ts';
import { clip, MAX_DAMAGE_LISTED, MAX_QUOTED_LINE } from './reply-limits.ts';
import { enqueueReply, replySubject, type ReplyContext, type ReplyKind, type Thread } from './outgoing.ts';
import {
  absenceText,
  ackText,
  chancellorBroadcastText,
  helpText,
  lateText,
  notAcceptedText,
  sideName,
  statusText,
  supersededText,
  unreadableText,
  type AckFacts,
} from './reply-texts.ts';

export interface PlayerMailContext {
  store: IntakeStore;
  row: InboundHead;
  mail: ReadMail;
  player: Player;
  game: Game;
  board: Board;
  replyCtx: ReplyContext;
  thread: Thread;
}

type Command = 'status' | 'help';
const COMMANDS: Record<string, Command> = { status: 'status', stato: 'status', help: 'help', aiuto: 'help' };

/** STATUS or HELP alone in the body, or as the subject of an otherwise empty mail. */
/** The one line of a mail that says `ABSENCE <from> <to>` (a `Code:` line aside), read; null for any other mail. */
function absenceOf(sheetText: string, today: string): ReturnType<typeof readAbsenceCommand> {
  const lines = sheetText.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !/^code\s*:/i.test(l));
  return lines.length === 1 ? readAbsenceCommand(lines[0]!, today) : null;
}

export function commandOf(sheetText: string, subject: string | null): Command | null {
  const lines = sheetText.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !/^code\s*:/i.test(l));
  if (lines.length === 1) return COMMANDS[lines[0]!.toLowerCase()] ?? null;
  if (lines.length === 0 && subject) {
    const bare = subject.replace(/\[sf [^\]]*\]/gi, '').replace(/\bcode\s+\S+/i, '').replace(/^\s*(re|r|aw|fwd?|i)\s*:\s*/i, '').trim();
    return COMMANDS[bare.toLowerCase()] ?? null;
  }
  return null;
}

export function answerPlayer(c: PlayerMailContext): InboundOutcome {
  const { store, row, mail, player, game } = c;
  const lang = player.lang;
  const tz = player.timeZone ?? game.timeZone;
  const when = (d: Date) => formatInstant(d, tz, lang);
  const base = { gameId: game.id, playerId: player.id };
  const reply = (kind: ReplyKind, text: string, echo: string | null = null) =>
    enqueueReply(store, c.replyCtx, {
      kind,
      gameId: game.id,
      to: player.email,
      replyTo: privateAddressOf(c, player),
      subject: replySubject(c.thread, game.name, game.id),
      text,
      thread: c.thread,
      dedupeKey: `${kind}:${row.id}`,
      echoKey: echo,
    });
  const refuse = (outcome: string, kind: ReplyKind, text: string): InboundOutcome => ({
    ...base, status: 'rejected', outcome, detail: { answered: reply(kind, text) },
  });
  // Mail that is not a sheet is answered once a day per sender and text (D-MAIL-24).
  const echo = echoKey(mail.from, mail.sheetText, c.replyCtx.now);
  const refuseOnce = (outcome: string, kind: ReplyKind, text: string, extra: Record<string, unknown> = {}): InboundOutcome => {
    const repeated = echo !== null && store.answered(echo);
    const answered = reply(kind, text, echo);
    return { ...base, status: 'rejected', outcome, detail: { answered, ...(repeated ? { repeated } : {}), ...extra } };
  };

  if (mail.oversized) return refuse('too-large', 'unreadable', unreadableText(lang, 'too-large', `${row.size} bytes`));
  // A body over its reading budget is set aside for the referee (the stored mail, this outcome)
  // and answered once: the sender can send their orders again as plain text.
  if (mail.bodyFailure) {
    return refuseOnce('too-costly', 'unreadable', unreadableText(lang, 'too-costly', ''), { bodyFailure: mail.bodyFailure });
  }
  // Broken MIME is read as far as it goes (MAIL.md); only a mail with nothing readable is refused.
  // The reply names what is wrong with the mail in the player's language, never an internal error
  // (issue 8); the stored outcome keeps the reasons for the referee.
  if (mail.broken && mail.sheetSource === 'none') {
    return refuseOnce('broken', 'unreadable', unreadableText(lang, 'broken', damageOf(mail, lang).join('; ')), { broken: mail.broken });
  }
  // A paused game still takes sheets: only its deadlines wait.
  if (game.status === 'finished') return refuse('game-not-active', 'refusal', notAcceptedText(lang, 'game-not-active'));

  const turn = store.turn(game.id, game.currentTurn);
  const command = commandOf(mail.sheetText, mail.subject);
  if (command === 'help') return { ...base, status: 'processed', outcome: 'help', detail: { answered: reply('help', helpText(lang)) } };
  if (command === 'status') return { ...base, status: 'processed', outcome: 'status', detail: { answered: reply('status', statusFor(c, turn, when)) } };

  // ABSENCE <from> <to> (D-ABS-1): recorded with this mail; the turn job moves deadlines for it.
  const absence = absenceOf(mail.sheetText, localDay(row.receivedAt, game.timeZone));
  if (absence && 'error' in absence) return refuse('absence-dates', 'refusal', absenceText(lang, null));
  if (absence) return { ...base, status: 'processed', outcome: 'absence', detail: { absence, answered: reply('status', absenceText(lang, absence)) } };

  if (!turn || turn.status !== 'open') return refuse('no-open-turn', 'refusal', notAcceptedText(lang, 'no-open-turn'));
  if (player.joinedTurn > turn.number) return refuse('not-in-play', 'refusal', notAcceptedText(lang, 'not-in-play'));
  const state = turn.state;
  const isChancellor = state.chancellor === player.faction;
  // The time that counts is when our server received the mail (R-TURN-4), not its Date: header;
  // a game's grace period still takes sheets after the deadline (D-TURN-6).
  const closesAt = turnClosesAt(game, turn);
  if (row.receivedAt > closesAt) return refuse('late', 'late', lateText(lang, when(row.receivedAt), when(closesAt), false));
  if (isChancellor && row.receivedAt > turn.declarationDeadline) {
    return refuse('late', 'late', lateText(lang, when(row.receivedAt), when(turn.declarationDeadline), true));
  }

  const review = reviewSheet(c.board, state, player.faction, mail.sheetText);
  const p = review.parsed;
  const understoodNothing = !p.orders.length && !p.hostilityDeclared && !p.vote && !p.eliminate && p.problems.length > 0;
  // Chatter alone ("grazie!") is not a sheet: it must not wipe out real orders (D-MAIL-1).
  if (understoodNothing) return refuseOnce('no-sheet', 'unreadable', unreadableText(lang, 'no-sheet', ''));
  const standing = store.latestSheet(game.id, turn.number, player.faction);
  if (isChancellor && standing) return refuse('chancellor-final', 'refusal', notAcceptedText(lang, 'chancellor-final'));
  // The sheet that counts is the last one received, not the last one read (D-MAIL-20).
  if (standing && receivedBefore(row, standing)) return refuse('superseded', 'refusal', supersededText(lang, when(row.receivedAt), when(standing.receivedAt)));

  const added = store.addSheet({
    gameId: game.id,
    turn: turn.number,
    faction: player.faction,
    text: mail.sheetText,
    parsed: storedReview(review),
    status: review.status,
    receivedAt: row.receivedAt,
    inboundId: row.id,
  });
  if (!added.ok) return refuse('no-open-turn', 'refusal', notAcceptedText(lang, 'no-open-turn'));

  const facts = (l: Lang): AckFacts => ({
    lang: l,
    board: c.board,
    gameName: game.name,
    faction: player.faction,
    turn: turn.number,
    electionTurn: turn.number === 1 || state.election,
    review,
    replaces: added.previousReceivedAt ? formatInstant(added.previousReceivedAt, tz, l) : null,
    deadline: formatInstant(turn.deadline, tz, l),
    declarationDeadline: isChancellor ? formatInstant(turn.declarationDeadline, tz, l) : null,
    isChancellor,
    damage: damageOf(mail, l),
  });
  const answered = reply('ack', ackText(facts(lang)));
  if (isChancellor) broadcastChancellorSheet(c, turn, facts);
  return {
    ...base,
    status: 'processed',
    outcome: 'sheet',
    // sheetId is filled in when the batch is written (IntakeStore.flush).
    detail: { sheetId: null, version: added.version, sheetStatus: review.status, answered },
  };
}

/**
 * Whether a mail was received before the one a sheet came from. Reception times have whole
 * seconds (IMAP): within one second, the mail stored first (lower id) is the earlier one.
 */
function receivedBefore(row: InboundHead, standing: SheetSummary): boolean {
  const a = row.receivedAt.getTime();
  const b = standing.receivedAt.getTime();
  return a < b || (a === b && standing.inboundId !== null && row.id < standing.inboundId);
}

/** What was wrong with the mail, as a reply may quote it: a few reasons, each cut short (they may quote headers). */
function damageOf(mail: ExtractedMail, lang: Lang): string[] {
  const shown = mail.brokenReasons.slice(0, MAX_DAMAGE_LISTED).map((r) => clip(r[lang], MAX_QUOTED_LINE * 2));
  return mail.brokenReasons.length > MAX_DAMAGE_LISTED ? [...shown, '…'] : shown;
}

const privateAddressOf = (c: PlayerMailContext, p: Player) =>
  privateAddress({ domain: c.replyCtx.domain, ordersLocalPart: c.replyCtx.ordersLocalPart }, p.secret);

/** R-TURN-3: the Chancellor's sheet goes to every player as soon as it is accepted. */
function broadcastChancellorSheet(c: PlayerMailContext, turn: Turn, facts: (l: Lang) => AckFacts): void {
  const chancellor = sideName(c.board, c.player.faction, 'en');
  for (const p of c.store.playersOf(c.game.id)) {
    const tz = p.timeZone ?? c.game.timeZone;
    const f = { ...facts(p.lang), deadline: formatInstant(turn.deadline, tz, p.lang) };
    enqueueOnce(c, p, `[SF ${c.game.id}] ${p.lang === 'it' ? 'Dichiarazione del Cancelliere' : 'The Chancellor declares'} — ${chancellor}, ${turn.number}`,
      chancellorBroadcastText(f), `chancellor:${c.game.id}:${turn.number}:${p.id}`);
  }
}

/** Not a reply: the broadcast does not count towards any player's hourly limit. */
function enqueueOnce(c: PlayerMailContext, p: Player, subject: string, text: string, dedupeKey: string): void {
  const thread = gameThread(c.game.id, c.replyCtx.domain);
  c.store.enqueue({
    kind: 'chancellor-sheet',
    gameId: c.game.id,
    toAddress: p.email,
    replyTo: privateAddressOf(c, p),
    subject,
    inReplyTo: thread,
    references: thread,
    messageId: newMessageId(c.replyCtx.domain),
    bodyText: text,
    dedupeKey,
  }, false);
}

function statusFor(c: PlayerMailContext, turn: Turn | null, when: (d: Date) => string): string {
  const sheet = turn ? c.store.latestSheet(c.game.id, turn.number, c.player.faction) : null;
  return statusText({
    lang: c.player.lang,
    board: c.board,
    gameName: c.game.name,
    faction: c.player.faction,
    turn: turn?.number ?? c.game.currentTurn,
    deadline: turn ? when(turn.deadline) : '—',
    received: ordersReceivedOf(sheet),
    sheetAt: sheet ? when(sheet.receivedAt) : null,
    sheetText: sheet?.text ?? null,
  });
}
