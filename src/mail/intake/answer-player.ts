// Mail from an identified player: first what is wrong with the mail itself (too large, unreadable),
// then what the game decides of it (src/games/accept-sheet.ts: a command, a refusal, a sheet too
// late or superseded, or a sheet stored as a new version, R-TURN-4). Here the decision is stored
// and answered: the replies in the player's language, queued in the batch's transaction.
import type { Board } from '../../adjudicator/map.ts';
import type { Lang } from '../../adjudicator/types.ts';
import type { Game } from '../../db/games.ts';
import type { InboundHead, InboundOutcome } from '../../db/inbound.ts';
import type { Player } from '../../db/players.ts';
import type { Turn } from '../../db/turns.ts';
import { decidePlayerMail, formatInstant, ordersReceivedOf, type PlayerMailDecision, privateAddress } from '../../games/index.ts';
import type { ExtractedMail } from '../read/extract.ts';
import type { ReadMail } from './read-mails.ts';
import type { IntakeStore } from './intake-store.ts';
import { storedReview } from './stored-review.ts';
import { clip, MAX_DAMAGE_LISTED, MAX_QUOTED_LINE } from './reply-limits.ts';
import { enqueueReply, replySubject, type ReplyContext, type ReplyKind, type Thread } from './outgoing.ts';
import {
  absenceText,
  ackText,
  ANSWERED_ONCE_A_DAY,
  chancellorBroadcastSubject,
  chancellorBroadcastText,
  helpText,
  refusalReply,
  sideName,
  statusText,
  type AckFacts,
  type PlayerRefusal,
} from './reply-texts.ts';
import { gameMail } from '../../games/game-mail.ts';
import { pressTexts } from '../../text/press.ts';
import { pressTurnOf, readMailPress, relayPressRun, type FileDispute, type PressRelayResult } from '../../games/press/relay.ts';
import type { PressReading } from '../../games/press/read-press.ts';
import { applyPressCommand } from '../../games/press/press-choices.ts';
import type { PressCommand } from '../../games/press/press-commands.ts';

export interface PlayerMailContext {
  store: IntakeStore;
  row: InboundHead;
  mail: ReadMail;
  /** The echo key of an answer that is not an acknowledgement (echo-guard.ts), or null without a sender. */
  echo: string | null;
  player: Player;
  game: Game;
  board: Board;
  replyCtx: ReplyContext;
  thread: Thread;
  /** Takes a dispute block (src/games/disputes.ts). */
  fileDispute: FileDispute;
  /** PUBLIC_URL: links in observers' copies of broadcasts. */
  publicUrl?: string;
}

