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
import type { OutboxInput } from '../../db/outbox.ts';
import type { Player } from '../../db/players.ts';
import {
  addRecipients,
  findOrCreateThread,
  insertPressMessage,
  issueToken,
  messageTimesSince,
  relayDedupeKey,
  type NewRecipient,
  type PressThread,
} from '../../db/press.ts';
import { refereesOfGame } from '../../db/referees.ts';
import { pressTexts } from '../../text/press.ts';
import { gameMail, type MailAddressing } from '../game-mail.ts';
import { formatInstant } from '../time-format.ts';
import { decidePress, MAX_DISPUTES_PER_TURN, type PressDecision, type PressFacts, type PressRefusal } from './decide-press.ts';
import { anonymousDelayMs, newPressToken, pressReplyAddress } from './press-token.ts';
import { MAX_BLOCKS, pressFactions, readPress, type PressPart, type PressProblem, type PressReading } from './read-press.ts';
import { pressSettingsOf } from './settings.ts';
import type { FiledDispute } from '../disputes.ts';

const HOUR = 3_600_000;

/** What the disputes module answers for one dispute block (it stores it and mails the referees). */
export type DisputeOutcome = FiledDispute | { kind: 'refused'; why: 'not-open'; turn?: number; endedAt?: Date };

export type FileDispute = (
  db: Db,
  a: { game: Game; player: Player; inboundId: number; block: number; reason: string; receivedAt: Date },
) => Promise<DisputeOutcome>;

/** Until disputes by mail are connected, a dispute block is answered as not open yet (nothing stored). */
export const disputesNotOpen: FileDispute = async () => ({ kind: 'refused', why: 'not-open' });

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
  turn: { number: number; deadline: Date; declarationDeadline: Date; hasChancellor: boolean } | null;
  inboundId: number;
  receivedAt: Date;
}

export interface PressRelayDeps {
  mail: MailAddressing;
  fileDispute?: FileDispute;
  newToken?: () => string;
  random?: () => number;
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
export async function relayPress(db: Db, deps: PressRelayDeps, f: PressMailFacts, reading: PressReading): Promise<PressRelayResult> {
  const { game, writer } = f;
  const lang = writer.lang;
  const T = pressTexts[lang];
  const tz = writer.timeZone ?? game.timeZone;
  const times = await messageTimesSince(db, writer.id, new Date(f.receivedAt.getTime() - HOUR));
  const settings = pressSettingsOf(game.pressSettings);
  const facts: PressFacts = {
    settings,
    receivedAt: f.receivedAt,
    game: { status: game.status, pausedAt: game.pausedAt },
    turn: f.turn,
    writer: { faction: writer.faction },
    seated: new Set(f.seated.map((p) => p.faction)),
    sentLastHour: times.players,
    sentToRefereesLastHour: times.referees,
  };
  const decisions = decidePress(reading.press, facts);
  const result: PressRelayResult = {
    relays: [],
    messageIds: [],
    held: [],
    ack: [],
    summary: { relayed: 0, refused: 0, problems: 0, disputes: [] },
  };
  const lines: Array<{ line: number; text: string }> = [];
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
    lines.push({ line: part.lines.header, text: T.sent(part.lines.first, part.lines.last, to, d.sign === 'anonymous') });
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

  const file = deps.fileDispute ?? disputesNotOpen;
  for (const [block, part] of reading.disputes.entries()) {
    const o = await file(db, { game, player: writer, inboundId: f.inboundId, block, reason: part.text, receivedAt: f.receivedAt });
    result.summary.disputes.push(o.kind === 'filed' ? 'filed' : o.why);
    lines.push({ line: part.lines.header, text: T.disputeLine(part.lines.header, disputeText(lang, o, game.currentTurn, tz)) });
  }

  lines.sort((a, b) => a.line - b.line);
  result.ack.push(T.ackHeading, '', ...lines.map((l) => l.text));
  const notes = [
    ...(anonymous ? [T.sentDelayed, T.anonymousReminder] : []),
    ...(signedAnyway ? [T.signedAnyway] : []),
    ...(noReferee ? [T.noRefereeYet] : []),
    ...(reading.hasSheet ? [] : [T.noSheetWithPress]),
  ];
  if (notes.length) result.ack.push('', ...notes);
  return result;
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
): Promise<{ messageId: number; relays: OutboxInput[] | null; holdUntil: Date | null }> {
  const { game, writer } = f;
  const anonymous = d.sign === 'anonymous';
  const thread = await threadOf(db, f, d);
  const { message, duplicate } = await insertPressMessage(db, messageRow(f, part, block, d, thread, deps.random ?? Math.random));
  if (duplicate) return { messageId: message.id, relays: null, holdUntil: null };

  const readers: Reader[] =
    d.to.kind === 'referees'
      ? (await refereesOfGame(db, game.id)).map((r) => ({
          recipient: { kind: 'referee', id: r.id },
          address: r.email,
          // Referees have no language of their own yet: the game's rulebook is Italian.
          lang: 'it',
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
  const relays: OutboxInput[] = [];
  const rows: NewRecipient[] = [];
  for (const r of readers) {
    const token = await issueToken(db, {
      threadId: thread.id,
      owner: r.recipient,
      domain: deps.mail.domain,
      newToken: deps.newToken ?? (() => newPressToken()),
    });
    const T = pressTexts[r.lang];
    const name = (x: string) => (x === r.faction ? T.you : sideName(f.board, x, r.lang));
    const from = anonymous ? null : sideName(f.board, writer.faction, r.lang);
    const to = d.to.kind === 'referees' ? T.referees : d.to.everyone ? T.everyone : T.list(d.to.factions.map(name));
    // A plain Reply reaches the writer (as "anonymous" when hidden) and the other recipients.
    const others = d.to.kind === 'referees' ? [] : d.to.factions.filter((x) => x !== r.faction).map(name);
    const replyGoesTo = T.list([from ?? T.anonymous.toLowerCase(), ...(d.to.kind === 'factions' && d.to.everyone ? [T.everyone] : others)]);
    const m = T.relay({ game: game.id, gameName: game.name, from, to, text: part.text, replyGoesTo, turn: game.currentTurn });
    relays.push(
      gameMail(deps.mail, {
        kind: 'press',
        gameId: game.id,
        to: r.address,
        replySecret: null,
        replyAddress: pressReplyAddress(deps.mail, token.token),
        threadRoot: token.rootMessageId,
        subject: m.subject,
        text: m.text,
        dedupeKey: relayDedupeKey(message.id, r.recipient),
      }),
    );
    rows.push({ messageId: message.id, ...r.recipient, address: r.address, delivery: 'immediate' });
  }
  await addRecipients(db, rows);
  // The relays of an anonymous message leave when it becomes visible: their timing names nobody.
  return { messageId: message.id, relays, holdUntil: anonymous ? message.visibleAt : null };
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
    case 'not-open':
      return T.disputeRefusal.notOpen;
  }
}
