// Press written to a player's private address, end to end but for the transport (docs/press.md §4):
// the mail's blocks decided (decide-press.ts), every message stored before any relay, one relay per
// recipient in their language with a Reply-To token and a thread root of their own, disputes handed
// to the disputes module, and the lines of the writer's acknowledgement. Intake calls it inside its
// batch transaction, so the messages, the relays and the acknowledgement commit together.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { Lang } from '../../adjudicator/types.ts';
import type { Db } from '../../db/client.ts';
import type { Game } from '../../db/games.ts';
import type { Turn } from '../../db/turns.ts';
import type { OutboxInput } from '../../db/outbox.ts';
import type { Player } from '../../db/players.ts';
import {
  addRecipients,
  deliveryOf,
  findOrCreateThread,
  insertPressMessage,
  issueToken,
  messageForReply,
  messageTimesSince,
  mutedBy,
  relayDedupeKey,
  reportMessage,
  type FoundToken,
  type MuteTarget,
  type NewRecipient,
  type PressThread,
} from '../../db/press.ts';
import { refereesOfGame } from '../../db/referees.ts';
import type { MailText } from '../../text/define.ts';
import { pressTexts } from '../../text/press.ts';
import { gameMail, type MailAddressing } from '../game-mail.ts';
import { formatInstant } from '../time-format.ts';
import { decidePress, MAX_DISPUTES_PER_TURN, type PressDecision, type PressFacts, type PressRefusal } from './decide-press.ts';
import { anonymousDelayMs, newPressToken, pressReplyAddress } from './press-token.ts';
import {
  MAX_BLOCKS,
  pressFactions,
  readPress,
  readPressReply,
  type PressPart,
  type PressProblem,
  type PressReading,
} from './read-press.ts';
import { observerRelays } from './observer-relay.ts';
import { pressSettingsOf } from './settings.ts';
import { pressConsoleUrl, refereesToTell, type FiledDispute } from '../disputes.ts';

const HOUR = 3_600_000;

/** What press needs of the open turn: when it closes (D-PRESS-5), and whether a Chancellor declares. */
export type PressTurn = { number: number; deadline: Date; declarationDeadline: Date; hasChancellor: boolean };

export function pressTurnOf(open: Turn | null): PressTurn | null {
  return open
    ? {
        number: open.number,
        deadline: open.deadline,
        declarationDeadline: open.declarationDeadline,
        hasChancellor: !!open.state.chancellor,
      }
    : null;
}

/** What the disputes module answers for one dispute block (it stores it and mails the referees). */
export type DisputeOutcome = FiledDispute;

export type FileDispute = (
  db: Db,
  a: { game: Game; player: Player; inboundId: number; block: number; reason: string; receivedAt: Date },
) => Promise<DisputeOutcome>;

/**
 * A mail's press and dispute blocks, or null when it has none and no press problem: then the mail
 * is read exactly as before press existed (the same text goes to the sheet decision).
 */
export function readMailPress(text: string, board: Board): PressReading | null {
  const reading = readPress(text, { factions: pressFactions(board.map) });
  return reading.press.length || reading.disputes.length || reading.problems.length ? reading : null;
}

export interface PressMailFacts {
  game: Game;
  board: Board;
  writer: Player;
  /** The game's players with a seat (D-SEAT-1), the writer included. */
  seated: readonly Player[];
  /** The game's current turn, or null when it is not open. */
  turn: PressTurn | null;
  inboundId: number;
  receivedAt: Date;
  /** Whether the writer has a sheet standing for the open turn: what a mail without one is told it keeps. */
  hasStandingSheet?: boolean;
}

export interface PressRelayDeps {
  mail: MailAddressing;
  /** PUBLIC_URL: observers' unsubscribe links (without it, observers get no broadcasts). */
  publicUrl?: string;
  newToken?: () => string;
  random?: () => number;
}

/** A new message's deps: its dispute blocks go to the disputes module (src/games/disputes.ts). */
export interface PressMailDeps extends PressRelayDeps {
  fileDispute: FileDispute;
}