export function answerPlayer(c: PlayerMailContext): InboundOutcome {
  const { store, row, mail, player, game } = c;
  const lang = player.lang;
  const tz = player.timeZone ?? game.timeZone;
  const when = (d: Date) => formatInstant(d, tz, lang);
  const base = { gameId: game.id, playerId: player.id };
  const send = (kind: ReplyKind, text: string, echo: string | null = null) =>
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
  // A mail with press is answered once (docs/press.md §4): what its sheet part answers is held
  // here and sent with the press acknowledgement, first.
  let held: Array<{ kind: ReplyKind; text: string }> | null = null;
  const reply = (kind: ReplyKind, text: string, echo: string | null = null): boolean => {
    if (!held) return send(kind, text, echo);
    held.push({ kind, text });
    return true;
  };
  const { echo } = c;
  const refuse = (r: PlayerRefusal, extra: Record<string, unknown> = {}): InboundOutcome => {
    const { kind, text } = refusalReply(lang, r);
    if (!ANSWERED_ONCE_A_DAY.has(r.outcome))
      return { ...base, status: 'rejected', outcome: r.outcome, detail: { answered: reply(kind, text) } };
    const repeated = echo !== null && store.answered(echo);
    const answered = reply(kind, text, echo);
    return { ...base, status: 'rejected', outcome: r.outcome, detail: { answered, ...(repeated ? { repeated } : {}), ...extra } };
  };

  if (mail.oversized) return refuse({ outcome: 'too-large', size: row.size });
  // A body over its reading budget is set aside for the referee (the stored mail, this outcome)
  // and answered once: the sender can send their orders again as plain text.
  if (mail.bodyFailure) return refuse({ outcome: 'too-costly' }, { bodyFailure: mail.bodyFailure });
  // Broken MIME is read as far as it goes (MAIL.md); only a mail with nothing readable is refused.
  // The reply names what is wrong with the mail in the player's language, never an internal error
  // (it may reveal ours); the stored outcome keeps the reasons for the referee.
  if (mail.broken && mail.sheetSource === 'none') {
    return refuse({ outcome: 'broken', damage: damageOf(mail, lang) }, { broken: mail.broken });
  }
  const turn = store.turn(game.id, game.currentTurn);
  // Press and disputes first: their lines are blanked out of what the sheet decision reads, and a
  // mail of press alone is no sheet — the standing one stays (D-PRESS-2).
  const press = readMailPress(mail.sheetText, c.board);
  if (!press) return answerSheet(mail.sheetText);
  // What the stored outcome says of the press: filled in when the batch is written.
  const summary = {};
  const read = { sheet: press.hasSheet };
  const open = openTurnOf(store, game);
  const standing = open ? store.latestSheet(game.id, open.number, player.faction) !== null : false;
  // After the relays, in the batch's order (a later() of its own here would cut the batch's row
  // of press in two): one mail, the sheet's part first.
  relayLater(c, press, read, summary, standing, (pressAck) => {
    const parts = held ?? [];
    held = null;
    const kind = parts.some((p) => p.kind === 'ack') ? 'ack' : 'press-ack';
    const note = press.press.length ? textOnlyNote(mail, lang) : [];
    const sent = send(kind, [...parts.map((p) => p.text.replace(/\s+$/, '')), [...pressAck, ...note].join('\n')].join('\n\n'));
    if ('answered' in detail) detail.answered = sent;
  });
  held = [];
  const outcome = ((): InboundOutcome => {
    if (!press.hasSheet) return { ...base, status: 'processed', outcome: 'press', detail: { press: summary } };
    const answered = answerSheet(press.sheetText);
    // Chatter around a message ("Ciao,") is no sheet, and no refusal either: the press acknowledgement
    // says what stays of the sheet.
    if (answered.outcome === 'no-sheet') {
      read.sheet = false;
      return { ...base, status: 'processed', outcome: 'press', detail: { press: summary } };
    }
    return { ...answered, detail: { ...((answered.detail as object | null) ?? {}), press: summary } };
  })();
  const detail = outcome.detail as Record<string, unknown>;
  return outcome;

  function answerSheet(sheetText: string): InboundOutcome {
    const standing = turn ? store.latestSheet(game.id, turn.number, player.faction) : null;
    const decision = decidePlayerMail({
      game,
      player,
      turn,
      standing,
      mail: { inboundId: row.id, receivedAt: row.receivedAt, text: sheetText, subject: mail.subject },
      board: c.board,
    });
    switch (decision.kind) {
      case 'help':
        return { ...base, status: 'processed', outcome: 'help', detail: { answered: reply('help', helpText(lang)) } };
      case 'status':
        return { ...base, status: 'processed', outcome: 'status', detail: { answered: reply('status', statusFor(c, turn, when)) } };
      case 'absence': {
        const { absence } = decision;
        return {
          ...base,
          status: 'processed',
          outcome: 'absence',
          detail: { absence, answered: reply('status', absenceText(lang, absence)) },
        };
      }
      case 'press':
        return answerPressCommand(c, decision.command, reply);
      case 'refused':
        return refuse({ outcome: decision.reason });
      case 'late':
        return refuse({
          outcome: 'late',
          receivedAt: when(row.receivedAt),
          closedAt: when(decision.closedAt),
          declaration: decision.declaration,
        });
      case 'no-sheet':
        return press ? { ...base, status: 'processed', outcome: 'no-sheet' } : refuse({ outcome: 'no-sheet' });
      case 'superseded':
        return refuse({ outcome: 'superseded', receivedAt: when(row.receivedAt), by: when(decision.by) });
      case 'accepted':
        return storeSheet(c, decision, { base, tz, reply, refuse }, sheetText);
    }
  }
}

