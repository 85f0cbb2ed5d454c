// Press written to a player's private address, end to end but for the transport (docs/press.md §4):
// the mail's blocks decided (decide-press.ts), every message stored before any relay, one relay per
// recipient in their language with a Reply-To token and a thread root of their own, disputes handed
// to the disputes module, and the lines of the writer's acknowledgement. Intake calls it inside its
// batch transaction, so the messages, the relays and the acknowledgement commit together.
import type { Board } from '../../adjudicator/map.ts';
import { sideName, sideNameAsObject } from '../../adjudicator/render/vocabulary.ts';
import type { Lang } from '../../adjudicator/types.ts';
import type { Db } from '../../db/client.ts';
import type { Game } from '../../db/games.ts';
import type { Turn } from '../../db/turns.ts';
import { bracketed, type OutboxInput } from '../../db/outbox.ts';
import { findInbound } from '../../db/inbound.ts';
import type { Player } from '../../db/players.ts';
import {
  addRecipients,
  deliveryOf,
  findOrCreateThreads,
  insertPressMessage,
  insertPressMessages,
  issueToken,
  issueTokens,
  messageForReply,
  messagesForReplies,
  messageTimesOfWriters,
  messageTimesSince,
  mutedBy,
  relayDedupeKey,
  reportMessage,
  type FoundToken,
  type MuteTarget,
  type NewRecipient,
  type PressMessage,
  type PressThread,
  type PressToken,
  type ThreadWanted,
} from '../../db/press.ts';
import { activeObservers, type Observer } from '../../db/observers.ts';
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
  /** The writer's acknowledgement, in their language. */
  ack: string[];
  /** For the stored outcome of the mail (the referee's view): one entry per block. */
  summary: { relayed: number; refused: number; problems: number; disputes: string[] };
}

/** One mail's press for `relayPressMany`: the arguments of `relayPress`. */
export interface PressMailWork {
  deps: PressMailDeps;
  facts: PressMailFacts;
  reading: PressReading;
}

/**
 * Decides, stores and words a mail's press and disputes. `hasSheet`: whether the rest of the mail
 * is read as a sheet (else the acknowledgement says the standing sheet stays, D-PRESS-2).
 */
export async function relayPress(db: Db, deps: PressMailDeps, f: PressMailFacts, reading: PressReading): Promise<PressRelayResult> {
  return (await relayPressMany(db, [{ deps, facts: f, reading }]))[0]!;
}

/**
 * `relayPress` for a batch of mail, in order, with the same outcome as one mail after the other
 * but a few statements for the whole batch (bench:press): the writers' last hour read once (a
 * message accepted earlier in the batch counts towards the cap of the next, D-PRESS-12), then the
 * conversations, messages, tokens and recipients of all of them written together.
 */
export async function relayPressMany(db: Db, work: readonly PressMailWork[]): Promise<PressRelayResult[]> {
  return (await relayPressRun(
    db,
    work.map((w) => ({ kind: 'mail', ...w })),
  )) as PressRelayResult[];
}

/** One reply by token for `relayPressRun`: the arguments of `relayReply`. */
export interface PressReplyWork {
  kind: 'reply';
  deps: PressReplyDeps;
  facts: PressReplyFacts;
  text: string;
}

export type PressRunItem = ({ kind: 'mail' } & PressMailWork) | PressReplyWork;

/**
 * A batch's press mails and replies by token in a row, with the outcome of one after the other:
 * the new messages' and the replies' messages stored and relayed together (as `relayPressMany`).
 * What each reply answers is read once for the row; when a message before it in the row goes to
 * its conversation, those before it are written first and it reads its answer alone, as it would have.
 */