export interface PressRelayResult {
  /** The relays, one per recipient and message; dedupe keys `relayDedupeKey`. */
  relays: OutboxInput[];
  /** Stored messages whose recipients are linked to their relays once queued (`linkRelays`). */
  messageIds: number[];
  /** Relays of anonymous messages, sent no sooner than the message's random delay (D-PRESS-10). */
  held: Array<{ dedupeKey: string; at: Date }>;
  /** The writer's acknowledgement, in their language. */
  ack: string[];
  /** For the stored outcome of the mail (the referee's view): one entry per block. */
  summary: { relayed: number; refused: number; problems: number; disputes: string[] };
}

/**
 * Decides, stores and words a mail's press and disputes. `hasSheet`: whether the rest of the mail
 * is read as a sheet (else the acknowledgement says the standing sheet stays, D-PRESS-2).
 */
export async function relayPress(db: Db, deps: PressMailDeps, f: PressMailFacts, reading: PressReading): Promise<PressRelayResult> {
  const { game, writer } = f;
  const lang = writer.lang;
  const T = pressTexts[lang];
  const tz = writer.timeZone ?? game.timeZone;
  const decisions = decidePress(reading.press, await pressFactsOf(db, f));
  const result: PressRelayResult = {
    relays: [],
    messageIds: [],
    held: [],
    ack: [],
    summary: { relayed: 0, refused: 0, problems: 0, disputes: [] },
  };
  const lines: Array<{ line: number; text: string }> = [];
  const disputeLines: Array<{ line: number; text: string }> = [];
  let anonymous = false;
  let signedAnyway = false;
  let noReferee = false;

  for (const [block, part] of reading.press.entries()) {
    const d = decisions[block]!;
    if (d.kind === 'refused') {
      const { kind: _, ...refusal } = d;
      await insertPressMessage(db, messageRow(f, part, block, d, null, deps.random ?? Math.random));
      lines.push({ line: part.lines.header, text: T.notSent(part.lines.header, refusalText(lang, refusal, f.board, tz)) });
      result.summary.refused++;
      continue;
    }
    const sent = await relayOne(db, deps, f, part, block, d);
    if (sent.relays) {
      result.relays.push(...sent.relays);
      result.messageIds.push(sent.messageId);
      if (sent.holdUntil) result.held.push(...sent.relays.map((m) => ({ dedupeKey: m.dedupeKey, at: sent.holdUntil! })));
    }
    const to =
      d.to.kind === 'referees' ? T.referees : d.to.everyone ? T.everyone : T.list(d.to.factions.map((x) => sideName(f.board, x, lang)));
    lines.push({ line: part.lines.header, text: T.sent(part.lines.first, part.lines.last, to, d.sign === 'anonymous', part.text) });
    // D-PRESS-17: stored for the first referee assigned; the writer is not left believing it was read.
    noReferee ||= d.to.kind === 'referees' && sent.relays !== null && sent.relays.length === 0;
    anonymous ||= d.sign === 'anonymous';
    signedAnyway ||= d.signedAnyway;
    result.summary.relayed++;
  }

  for (const p of reading.problems) {
    lines.push({ line: p.line, text: T.notSent(p.line, problemText(lang, p)) });
    result.summary.problems++;
  }

  for (const [block, part] of reading.disputes.entries()) {
    const o = await deps.fileDispute(db, {
      game,
      player: writer,
      inboundId: f.inboundId,
      block,
      reason: part.text,
      receivedAt: f.receivedAt,
    });
    result.summary.disputes.push(o.kind === 'filed' ? 'filed' : o.why);
    disputeLines.push({ line: part.lines.header, text: T.disputeLine(part.lines.header, disputeText(lang, o, game.currentTurn, tz)) });
  }

  // One part for the messages, one for the disputes (a dispute is no message), then what stays of the sheet.
  lines.sort((a, b) => a.line - b.line);
  if (lines.length) {
    result.ack.push(T.ackHeading, '', ...lines.flatMap((l, i) => (i ? ['', l.text] : [l.text])));
    const notes = [
      ...(anonymous ? [T.sentDelayed, T.anonymousReminder] : []),
      ...(signedAnyway ? [T.signedAnyway] : []),
      ...(noReferee ? [T.noRefereeYet] : []),
    ];
    if (notes.length) result.ack.push('', ...notes);
  }
  if (disputeLines.length) result.ack.push(...(lines.length ? [''] : []), T.disputeHeading, '', ...disputeLines.map((l) => l.text));
  // D-PRESS-2: a mail without a sheet leaves the standing one; a player without one is not told it stands.
  if (!reading.hasSheet && f.turn) result.ack.push('', f.hasStandingSheet === false ? T.noSheetYet(f.turn.number) : T.noSheetWithPress);
  return result;
}