/**
 * The mail's press, relayed in the batch's transaction (threads, messages and tokens take ids),
 * and the words of its acknowledgement, queued by the caller in the same transaction: never one
 * without the other.
 */
function relayLater(
  c: PlayerMailContext,
  press: PressReading,
  read: { sheet: boolean },
  summary: object,
  hasStandingSheet: boolean,
  answered: (ack: string[]) => void,
): void {
  const { store } = c;
  // Relayed in bulk with the batch's other press mails and replies in a row (relayPressRun), then queued in order.
  store.laterMany(
    relayPressRun,
    {
      kind: 'mail',
      deps: { mail: addressingOf(c), fileDispute: c.fileDispute, ...(c.publicUrl ? { publicUrl: c.publicUrl } : {}) },
      facts: { ...pressWriterFacts(c), hasStandingSheet },
      reading: {
        ...press,
        // Read when the batch is written: the sheet decision, made after this call, may find no sheet.
        get hasSheet() {
          return read.sheet;
        },
      },
    },
    (result) => {
      const r = result as PressRelayResult;
      Object.assign(summary, r.summary);
      // Relays are not replies: they do not count towards the recipient's hourly limit.
      for (const m of r.relays) store.enqueue(m, false);
      // Sent by the caller, after the sheet's answer: one acknowledgement for the mail.
      answered(r.ack);
    },
  );
}

/**
 * MUTE / UNMUTE / DIGEST / IMMEDIATE (D-PRESS-11): applied in the batch's transaction and answered
 * with the player's mutes and delivery as they now stand. Nobody else is told.
 */
function answerPressCommand(
  c: PlayerMailContext,
  command: PressCommand,
  reply: (kind: ReplyKind, text: string) => boolean,
): InboundOutcome {
  const { store, row, player, game } = c;
  const detail: { command: PressCommand['kind']; answered?: boolean } = { command: command.kind };
  store.later(async (tx) => {
    const text = await applyPressCommand(tx, {
      playerId: player.id,
      lang: player.lang,
      board: c.board,
      command,
      at: row.receivedAt,
      timeZone: player.timeZone ?? game.timeZone,
      reminders: game.reminderMinutes.length > 0,
    });
    detail.answered = reply('status', text);
  });
  return { gameId: game.id, playerId: player.id, status: 'processed', outcome: 'press-command', detail };
}

/**
 * Press is relayed as text (docs/press.md §1): a writer whose mail carried attachments, or was HTML
 * only, is told that those were not relayed as they were — the lines to add to the acknowledgement.
 */
export function textOnlyNote(mail: Pick<ExtractedMail, 'attached' | 'sheetSource'>, lang: Lang): string[] {
  if (mail.attached) return ['', pressTexts[lang].attachmentsDropped];
  return mail.sheetSource === 'html' ? ['', pressTexts[lang].htmlAsText] : [];
}

/** What press decides a player's mail or reply against: the game, its seats, the open turn, the mail's receipt. */
export function pressWriterFacts(c: PlayerMailContext) {
  const { store, row, player, game } = c;
  return {
    game,
    board: c.board,
    writer: player,
    seated: store.playersOf(game.id).filter((p) => p.removedAt === null),
    turn: pressTurnOf(openTurnOf(store, game)),
    inboundId: row.id,
    receivedAt: row.receivedAt,
  };
}

/** The game's current turn as this batch locked it, when open: what press is decided against (D-PRESS-5). */
export function openTurnOf(store: IntakeStore, game: Game): Turn | null {
  const turn = store.turn(game.id, game.currentTurn);
  return turn && turn.status === 'open' ? turn : null;
}