export async function relayPressRun(db: Db, items: readonly PressRunItem[]): Promise<Array<PressRelayResult | PressReplyResult>> {
  if (items.length === 0) return [];
  const earliest = Math.min(...items.map((w) => w.facts.receivedAt.getTime()));
  // The writers' accepted messages since an hour before the row's earliest, and the row's own as
  // they are accepted: decidePress counts those within the hour of each mail (a list per writer,
  // passed whole, not filtered for each mail: a long row of one writer would make that quadratic).
  const times = new Map<number, { players: Date[]; referees: Date[] }>();
  const timesOf = (writerId: number) => {
    const known = times.get(writerId) ?? { players: [], referees: [] };
    times.set(writerId, known);
    return known;
  };
  for (const [writerId, list] of await messageTimesOfWriters(
    db,
    items.map((w) => w.facts.writer.id),
    new Date(earliest - HOUR),
  )) {
    const known = timesOf(writerId);
    for (const t of list) (t.toReferees ? known.referees : known.players).push(t.at);
  }
  /** The writer's last hour as `decidePress` weighs it, with what the row accepted before. */
  const factsOf = (f: PressMailFacts): PressFacts => {
    const known = timesOf(f.writer.id);
    return { ...pressFactsFrom(f), sentLastHour: known.players, sentToRefereesLastHour: known.referees };
  };
  const accepted = (f: PressMailFacts, d: PressDecision) => {
    if (d.kind !== 'relay') return;
    const known = timesOf(f.writer.id);
    (d.to.kind === 'referees' ? known.referees : known.players).push(f.receivedAt);
  };

  let plans: MessagePlan[] = [];
  const sent = new Map<MessagePlan, Sent>();
  // A row writes several times when replies meet its messages: what a write reads is read once for all.
  const known = rowKnowledge();
  const waiting: Array<{ plan: MessagePlan; resolve: (s: Sent) => void; reject: (e: unknown) => void }> = [];
  /** What this row's writes stored, by conversation: what a later reply of the row may answer. */
  const storedIn = new Map<number, Array<NonNullable<Sent['stored']>>>();
  const write = async () => {
    const now = plans;
    const ready = waiting.splice(0);
    plans = [];
    pending = touchedBy();
    try {
      for (const [plan, one] of await relayMessages(db, now, known)) {
        sent.set(plan, one);
        const threadId = one.stored?.message.threadId;
        if (one.stored && threadId != null) {
          const list = storedIn.get(threadId) ?? [];
          storedIn.set(threadId, list);
          list.push(one.stored);
        }
      }
      for (const w of ready) w.resolve(sent.get(w.plan)!);
    } catch (e) {
      for (const w of ready) w.reject(e);
      throw e;
    }
  };
  const signedKey = (t: { gameId: string; kind: string; participants: readonly string[] }) =>
    `${t.gameId}\u001f${t.kind}\u001f${(t.kind === 'all' ? [] : [...new Set(t.participants)].sort()).join('\u001f')}`;
  /** The conversations some plans go to: a reply's by id, a new signed message's by its participants. */
  const touchedBy = () => ({ ids: new Set<number>(), keys: new Set<string>() });
  const touches = (t: ReturnType<typeof touchedBy>, thread: PressThread) =>
    t.ids.has(thread.id) || (!thread.anonymous && t.keys.has(signedKey(thread)));
  let pending = touchedBy(); // by the plans not written yet
  const before = touchedBy(); // by every plan of the row so far
  const planned = (plan: MessagePlan) => {
    plans.push(plan);
    for (const t of [pending, before])
      if (plan.reply) t.ids.add(plan.reply.thread.id);
      else if (plan.thread && !plan.thread.hiddenWriterPlayerId) t.keys.add(signedKey(plan.thread));
  };
  // What each reply answers, read at once for the row: right unless a message before it goes to its conversation.
  const replyItems = items.filter((w): w is PressReplyWork => w.kind === 'reply');
  const answers = new Map(
    (
      await messagesForReplies(
        db,
        replyItems.map((w) => ({
          threadId: w.facts.token.thread.id,
          recipient: { kind: 'player', id: w.facts.writer.id },
          references: w.facts.references.map(bareId),
          now: w.facts.receivedAt,
        })),
      )
    ).map((m, i) => [replyItems[i]!, m]),
  );
  /**
   * What a reply answers when messages of this row went to its conversation (all written by now),
   * as messageForReply would read it then: the message whose relay its references name, read
   * before the row (the row's relays are not sent before it commits: no mail can name one); else
   * the latest that reached the replier (relayed, visible at the reply's receipt, not muted for
   * them), of the row's or, before them, what was there before the row (read once: the row's come after).
   */
  const answerInRow = (item: PressReplyWork, q: Parameters<typeof messageForReply>[1]): PressMessage | null => {
    const earlier = answers.get(item) ?? null;
    if (earlier?.named) return earlier.message;
    let latest = earlier?.message ?? null;
    for (const { message, recipients } of storedIn.get(q.threadId) ?? []) {
      if (message.status !== 'relayed' || message.visibleAt.getTime() > q.now.getTime()) continue;
      const reached = recipients.some((r) => r.kind === q.recipient.kind && r.id === q.recipient.id && r.delivery !== 'muted');
      if (reached && (!latest || message.id > latest.id)) latest = message;
    }
    return latest;
  };

  const mails: Array<{ w: PressMailWork; decisions: PressDecision[]; mine: Array<MessagePlan | null> } | null> = [];
  const replies: Array<Promise<PressReplyResult> | null> = [];
  for (const item of items) {
    if (item.kind === 'reply') {
      mails.push(null);
      const thread = item.facts.token.thread;
      // What a reply answers is read from what is written: a message of this row in its conversation
      // is written first, unless the reply names what it answers (its References name a relay from
      // before the row, as mail clients write them): that wins whatever the row holds.
      const touched = touches(before, thread);
      if (!answers.get(item)?.named && touches(pending, thread)) await write();
      let registered: () => void = () => {};
      const reached = new Promise<void>((r) => (registered = r));
      const batch: ReplyBatch = {
        answered: async (q) => (touched ? answerInRow(item, q) : (answers.get(item)?.message ?? null)),
        facts: (f) => {
          registered();
          return factsOf(f);
        },
        store: (f, part, row, d) => {
          accepted(f, d);
          planned({ deps: item.deps, f, part, block: row.block, d, row });
        },
        relay: (deps, f, part, block, d, reply) => {
          accepted(f, d);
          const plan: MessagePlan = {
            deps,
            f,
            part,
            block,
            d,
            row: { ...messageRow(f, part, block, d, reply.thread, deps.random ?? Math.random), inReplyToMessageId: reply.inReplyTo },
            reply,
          };
          planned(plan);
          return new Promise<Sent>((resolve, reject) => waiting.push({ plan, resolve, reject }));
        },
      };
      const done = relayReply(db, item.deps, item.facts, item.text, batch);
      // Its failure is the run's (awaited below or thrown by the write): never an unhandled rejection meanwhile.
      done.catch(() => undefined);
      replies.push(done);
      // On to the next item once this reply is decided (or answered without a message).
      await Promise.race([reached, done]);
      continue;
    }
    replies.push(null);
    const w = item;
    const f = w.facts;
    const decisions = decidePress(w.reading.press, factsOf(f));
    const mine: Array<MessagePlan | null> = w.reading.press.map((part, block) => {
      const d = decisions[block]!;
      // Stored one after the other in the batch: the next mail's cap counts it.
      accepted(f, d);
      const plan: MessagePlan = {
        deps: w.deps,
        f,
        part,
        block,
        d,
        row: messageRow(f, part, block, d, null, w.deps.random ?? Math.random),
        ...(d.kind === 'relay' ? { thread: threadWanted(f, d) } : {}),
      };
      planned(plan);
      return plan;
    });
    mails.push({ w, decisions, mine });
  }
  await write();

  const results: Array<PressRelayResult | PressReplyResult> = [];
  for (const [i, m] of mails.entries()) {
    if (!m) {
      results.push(await replies[i]!);
      continue;
    }
    results.push(await finishMail(db, m, sent));
  }
  return results;
}