/** What decidePress weighs for this writer now: the game's settings, the turn, seats, the last hour's messages. */
async function pressFactsOf(db: Db, f: PressMailFacts): Promise<PressFacts> {
  const times = await messageTimesSince(db, f.writer.id, new Date(f.receivedAt.getTime() - HOUR));
  return {
    settings: pressSettingsOf(f.game.pressSettings),
    receivedAt: f.receivedAt,
    game: { status: f.game.status, pausedAt: f.game.pausedAt },
    turn: f.turn,
    writer: { faction: f.writer.faction },
    seated: new Set(f.seated.map((p) => p.faction)),
    sentLastHour: times.players,
    sentToRefereesLastHour: times.referees,
  };
}

interface Reader {
  recipient: { kind: 'player' | 'referee'; id: number };
  address: string;
  lang: Lang;
  /** The reader's faction, when a player: named "you" in the audience. */
  faction: string | null;
  timeZone: string;
}

/** Stores one accepted message and makes its relays; a mail applied before returns no relays (they are queued already). */
async function relayOne(
  db: Db,
  deps: PressRelayDeps,
  f: PressMailFacts,
  part: PressPart,
  block: number,
  d: Extract<PressDecision, { kind: 'relay' }>,
  reply?: ReplyRouting,
): Promise<{ messageId: number; relays: OutboxInput[] | null; holdUntil: Date | null }> {
  const { game, writer } = f;
  const anonymous = d.sign === 'anonymous';
  const thread = reply?.thread ?? (await threadOf(db, f, d));
  const row = { ...messageRow(f, part, block, d, thread, deps.random ?? Math.random), inReplyToMessageId: reply?.inReplyTo ?? null };
  const { message, duplicate } = await insertPressMessage(db, row);
  if (duplicate) return { messageId: message.id, relays: null, holdUntil: null };
  // The writer of an anonymous conversation, when someone else answers in it: told so, and that a reply keeps them hidden.
  const hiddenWriterId = thread.hiddenWriterPlayerId !== writer.id ? thread.hiddenWriterPlayerId : null;
  // In an anonymous conversation a reply also reaches its hidden writer, who is named to nobody.
  const hidden = reply?.hiddenReader;

  const readers: Reader[] =
    d.to.kind === 'referees'
      ? (await refereesOfGame(db, game.id)).map((r) => ({
          recipient: { kind: 'referee', id: r.id },
          address: r.email,
          // D-PRESS-29: referees read their mail in English, as the console and its other mails.
          lang: 'en',
          faction: null,
          timeZone: game.timeZone,
        }))
      : d.to.factions.flatMap((faction) => {
          const p = f.seated.find((s) => s.faction === faction);
          return p
            ? [
                {
                  recipient: { kind: 'player', id: p.id },
                  address: p.email,
                  lang: p.lang,
                  faction,
                  timeZone: p.timeZone ?? game.timeZone,
                } as Reader,
              ]
            : [];
        });
  if (hidden)
    readers.push({
      recipient: { kind: 'player', id: hidden.id },
      address: hidden.email,
      lang: hidden.lang,
      faction: hidden.faction,
      timeZone: hidden.timeZone ?? game.timeZone,
    });
  const relays: OutboxInput[] = [];
  const rows: NewRecipient[] = [];
  const deliveries = await deliveriesOf(
    db,
    readers.flatMap((r) => (r.recipient.kind === 'player' ? [r.recipient.id] : [])),
    anonymous ? null : writer.faction,
  );
  for (const r of readers) {
    const T = pressTexts[r.lang];
    const name = (x: string) => (x === r.faction ? T.you : sideName(f.board, x, r.lang));
    const from = anonymous ? null : sideName(f.board, writer.faction, r.lang);
    // The hidden writer of the conversation: "you" to themselves, "anonymous" to the others.
    const isHidden = hidden !== undefined && hidden !== null && r.recipient.id === hidden.id;
    const unnamed = reply?.hiddenReader !== undefined ? [isHidden ? T.you : T.anonymous.toLowerCase()] : [];
    const to = d.to.kind === 'referees' ? T.referees : d.to.everyone ? T.everyone : T.list([...d.to.factions.map(name), ...unnamed]);
    // A plain Reply reaches the writer (as "anonymous" when hidden) and the other recipients.
    const others =
      d.to.kind === 'referees' ? [] : [...d.to.factions.filter((x) => x !== r.faction).map(name), ...(isHidden ? [] : unnamed)];
    // A Reply to everyone reaches everyone, its writer included: "everyone" says it all.
    const replyGoesTo = d.to.kind === 'factions' && d.to.everyone ? T.everyone : T.list([from ?? T.anonymous.toLowerCase(), ...others]);
    const reader = r.recipient.kind === 'referee' ? 'referee' : r.recipient.id === hiddenWriterId ? 'hidden-writer' : ('player' as const);
    const m = T.relay({ game: game.id, gameName: game.name, from, to, text: part.text, replyGoesTo, turn: game.currentTurn, reader });
    const one = await relayTo(db, deps, {
      gameId: game.id,
      threadId: thread.id,
      messageId: message.id,
      recipient: r.recipient,
      address: r.address,
      text: m,
      delivery: r.recipient.kind === 'player' ? (deliveries.get(r.recipient.id) ?? 'immediate') : 'immediate',
    });
    if (one.mail) relays.push(one.mail);
    rows.push(one.row);
  }
  // Observers get broadcasts (docs/press.md §4.3), held with the players' relays below.
  if (d.to.kind === 'factions' && d.to.everyone)
    for (const o of await observerRelays(db, deps, {
      game,
      board: f.board,
      messageId: message.id,
      writerFaction: anonymous ? null : writer.faction,
      text: part.text,
    })) {
      relays.push(o.mail);
      rows.push(o.row);
    }
  await addRecipients(db, rows);
  // The relays of an anonymous message leave when it becomes visible: their timing names nobody.
  return { messageId: message.id, relays, holdUntil: anonymous ? message.visibleAt : null };
}