interface Answering {
  base: { gameId: string; playerId: number };
  tz: string;
  reply: (kind: ReplyKind, text: string) => boolean;
  refuse: (r: PlayerRefusal) => InboundOutcome;
}

/** An accepted sheet: stored as the faction's next version, acknowledged, and the Chancellor's published (R-TURN-3). */
function storeSheet(
  c: PlayerMailContext,
  decision: Extract<PlayerMailDecision<Turn>, { kind: 'accepted' }>,
  a: Answering,
  sheetText: string,
): InboundOutcome {
  const { store, row, mail, player, game } = c;
  const { turn, review, isChancellor } = decision;
  const { base, tz, reply, refuse } = a;
  const lang = player.lang;
  const added = store.addSheet({
    gameId: game.id,
    turn: turn.number,
    faction: player.faction,
    text: sheetText,
    parsed: storedReview(review),
    status: review.status,
    receivedAt: row.receivedAt,
    inboundId: row.id,
  });
  if (!added.ok) return refuse({ outcome: 'no-open-turn' });

  const facts = (l: Lang): AckFacts => ({
    lang: l,
    board: c.board,
    gameName: game.name,
    faction: player.faction,
    turn: turn.number,
    electionTurn: decision.electionTurn,
    review,
    replaces: added.previousReceivedAt ? formatInstant(added.previousReceivedAt, tz, l) : null,
    deadline: formatInstant(turn.deadline, tz, l),
    declarationDeadline: isChancellor ? formatInstant(turn.declarationDeadline, tz, l) : null,
    isChancellor,
    damage: damageOf(mail, l),
  });
  const answered = reply('ack', ackText(facts(lang)));
  if (decision.broadcast) broadcastChancellorSheet(c, turn, facts);
  return {
    ...base,
    status: 'processed',
    outcome: 'sheet',
    // sheetId is filled in when the batch is written (IntakeStore.flush).
    detail: { sheetId: null, version: added.version, sheetStatus: review.status, answered },
  };
}

/** What was wrong with the mail, as a reply may quote it: a few reasons, each cut short (they may quote headers). */
function damageOf(mail: ExtractedMail, lang: Lang): string[] {
  const shown = mail.brokenReasons.slice(0, MAX_DAMAGE_LISTED).map((r) => clip(r[lang], MAX_QUOTED_LINE * 2));
  return mail.brokenReasons.length > MAX_DAMAGE_LISTED ? [...shown, '…'] : shown;
}

const addressingOf = (c: PlayerMailContext) => ({ domain: c.replyCtx.domain, ordersLocalPart: c.replyCtx.ordersLocalPart });
const privateAddressOf = (c: PlayerMailContext, p: Player) => privateAddress(addressingOf(c), p.secret);

/** R-TURN-3: the Chancellor's sheet goes to every player as soon as it is accepted. */
function broadcastChancellorSheet(c: PlayerMailContext, turn: Turn, facts: (l: Lang) => AckFacts): void {
  for (const p of c.store.playersOf(c.game.id)) {
    const chancellor = sideName(c.board, c.player.faction, p.lang); // named in the reader's language
    const tz = p.timeZone ?? c.game.timeZone;
    const f = { ...facts(p.lang), deadline: formatInstant(turn.deadline, tz, p.lang) };
    enqueueOnce(
      c,
      p,
      chancellorBroadcastSubject(p.lang, c.game.id, chancellor, turn.number),
      chancellorBroadcastText(f),
      `chancellor:${c.game.id}:${turn.number}:${p.id}`,
    );
  }
}

/** Not a reply: the broadcast does not count towards any player's hourly limit. */
function enqueueOnce(c: PlayerMailContext, p: Player, subject: string, text: string, dedupeKey: string): void {
  c.store.enqueue(
    gameMail(addressingOf(c), {
      kind: 'chancellor-sheet',
      gameId: c.game.id,
      to: p.email,
      replySecret: p.secret,
      subject,
      text,
      dedupeKey,
    }),
    false,
  );
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
    over: c.game.status === 'finished',
  });
}