/** The acknowledgement and outcome of a new mail's press, once its messages are written; its disputes filed. */
async function finishMail(
  db: Db,
  { w, decisions, mine }: { w: PressMailWork; decisions: PressDecision[]; mine: Array<MessagePlan | null> },
  sent: ReadonlyMap<MessagePlan, Sent>,
): Promise<PressRelayResult> {
  {
    const { deps, facts: f, reading } = w;
    const { game, writer } = f;
    const lang = writer.lang;
    const T = pressTexts[lang];
    const tz = writer.timeZone ?? game.timeZone;
    const result: PressRelayResult = {
      relays: [],
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
        lines.push({ line: part.lines.header, text: T.notSent(part.lines.header, refusalText(lang, refusal, f.board, tz)) });
        result.summary.refused++;
        continue;
      }
      const one = sent.get(mine[block]!)!;
      if (one.relays) result.relays.push(...one.relays);
      const to =
        d.to.kind === 'referees'
          ? T.referees
          : d.to.everyone
            ? T.everyone
            : T.list(d.to.factions.map((x) => sideNameAsObject(f.board, x, lang)));
      lines.push({ line: part.lines.header, text: T.sent(part.lines.first, part.lines.last, to, d.sign === 'anonymous', part.text) });
      // D-PRESS-17: stored for the first referee assigned; the writer is not left believing it was read.
      noReferee ||= d.to.kind === 'referees' && one.relays !== null && one.relays.length === 0;
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
}

/** What decidePress weighs for this writer now: the game's settings, the turn, seats, the last hour's messages. */
async function pressFactsOf(db: Db, f: PressMailFacts): Promise<PressFacts> {
  const times = await messageTimesSince(db, f.writer.id, new Date(f.receivedAt.getTime() - HOUR));
  return { ...pressFactsFrom(f), sentLastHour: times.players, sentToRefereesLastHour: times.referees };
}

function pressFactsFrom(f: PressMailFacts): Omit<PressFacts, 'sentLastHour' | 'sentToRefereesLastHour'> {
  return {
    settings: pressSettingsOf(f.game.pressSettings),
    receivedAt: f.receivedAt,
    game: { status: f.game.status, pausedAt: f.game.pausedAt },
    turn: f.turn,
    writer: { faction: f.writer.faction },
    seated: new Set(f.seated.map((p) => p.faction)),
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

/**
 * One message to store: accepted ones (`d` a relay) get their conversation, `thread` to find or
 * make, or the reply's. `row` is its stored row, made in the order of the blocks (the anonymous
 * delay draws `random` as one after the other would).
 */
interface MessagePlan {
  deps: PressRelayDeps;
  f: PressMailFacts;
  part: PressPart;
  block: number;
  d: PressDecision;
  row: ReturnType<typeof messageRow> & { inReplyToMessageId?: number | null };
  thread?: ThreadWanted;
  reply?: ReplyRouting;
}

/**
 * What the writes of one row have read or made, for its later writes: signed conversations (by
 * `findOrCreateThreads`' key), readers' mutes and deliveries (a row holds no MUTE or DIGEST: a
 * command splits the batch's rows), and live tokens (by thread and owner).
 */
interface RowKnowledge {
  threads: Map<string, PressThread>;
  readers: Set<number>;
  muted: Map<number, MuteTarget[]>;
  chosen: Map<number, 'immediate' | 'digest'>;
  tokens: Map<string, PressToken>;
}

function rowKnowledge(): RowKnowledge {
  return { threads: new Map(), readers: new Set(), muted: new Map(), chosen: new Map(), tokens: new Map() };
}

type Sent = {
  messageId: number;
  /** An anonymous message's are held until it is visible (`nextAttemptAt`, D-PRESS-10). */
  relays: OutboxInput[] | null;
  /** A message this write stored (not one of a mail applied before) and who it went to: what a later reply of the row may answer. */
  stored?: { message: PressMessage; recipients: readonly NewRecipient[] };
};

/** Stores one accepted message and makes its relays; a mail applied before returns no relays (they are queued already). */
async function relayOne(
  db: Db,
  deps: PressRelayDeps,
  f: PressMailFacts,
  part: PressPart,
  block: number,
  d: Extract<PressDecision, { kind: 'relay' }>,
  reply: ReplyRouting,
): Promise<Sent> {
  const row = { ...messageRow(f, part, block, d, reply.thread, deps.random ?? Math.random), inReplyToMessageId: reply.inReplyTo };
  const plan: MessagePlan = { deps, f, part, block, d, row, reply };
  return (await relayMessages(db, [plan])).get(plan)!;
}

/**
 * Stores these messages, refused ones too, and makes the relays of the accepted ones, with one
 * statement each for their conversations, the messages, the readers' mutes and deliveries, their
 * tokens and who each went to — whatever their number. Relays come in the order of the messages,
 * then of their readers, as one message after the other would make them.
 */
async function relayMessages(db: Db, plans: readonly MessagePlan[], known: RowKnowledge = rowKnowledge()): Promise<Map<MessagePlan, Sent>> {
  const out = new Map<MessagePlan, Sent>();
  const wantThread = plans.filter((p) => p.thread);
  const threads = await findOrCreateThreads(
    db,
    wantThread.map((p) => p.thread!),
    known.threads,
  );
  const threadOfPlan = new Map<MessagePlan, PressThread>(wantThread.map((p, i) => [p, threads[i]!]));
  // Every anonymous message starts a conversation of its own, made just now (D-PRESS-7).
  const fresh = new Set(wantThread.flatMap((p, i) => (p.thread!.hiddenWriterPlayerId != null ? [threads[i]!.id] : [])));
  for (const p of plans) {
    const thread = p.reply?.thread ?? threadOfPlan.get(p);
    if (thread) p.row.threadId = thread.id;
  }
  const stored = await insertPressMessages(
    db,
    plans.map((p) => p.row),
  );

  type Pending = { p: MessagePlan; thread: PressThread; message: PressMessage; d: Extract<PressDecision, { kind: 'relay' }> };
  const pending: Pending[] = [];
  plans.forEach((p, i) => {
    const { message, duplicate } = stored[i]!;
    if (p.d.kind !== 'relay') return;
    if (duplicate) out.set(p, { messageId: message.id, relays: null });
    else pending.push({ p, thread: p.reply?.thread ?? threadOfPlan.get(p)!, message, d: p.d });
  });
  if (pending.length === 0) return out;

  // What every message needs of its readers, read once: the games' referees and observers, the players' mutes and deliveries.
  const refereesOf = new Map<string, Awaited<ReturnType<typeof refereesOfGame>>>();
  for (const { p, d } of pending)
    if (d.to.kind === 'referees' && !refereesOf.has(p.f.game.id)) refereesOf.set(p.f.game.id, await refereesOfGame(db, p.f.game.id));
  const readersOf = new Map<Pending, Reader[]>();
  for (const x of pending) readersOf.set(x, readersOfMessage(x.p.f, x.d, refereesOf.get(x.p.f.game.id) ?? [], x.p.reply?.hiddenReader));
  const playerIds = [
    ...new Set([...readersOf.values()].flatMap((rs) => rs.flatMap((r) => (r.recipient.kind === 'player' ? [r.recipient.id] : [])))),
  ];
  const unread = playerIds.filter((id) => !known.readers.has(id));
  if (unread.length) {
    const [m, c] = [await mutedBy(db, unread), await deliveryOf(db, unread)];
    for (const id of unread) {
      known.readers.add(id);
      if (m.has(id)) known.muted.set(id, m.get(id)!);
      if (c.has(id)) known.chosen.set(id, c.get(id)!);
    }
  }
  const { muted, chosen } = known;
  const observersOf = new Map<string, Observer[]>();
  for (const { p, d } of pending)
    if (
      d.to.kind === 'factions' &&
      d.to.everyone &&
      p.deps.publicUrl &&
      pressSettingsOf(p.f.game.pressSettings).observers === 'broadcasts' &&
      !observersOf.has(p.f.game.id)
    )
      observersOf.set(p.f.game.id, await activeObservers(db, p.f.game.id));

  // Every reader's token, in the order one message after the other would issue them (muted readers get none).
  const deliveriesOfMessage = new Map<Pending, Map<number, Delivery>>();
  // One domain in practice (the service's): the thread roots are named in it.
  const byDomain = new Map<string, { newToken: () => string; list: Array<{ threadId: number; owner: Reader['recipient'] }> }>();
  for (const x of pending) {
    const readers = readersOf.get(x)!;
    const deliveries = deliveriesFrom(
      muted,
      chosen,
      readers.flatMap((r) => (r.recipient.kind === 'player' ? [r.recipient.id] : [])),
      x.d.sign === 'anonymous' ? null : x.p.f.writer.faction,
    );
    deliveriesOfMessage.set(x, deliveries);
    const domain = x.p.deps.mail.domain;
    const group = byDomain.get(domain) ?? { newToken: x.p.deps.newToken ?? (() => newPressToken()), list: [] };
    byDomain.set(domain, group);
    for (const r of readers)
      if ((r.recipient.kind === 'player' ? (deliveries.get(r.recipient.id) ?? 'immediate') : 'immediate') !== 'muted')
        group.list.push({ threadId: x.thread.id, owner: r.recipient });
  }
  const tokens = known.tokens;
  const tokenKey = (threadId: number, r: Reader['recipient']) => `${threadId}:${r.kind}:${r.id}`;
  for (const [domain, { newToken, list }] of byDomain) {
    // A token found or made by an earlier write of the row is the live one still (nothing revokes it meanwhile).
    const wanted = list.filter((t) => !tokens.has(tokenKey(t.threadId, t.owner)));
    const made = await issueTokens(db, wanted, { domain, newToken, fresh });
    wanted.forEach((t, i) => tokens.set(tokenKey(t.threadId, t.owner), made[i]!));
  }

  const rows: NewRecipient[] = [];
  for (const x of pending) {
    const { p, thread, message, d } = x;
    const { f, part, deps, reply } = p;
    const { game, writer } = f;
    const anonymous = d.sign === 'anonymous';
    // In an anonymous conversation a reply also reaches its hidden writer, who is named to nobody.
    const hidden = reply?.hiddenReader;
    // The writer of an anonymous conversation, when someone else answers in it: told so, and that a reply keeps them hidden.
    const hiddenWriterId = thread.hiddenWriterPlayerId !== writer.id ? thread.hiddenWriterPlayerId : null;
    const readers = readersOf.get(x)!;
    const deliveries = deliveriesOfMessage.get(x)!;
    const relays: OutboxInput[] = [];
    const firstRow = rows.length;
    for (const r of readers) {
      const T = pressTexts[r.lang];
      // Italian names the audience with articles ("te e i Cavalieri"): "→"/"A:" read as "a".
      const name = (x: string) => (x === r.faction ? T.you : sideNameAsObject(f.board, x, r.lang));
      const from = anonymous ? null : sideName(f.board, writer.faction, r.lang);
      // The hidden writer of the conversation: "you" to themselves, "anonymous" to the others.
      const isHidden = hidden !== undefined && hidden !== null && r.recipient.id === hidden.id;
      const unnamed = reply?.hiddenReader !== undefined ? [isHidden ? T.you : T.anonymous.toLowerCase()] : [];
      const to = d.to.kind === 'referees' ? T.referees : d.to.everyone ? T.everyone : T.list([...d.to.factions.map(name), ...unnamed]);
      // A plain Reply reaches the writer (as "anonymous" when hidden) and the other recipients; a
      // Reply to everyone reaches everyone, its writer included: "everyone" says it all.
      // As the object of "write to": in Italian each name with its article ("scrivere agli Hutt").
      const asObject = (x: string) => (x === r.faction ? T.you : sideNameAsObject(f.board, x, r.lang));
      const writerAsObject = anonymous ? T.anonymousWriter : sideNameAsObject(f.board, writer.faction, r.lang);
      const hiddenObject = reply?.hiddenReader !== undefined && !isHidden ? [T.anonymousWriter] : [];
      const objects = d.to.kind === 'referees' ? [] : [...d.to.factions.filter((x) => x !== r.faction).map(asObject), ...hiddenObject];
      const replyGoesTo = d.to.kind === 'factions' && d.to.everyone ? T.everyone : T.list([writerAsObject, ...objects]);
      const reader = r.recipient.kind === 'referee' ? 'referee' : r.recipient.id === hiddenWriterId ? 'hidden-writer' : ('player' as const);
      const m = T.relay({ game: game.id, gameName: game.name, from, to, text: part.text, replyGoesTo, turn: game.currentTurn, reader });
      const one = relayMail(
        deps,
        {
          gameId: game.id,
          threadId: thread.id,
          messageId: message.id,
          recipient: r.recipient,
          address: r.address,
          text: m,
          delivery: r.recipient.kind === 'player' ? (deliveries.get(r.recipient.id) ?? 'immediate') : 'immediate',
        },
        tokens.get(tokenKey(thread.id, r.recipient)) ?? null,
      );
      if (one.mail) relays.push(one.mail);
      rows.push(one.row);
    }
    // Observers get broadcasts (docs/press.md §4.3), held with the players' relays.
    if (d.to.kind === 'factions' && d.to.everyone)
      for (const o of await observerRelays(
        db,
        deps,
        {
          game,
          board: f.board,
          messageId: message.id,
          writerFaction: anonymous ? null : writer.faction,
          text: part.text,
        },
        observersOf.get(game.id),
      )) {
        relays.push(o.mail);
        rows.push(o.row);
      }
    // The relays of an anonymous message leave when it becomes visible: their timing names nobody.
    out.set(p, {
      messageId: message.id,
      relays: anonymous ? relays.map((m) => ({ ...m, nextAttemptAt: message.visibleAt })) : relays,
      stored: { message, recipients: rows.slice(firstRow) },
    });
  }
  await addRecipients(db, rows);
  return out;
}

/** Who reads an accepted message: the game's referees, or the seated players it names, and a conversation's hidden writer. */
function readersOfMessage(
  f: PressMailFacts,
  d: Extract<PressDecision, { kind: 'relay' }>,
  referees: ReadonlyArray<{ id: number; email: string }>,
  hidden: Player | null | undefined,
): Reader[] {
  const { game } = f;
  const readers: Reader[] =
    d.to.kind === 'referees'
      ? referees.map((r) => ({
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
  return readers;
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

/**
 * How `relayPressRun` takes a reply into its row: its facts from the row's last hour, and its
 * message stored (`store`, refused) or stored and relayed (`relay`) with the row's others.
 */
interface ReplyBatch {
  answered: (q: Parameters<typeof messageForReply>[1]) => Promise<PressMessage | null>;
  facts: (f: PressMailFacts) => PressFacts;
  store: (f: PressMailFacts, part: PressPart, row: MessagePlan['row'], d: PressDecision) => void;
  relay: (
    deps: PressRelayDeps,
    f: PressMailFacts,
    part: PressPart,
    block: number,
    d: Extract<PressDecision, { kind: 'relay' }>,
    reply: ReplyRouting,
  ) => Promise<Sent>;
}

const bareId = (id: string) => id.replace(/^<|>$/g, '');

/**
 * A reply by token (docs/press.md §4.6): its whole text is one message to the conversation's
 * other participants, decided by the same rules as a new message (settings, open press, the
 * hourly cap); or, first line REPORT/SEGNALA, a report of the message it answers, whose stored
 * original goes to the referees. Nothing in it is ever read as orders.
 */
export async function relayReply(
  db: Db,
  deps: PressReplyDeps,
  f: PressReplyFacts,
  text: string,
  batch?: ReplyBatch,
): Promise<PressReplyResult> {
  const { game, writer, token } = f;
  const T = pressTexts[writer.lang];
  const tz = writer.timeZone ?? game.timeZone;
  const thread = token.thread;
  const result: PressReplyResult = { relays: [], ack: [], toReferees: [], summary: { reply: 'empty' } };
  const reply = readPressReply(text);
  const asked = {
    threadId: thread.id,
    recipient: { kind: 'player' as const, id: writer.id },
    references: f.references.map(bareId),
    now: f.receivedAt,
  };
  const answered = batch ? await batch.answered(asked) : await messageForReply(db, asked);
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
  const facts = batch ? batch.facts(f) : await pressFactsOf(db, f);
  // The hidden writer is written to while seated, whatever their faction is called in the audience.
  if (hiddenReader) facts.seated = new Set([...facts.seated, hiddenReader.faction]);
  const [d] = decidePress([part], facts);
  if (!d || d.kind === 'refused') {
    const { kind: _, ...refusal } = d!;
    // Stored with the audience its participants see: the hidden writer's faction is in no row a player may read.
    const stored: PressPart = hiddenReader ? { ...part, audience: { kind: 'factions', factions: thread.participants } } : part;
    const row = { ...messageRow(f, stored, 0, d!, null, deps.random ?? Math.random), inReplyToMessageId: answered?.id ?? null };
    if (batch) batch.store(f, stored, row, d!);
    else await insertPressMessage(db, row);
    result.summary = { reply: 'refused', reason: refusal.reason };
    result.ack.push(T.replyNotSent(refusalText(writer.lang, refusal as PressRefusal, f.board, tz)));
    return result;
  }
  const visible =
    d.to.kind === 'factions' && hiddenReader
      ? { ...d, to: { ...d.to, factions: d.to.factions.filter((x) => x !== hiddenReader.faction) } }
      : d;
  const routing: ReplyRouting = {
    thread,
    inReplyTo: answered?.id ?? null,
    ...(hiddenReader !== undefined ? { hiddenReader } : {}),
  };
  const sent = await (batch ? batch.relay(deps, f, part, 0, visible, routing) : relayOne(db, deps, f, part, 0, visible, routing));
  if (sent.relays) result.relays.push(...sent.relays);
  const name = (x: string) => sideNameAsObject(f.board, x, writer.lang);
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
  const result: PressReplyResult = { relays: [], ack: [], toReferees: [], summary: { reply: 'empty' } };
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
    reader: 'from-referee',
  });
  const one = await relayTo(db, deps, {
    gameId: f.game.id,
    threadId: thread.id,
    messageId: message.id,
    recipient: { kind: 'player', id: player.id },
    address: player.email,
    text: m,
  });
  // A referee is never muted, nor waits for a digest (D-PRESS-11): their answer goes at once,
  // threaded under the player's own mail that asked (the player has no relay in this thread yet).
  const asked = answered?.inboundId ? (await findInbound(db, answered.inboundId))?.messageId : null;
  const under = asked ? bracketed(asked) : null;
  result.relays.push(under ? { ...one.mail!, inReplyTo: under, references: `${under} ${one.mail!.references ?? ''}`.trim() } : one.mail!);
  await addRecipients(db, [one.row]);
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
  return deliveriesFrom(muted, chosen, playerIds, signedBy);
}

/** `deliveriesOf` from the players' mutes and choices, read once for a batch. */
function deliveriesFrom(
  muted: ReadonlyMap<number, MuteTarget[]>,
  chosen: ReadonlyMap<number, 'immediate' | 'digest'>,
  playerIds: readonly number[],
  signedBy: string | null,
): Map<number, Delivery> {
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
async function relayTo(db: Db, deps: PressRelayDeps, a: RelayFacts): Promise<{ mail: OutboxInput | null; row: NewRecipient }> {
  const muted = (a.delivery ?? 'immediate') === 'muted';
  const token = muted
    ? null
    : await issueToken(db, {
        threadId: a.threadId,
        owner: a.recipient,
        domain: deps.mail.domain,
        newToken: deps.newToken ?? (() => newPressToken()),
      });
  return relayMail(deps, a, token);
}

interface RelayFacts {
  gameId: string;
  threadId: number;
  messageId: number;
  recipient: Reader['recipient'];
  address: string;
  text: MailText;
  delivery?: Delivery;
}

/** `relayTo` with the recipient's token issued already (null when muted). */
function relayMail(deps: PressRelayDeps, a: RelayFacts, token: PressToken | null): { mail: OutboxInput | null; row: NewRecipient } {
  const delivery = a.delivery ?? 'immediate';
  const row = { messageId: a.messageId, ...a.recipient, address: a.address, delivery };
  if (delivery === 'muted') return { mail: null, row };
  if (!token) throw new Error(`no press token for ${a.recipient.kind} ${a.recipient.id} in thread ${a.threadId}`);
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
function threadWanted(f: PressMailFacts, d: Extract<PressDecision, { kind: 'relay' }>): ThreadWanted {
  const hidden = d.sign === 'anonymous' ? f.writer.id : null;
  if (d.to.kind === 'referees') return { gameId: f.game.id, kind: 'referee', participants: [f.writer.faction] };
  if (d.to.everyone) return { gameId: f.game.id, kind: 'all', participants: [], hiddenWriterPlayerId: hidden };
  const participants = hidden ? d.to.factions : [f.writer.faction, ...d.to.factions];
  return { gameId: f.game.id, kind: 'factions', participants, hiddenWriterPlayerId: hidden };
}

function messageRow(f: PressMailFacts, part: PressPart, block: number, d: PressDecision, thread: PressThread | null, random: () => number) {
  const relayed = d.kind === 'relay';
  const sign = relayed ? d.sign : part.sign === 'anonymous' ? 'anonymous' : 'signed';
  // An anonymous message is seen no sooner than a random delay after its receipt (D-PRESS-10).
  const visibleAt = sign === 'anonymous' ? new Date(f.receivedAt.getTime() + anonymousDelayMs(random())) : f.receivedAt;
  // To everyone: every faction seated, its writer included, so that the row never singles out an
  // anonymous writer by leaving them out (D-PRESS-10).
  const audienceFactions = relayed
    ? d.to.kind === 'factions'
      ? d.to.everyone
        ? [...new Set([...d.to.factions, f.writer.faction])].sort()
        : d.to.factions
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

/** Why a message was not sent, in the writer's words; the referee console shows the same (a stored refusal's dates revived). */
export function refusalText(lang: Lang, r: PressRefusal, board: Board, tz: string): string {
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
      return T.notInPlay(pressTexts[lang].list(r.factions.map((x) => sideNameAsObject(board, x, lang))));
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
  return T.disputeNotTaken(disputeRefusalText(lang, o, currentTurn, tz));
}

function disputeRefusalText(lang: Lang, o: Extract<DisputeOutcome, { kind: 'refused' }>, currentTurn: number, tz: string): string {
  const T = pressTexts[lang];
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