/**
 * A reply inside a conversation: the conversation it is relayed in, the message it answers, and,
 * when the conversation's writer is hidden and someone else replies, that writer (null when their
 * seat has changed hands since: they are not written to, and nobody is told).
 */
interface ReplyRouting {
  thread: PressThread;
  inReplyTo: number | null;
  hiddenReader?: Player | null;
}

export interface PressReplyFacts extends PressMailFacts {
  /** The live token the mail was sent to, whose owner is `writer` (both factors checked by intake). */
  token: FoundToken;
  /** The reply's In-Reply-To and References, bare or bracketed: which relay it answers. */
  references: readonly string[];
}

export interface PressReplyDeps extends PressRelayDeps {
  /** Where reports go when the game has no referee (D-PRESS-17), and the console's address. */
  operatorAddress?: string;
}

export interface PressReplyResult extends Omit<PressRelayResult, 'summary'> {
  /** Mail to the referees (a report), queued with the rest. */
  toReferees: OutboxInput[];
  summary: { reply: 'relayed' | 'refused' | 'reported' | 'report-again' | 'empty' | 'nothing-to-answer'; reason?: string };
}

const bareId = (id: string) => id.replace(/^<|>$/g, '');

/**
 * A reply by token (docs/press.md §4.6): its whole text is one message to the conversation's
 * other participants, decided by the same rules as a new message (settings, open press, the
 * hourly cap); or, first line REPORT/SEGNALA, a report of the message it answers, whose stored
 * original goes to the referees. Nothing in it is ever read as orders.
 */
export async function relayReply(db: Db, deps: PressReplyDeps, f: PressReplyFacts, text: string): Promise<PressReplyResult> {
  const { game, writer, token } = f;
  const T = pressTexts[writer.lang];
  const tz = writer.timeZone ?? game.timeZone;
  const thread = token.thread;
  const result: PressReplyResult = { relays: [], messageIds: [], held: [], ack: [], toReferees: [], summary: { reply: 'empty' } };
  const reply = readPressReply(text);
  const answered = await messageForReply(db, {
    threadId: thread.id,
    recipient: { kind: 'player', id: writer.id },
    references: f.references.map(bareId),
    now: f.receivedAt,
  });
  if (reply.kind === 'empty') {
    result.ack.push(T.replyNotSent(T.replyEmpty));
    return result;
  }
  if (reply.kind === 'report') {
    if (!answered) {
      result.summary = { reply: 'nothing-to-answer' };
      result.ack.push(T.replyNotSent(T.replyNothingToAnswer));
      return result;
    }
    const { duplicate } = await reportMessage(db, {
      messageId: answered.id,
      playerId: writer.id,
      reason: reply.reason,
      inboundId: f.inboundId,
    });
    if (duplicate) {
      result.summary = { reply: 'report-again' };
      result.ack.push(T.reportAgain);
      return result;
    }
    const told = await refereesToTell(db, deps, game.id);
    // Referees read the console in English; so do its mails. They see who wrote, anonymous or not.
    const en = pressTexts.en;
    const faction = (x: string) => sideName(f.board, x, 'en');
    const rendered = en.reportToReferee({
      game: game.id,
      gameName: game.name,
      messageId: answered.id,
      turn: answered.turn,
      reporter: faction(writer.faction),
      writer: answered.writerFaction ? faction(answered.writerFaction) : en.referees,
      sign: answered.sign,
      to:
        answered.audienceKind === 'referee'
          ? en.referees
          : answered.audienceKind === 'all'
            ? en.everyone
            : en.list(answered.audienceFactions.map(faction)),
      reason: reply.reason || '—',
      text: answered.text,
      consoleUrl: pressConsoleUrl(deps, game.id),
    });
    result.toReferees = told.addresses.map((address) =>
      gameMail(deps.mail, {
        kind: 'press-report',
        gameId: game.id,
        to: address,
        replySecret: null,
        subject: rendered.subject,
        text: rendered.text,
        dedupeKey: `press-report:${answered.id}:${writer.id}:${address}`,
      }),
    );
    result.summary = { reply: 'reported' };
    result.ack.push(T.reportTaken(told.to === 'kept'));
    return result;
  }

  // Who the reply goes to: the conversation's other participants (D-PRESS-7).
  const writerHidden = thread.hiddenWriterPlayerId === writer.id;
  const hiddenReader =
    thread.kind === 'factions' && thread.anonymous && !writerHidden
      ? (f.seated.find((p) => p.id === thread.hiddenWriterPlayerId) ?? null)
      : undefined;
  const audience: PressPart['audience'] =
    thread.kind === 'referee'
      ? { kind: 'referee' }
      : thread.kind === 'all'
        ? { kind: 'all' }
        : // The hidden writer's faction is weighed like any recipient's, then named to nobody.
          { kind: 'factions', factions: [...thread.participants, ...(hiddenReader ? [hiddenReader.faction] : [])] };
  const part: PressPart = {
    audience,
    sign: writerHidden ? 'anonymous' : null,
    text: reply.text,
    lines: { header: 1, first: 1, last: reply.text.split('\n').length, end: null },
  };
  const facts = await pressFactsOf(db, f);
  // The hidden writer is written to while seated, whatever their faction is called in the audience.
  if (hiddenReader) facts.seated = new Set([...facts.seated, hiddenReader.faction]);
  const [d] = decidePress([part], facts);
  if (!d || d.kind === 'refused') {
    const { kind: _, ...refusal } = d!;
    // Stored with the audience its participants see: the hidden writer's faction is in no row a player may read.
    const stored: PressPart = hiddenReader ? { ...part, audience: { kind: 'factions', factions: thread.participants } } : part;
    await insertPressMessage(db, {
      ...messageRow(f, stored, 0, d!, null, deps.random ?? Math.random),
      inReplyToMessageId: answered?.id ?? null,
    });
    result.summary = { reply: 'refused', reason: refusal.reason };
    result.ack.push(T.replyNotSent(refusalText(writer.lang, refusal as PressRefusal, f.board, tz)));
    return result;
  }
  const visible =
    d.to.kind === 'factions' && hiddenReader
      ? { ...d, to: { ...d.to, factions: d.to.factions.filter((x) => x !== hiddenReader.faction) } }
      : d;
  const sent = await relayOne(db, deps, f, part, 0, visible, {
    thread,
    inReplyTo: answered?.id ?? null,
    ...(hiddenReader !== undefined ? { hiddenReader } : {}),
  });
  if (sent.relays) {
    result.relays.push(...sent.relays);
    result.messageIds.push(sent.messageId);
    if (sent.holdUntil) result.held.push(...sent.relays.map((m) => ({ dedupeKey: m.dedupeKey, at: sent.holdUntil! })));
  }
  const name = (x: string) => sideName(f.board, x, writer.lang);
  // D-PRESS-10: a reply in an anonymous conversation "went to the conversation", never to whom
  // (but for a broadcast's: everyone is no one in particular).
  const to =
    visible.to.kind === 'referees'
      ? T.referees
      : thread.anonymous && !writerHidden && thread.kind !== 'all'
        ? T.conversation
        : visible.to.everyone
          ? T.everyone
          : T.list(visible.to.factions.map(name));
  result.summary = { reply: 'relayed' };
  result.ack.push(T.replySent(to, d.sign === 'anonymous', part.text));
  if (d.sign === 'anonymous') result.ack.push('', T.sentDelayed, T.anonymousReminder);
  if (d.to.kind === 'referees' && sent.relays !== null && sent.relays.length === 0) result.ack.push('', T.noRefereeYet);
  return result;
}

export interface RefereeReplyFacts {
  game: Game;
  board: Board;
  referee: { id: number; email: string };
  seated: readonly Player[];
  inboundId: number;
  receivedAt: Date;
  token: FoundToken;
  references: readonly string[];
}

/**
 * A referee's reply in a player's conversation with the referees (D-PRESS-4): relayed to that
 * player, signed "Referee", whatever the game's press settings (only the size cap applies). The
 * whole text is the message: a referee's REPORT is words like any other. The acknowledgement is
 * in English, as the referees' mail is.
 */
export async function relayRefereeReply(db: Db, deps: PressRelayDeps, f: RefereeReplyFacts, text: string): Promise<PressReplyResult> {
  const T = pressTexts.en;
  const thread = f.token.thread;
  const result: PressReplyResult = { relays: [], messageIds: [], held: [], ack: [], toReferees: [], summary: { reply: 'empty' } };
  const body = text.replace(/\s+$/, '').replace(/^(\s*\n)+/, '');
  if (body.trim() === '') {
    result.ack.push(T.replyNotSent(T.replyEmpty));
    return result;
  }
  const faction = thread.kind === 'referee' ? thread.participants[0] : undefined;
  const player = faction ? f.seated.find((p) => p.faction === faction) : undefined;
  if (!faction || !player) {
    result.summary = { reply: 'refused', reason: 'not-in-play' };
    result.ack.push(T.replyNotSent(T.refusal.notInPlay(faction ? sideName(f.board, faction, 'en') : T.conversation)));
    return result;
  }
  const max = pressSettingsOf(f.game.pressSettings).maxChars;
  const chars = [...body].length;
  if (chars > max) {
    result.summary = { reply: 'refused', reason: 'too-long' };
    result.ack.push(T.replyNotSent(T.refusal.tooLong(chars, max)));
    return result;
  }
  const answered = await messageForReply(db, {
    threadId: thread.id,
    recipient: { kind: 'referee', id: f.referee.id },
    references: f.references.map(bareId),
    now: f.receivedAt,
  });
  const { message, duplicate } = await insertPressMessage(db, {
    gameId: f.game.id,
    threadId: thread.id,
    turn: f.game.currentTurn,
    writerPlayerId: null,
    writerRefereeId: f.referee.id,
    writerFaction: null,
    sign: 'signed',
    audienceKind: 'factions',
    audienceFactions: [faction],
    text: body,
    chars,
    inboundId: f.inboundId,
    block: 0,
    inReplyToMessageId: answered?.id ?? null,
    status: 'relayed',
    refusal: null,
    receivedAt: f.receivedAt,
    visibleAt: f.receivedAt,
  });
  result.summary = { reply: 'relayed' };
  result.ack.push(T.replySent(sideName(f.board, faction, 'en'), false, body));
  if (duplicate) return result;
  const P = pressTexts[player.lang];
  const m = P.relay({
    game: f.game.id,
    gameName: f.game.name,
    from: P.referee,
    to: P.you,
    text: body,
    replyGoesTo: P.referees,
    turn: f.game.currentTurn,
  });
  const one = await relayTo(db, deps, {
    gameId: f.game.id,
    threadId: thread.id,
    messageId: message.id,
    recipient: { kind: 'player', id: player.id },
    address: player.email,
    text: m,
  });
  // A referee is never muted, nor waits for a digest (D-PRESS-11): their answer goes at once.
  result.relays.push(one.mail!);
  await addRecipients(db, [one.row]);
  result.messageIds.push(message.id);
  return result;
}

type Delivery = NewRecipient['delivery'];

/**
 * How a message of a player reaches each of these players (D-PRESS-11): `muted` when the reader
 * muted its writer's faction (`signedBy`, null when anonymous: a faction's mute never reaches its
 * anonymous messages, or the digest's count would name their writer) or, for an anonymous one,
 * every anonymous message; `digest` when the reader chose the daily digest; else `immediate`.
 */
export async function deliveriesOf(db: Db, playerIds: readonly number[], signedBy: string | null): Promise<Map<number, Delivery>> {
  const [muted, chosen] = await Promise.all([mutedBy(db, playerIds), deliveryOf(db, playerIds)]);
  const out = new Map<number, Delivery>();
  const hits = (t: MuteTarget) => (signedBy === null ? t.kind === 'anonymous' : t.kind === 'faction' && t.faction === signedBy);
  for (const id of playerIds) out.set(id, (muted.get(id) ?? []).some(hits) ? 'muted' : (chosen.get(id) ?? 'immediate'));
  return out;
}

/**
 * One recipient's relay of a stored message: the mail, with the recipient's own Reply-To token and
 * thread root in this conversation (D-PRESS-7, D-PRESS-9), and the recipient's row to record. A
 * muted reader gets neither mail nor token; a digest reader gets the token (the digest writes it
 * as the message's reply address) and no mail now.
 */
async function relayTo(
  db: Db,
  deps: PressRelayDeps,
  a: {
    gameId: string;
    threadId: number;
    messageId: number;
    recipient: Reader['recipient'];
    address: string;
    text: MailText;
    delivery?: Delivery;
  },
): Promise<{ mail: OutboxInput | null; row: NewRecipient }> {
  const delivery = a.delivery ?? 'immediate';
  const row = { messageId: a.messageId, ...a.recipient, address: a.address, delivery };
  if (delivery === 'muted') return { mail: null, row };
  const token = await issueToken(db, {
    threadId: a.threadId,
    owner: a.recipient,
    domain: deps.mail.domain,
    newToken: deps.newToken ?? (() => newPressToken()),
  });
  if (delivery === 'digest') return { mail: null, row };
  const mail = gameMail(deps.mail, {
    kind: 'press',
    gameId: a.gameId,
    to: a.address,
    replySecret: null,
    replyAddress: pressReplyAddress(deps.mail, token.token),
    threadRoot: token.rootMessageId,
    subject: a.text.subject,
    text: a.text.text,
    dedupeKey: relayDedupeKey(a.messageId, a.recipient),
  });
  return { mail, row };
}

/** D-PRESS-7: signed messages thread per set of participants; every anonymous one starts its own. */
async function threadOf(db: Db, f: PressMailFacts, d: Extract<PressDecision, { kind: 'relay' }>): Promise<PressThread> {
  const hidden = d.sign === 'anonymous' ? f.writer.id : null;
  if (d.to.kind === 'referees') return findOrCreateThread(db, { gameId: f.game.id, kind: 'referee', participants: [f.writer.faction] });
  if (d.to.everyone) return findOrCreateThread(db, { gameId: f.game.id, kind: 'all', participants: [], hiddenWriterPlayerId: hidden });
  const participants = hidden ? d.to.factions : [f.writer.faction, ...d.to.factions];
  return findOrCreateThread(db, { gameId: f.game.id, kind: 'factions', participants, hiddenWriterPlayerId: hidden });
}

function messageRow(f: PressMailFacts, part: PressPart, block: number, d: PressDecision, thread: PressThread | null, random: () => number) {
  const relayed = d.kind === 'relay';
  const sign = relayed ? d.sign : part.sign === 'anonymous' ? 'anonymous' : 'signed';
  // An anonymous message is seen no sooner than a random delay after its receipt (D-PRESS-10).
  const visibleAt = sign === 'anonymous' ? new Date(f.receivedAt.getTime() + anonymousDelayMs(random())) : f.receivedAt;
  const audienceFactions = relayed
    ? d.to.kind === 'factions'
      ? d.to.factions
      : []
    : part.audience.kind === 'factions'
      ? part.audience.factions
      : [];
  return {
    gameId: f.game.id,
    threadId: thread?.id ?? null,
    turn: f.game.currentTurn,
    writerPlayerId: f.writer.id,
    writerFaction: f.writer.faction,
    sign,
    audienceKind: part.audience.kind === 'referee' ? ('referee' as const) : part.audience.kind,
    audienceFactions,
    text: part.text,
    chars: [...part.text].length,
    inboundId: f.inboundId,
    block,
    status: relayed ? ('relayed' as const) : ('refused' as const),
    refusal: relayed ? null : (({ kind: _, ...r }) => r)(d),
    receivedAt: f.receivedAt,
    visibleAt,
    public: relayed && part.audience.kind === 'all' && pressSettingsOf(f.game.pressSettings).observers === 'broadcasts',
  };
}

function refusalText(lang: Lang, r: PressRefusal, board: Board, tz: string): string {
  const T = pressTexts[lang].refusal;
  switch (r.reason) {
    case 'game-over':
      return T.gameOver;
    case 'press-off':
      return T.pressOff;
    case 'anonymous-not-allowed':
      return T.anonymousNotAllowed;
    case 'signed-not-allowed':
      return T.signedNotAllowed;
    case 'private-not-allowed':
      return T.privateNotAllowed;
    case 'press-closed':
      return T.pressClosed(formatInstant(r.since, tz, lang), r.reopensWith);
    case 'not-in-play':
      return T.notInPlay(pressTexts[lang].list(r.factions.map((x) => sideName(board, x, lang))));
    case 'only-yourself':
      return T.onlyYourself;
    case 'too-long':
      return T.tooLong(r.chars, r.max);
    case 'too-many':
      return T.tooMany(r.max, formatInstant(r.nextAt, tz, lang));
  }
}

function problemText(lang: Lang, p: PressProblem): string {
  const T = pressTexts[lang].problem;
  switch (p.code) {
    case 'unknown-keyword':
      return T.unknownKeyword(p.text ?? '');
    case 'unknown-faction':
      return T.unknownFaction(p.text ?? '');
    case 'no-audience':
      return T.noAudience;
    case 'mixed-audience':
      return T.mixedAudience;
    case 'both-signs':
      return T.bothSigns;
    case 'empty':
      return T.empty;
    case 'unterminated':
      return T.unterminated;
    case 'stray-end':
      return T.strayEnd;
    case 'too-many-blocks':
      return T.tooManyBlocks(MAX_BLOCKS);
    case 'too-many-problems':
      return T.tooManyProblems;
  }
}

function disputeText(lang: Lang, o: DisputeOutcome, currentTurn: number, tz: string): string {
  const T = pressTexts[lang];
  if (o.kind === 'filed') return o.to === 'kept' ? `${T.disputeTaken(o.turn)} ${T.noRefereeYet}` : T.disputeTaken(o.turn);
  switch (o.why) {
    case 'edict-final':
      return T.disputeRefusal.edictFinal(o.turn ?? currentTurn - 1);
    case 'too-long':
      return T.disputeRefusal.tooLong(o.chars ?? 0, o.max ?? 0);
    case 'no-edict':
      return T.disputeRefusal.noEdict;
    case 'window-closed':
      return T.disputeRefusal.windowClosed(o.turn ?? currentTurn - 1, o.endedAt ? formatInstant(o.endedAt, tz, lang) : '—');
    case 'too-many':
      return T.disputeRefusal.tooMany(MAX_DISPUTES_PER_TURN);
  }
}
