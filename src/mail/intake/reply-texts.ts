// Every answer intake sends, put together from its words in src/text/replies.ts: which lines, in
// which order, how many. Everything a player wrote is quoted back as data, never as markup.
import type { Board } from '../../adjudicator/map.ts';
import type { SheetReview } from '../../adjudicator/review.ts';
import type { Lang } from '../../adjudicator/types.ts';
import { problemLine, replyTexts } from '../../text/replies.ts';
import type { Refusal } from '../../games/accept-sheet.ts';
import type { RefusalReason } from './identify-sender.ts';
import type { ReplyKind } from './outgoing.ts';
import { MAX_ORDERS_LISTED, MAX_PROBLEMS_LISTED, MAX_QUOTED_LINE, MAX_STATUS_LINES, headLines } from './reply-limits.ts';

// One way to name a side, the edict's: the Imperial Troops are named alike in replies and edicts.
import { sideName } from '../../adjudicator/render/vocabulary.ts';
export { problemLine, sideName };

export interface AckFacts {
  lang: Lang;
  board: Board;
  gameName: string;
  faction: string;
  turn: number;
  electionTurn: boolean;
  review: SheetReview;
  replaces: string | null;
  deadline: string;
  /** For the Chancellor: the earlier declaration deadline (R-TURN-3). */
  declarationDeadline: string | null;
  isChancellor: boolean;
  /** What was wrong with the mail itself, read as far as it could be (D-MAIL-11). */
  damage?: string[];
}

export function ackText(f: AckFacts): string {
  const { lang, review } = f;
  const T = replyTexts[lang];
  const out: string[] = [];
  const who = sideName(f.board, f.faction, lang);
  out.push(T.received(who, f.turn, f.gameName));
  out.push(f.replaces ? T.replaces(f.replaces) : T.firstSheet);
  out.push(review.status === 'valid' ? T.statusValid : T.statusProblems);
  out.push('', T.ordersHeading);
  if (review.orders.length === 0) out.push(T.noOrders);
  for (const o of review.orders.slice(0, MAX_ORDERS_LISTED)) {
    out.push(`  ${o.order.padEnd(10)} ${o.applies ? '' : T.notApplied}`.trimEnd());
  }
  const moreOrders = review.orders.length - MAX_ORDERS_LISTED;
  if (moreOrders > 0) out.push(T.moreOrders(moreOrders));
  const hostile = review.hostility.map((s) => sideName(f.board, s, lang)).join(', ');
  out.push('', `${T.hostility}: ${hostile || T.nobody}`);
  if (f.electionTurn) {
    const vote = review.vote ? sideName(f.board, review.vote, lang) : T.noVote;
    out.push(`${T.vote}: ${vote}`);
  }
  if (review.problems.length) {
    out.push('', T.problemsHeading);
    for (const p of review.problems.slice(0, MAX_PROBLEMS_LISTED)) out.push(`  ${problemLine(p, lang)}`);
    const more = review.problems.length - MAX_PROBLEMS_LISTED;
    if (more > 0) out.push(T.moreProblems(more));
  }
  if (review.notes?.length) {
    // Text that is not orders is noted here, to its writer only (D-PARSE-16): a long letter is counted, not echoed.
    out.push('', T.notesHeading);
    for (const p of review.notes.slice(0, MAX_PROBLEMS_LISTED)) out.push(`  ${problemLine(p, lang)}`);
    const more = review.notes.length - MAX_PROBLEMS_LISTED;
    if (more > 0) out.push(T.moreNotes(more));
  }
  if (f.damage?.length) {
    out.push('', T.damagedHeading);
    for (const d of f.damage) out.push(`  ${d}`);
  }
  if (review.normalised.length) {
    out.push('', T.normalisedHeading);
    for (const p of review.normalised) out.push(`  ${p.message[lang]}`);
  }
  out.push('');
  if (f.isChancellor) out.push(T.youAreChancellor);
  out.push(`${T.deadline}: ${f.deadline}`);
  out.push(f.isChancellor ? T.othersStaySecret : T.ordersStaySecret);
  return out.join('\n') + '\n';
}

export function chancellorBroadcastText(f: AckFacts): string {
  const { lang } = f;
  const T = replyTexts[lang];
  const who = sideName(f.board, f.faction, lang);
  const lines = [
    T.chancellorDeclared(who, f.turn, f.gameName),
    '',
    `${T.hostility}: ${f.review.hostility.map((s) => sideName(f.board, s, lang)).join(', ') || T.nobody}`,
    T.chancellorOrders,
    ...(f.review.orders.length ? f.review.orders.filter((o) => o.applies).map((o) => `  ${o.order}`) : [T.noOrdersListed]),
    '',
    `${T.deadlineForOthers}: ${f.deadline}`,
  ];
  return lines.join('\n') + '\n';
}

/** The broadcast's subject names the Chancellor as the caller chooses. */
export function chancellorBroadcastSubject(lang: Lang, game: string, chancellor: string, turn: number): string {
  return replyTexts[lang].chancellorSubject(game, chancellor, turn);
}

export function refusalText(lang: Lang, reason: RefusalReason, game: string | null): string {
  const T = replyTexts[lang];
  switch (reason) {
    // A code that belongs to another address reads exactly as an unknown one: a prober must not
    // learn that a guess was someone's code.
    case 'sender-mismatch':
    case 'unknown-code':
      return T.unknownCode;
    case 'missing-code':
      return T.missingCode(game ?? '?');
    case 'unknown-game':
      return T.unknownGame;
    case 'no-game':
    case 'unknown-sender':
      return T.noGame;
  }
}

export function spoofWarningSubject(lang: Lang, game: string): string {
  return replyTexts[lang].warningSubject(game);
}

/** `summary`: more than one attempt since the last warning (warnings go out at most once an hour). */
/** `sender` null: another player's of the game, not named (D-PRESS-38). */
export function spoofWarningText(
  lang: Lang,
  sender: string | null,
  at: string,
  summary: { attempts: number; since: string } | null = null,
  referees: readonly string[] = [],
): string {
  // Players are told how to reach the game's referees when the game has any.
  const reach = referees.length ? ` (${referees.join(', ')})` : '';
  const T = replyTexts[lang];
  const from = sender ?? T.fellowAddress;
  return summary ? T.warningSummary(summary.since, summary.attempts, at, from, reach) : T.warningOnce(at, from, reach);
}

type UnreadableReason = 'too-large' | 'broken' | 'no-sheet' | 'too-costly';
function unreadableText(lang: Lang, reason: UnreadableReason, detail: string): string {
  const T = replyTexts[lang];
  const why = { 'too-large': T.tooLarge(detail), broken: T.broken(detail), 'too-costly': T.tooCostly, 'no-sheet': T.noSheet }[reason];
  const again = reason === 'broken' || reason === 'too-costly' ? T.sendAsText : '';
  return T.notReadAsSheet(why, again);
}

function lateText(lang: Lang, receivedAt: string, deadline: string, chancellor: boolean): string {
  const T = replyTexts[lang];
  return chancellor ? T.lateChancellor(receivedAt, deadline) : T.late(receivedAt, deadline);
}

function notAcceptedText(lang: Lang, why: Exclude<Refusal, 'absence-dates'>): string {
  const T = replyTexts[lang];
  return {
    'chancellor-final': T.chancellorFinal,
    'not-in-play': T.notInPlay,
    'game-not-active': T.gameNotActive,
    'no-open-turn': T.noOpenTurn,
  }[why];
}

/** ABSENCE (D-ABS-1): what was recorded, or how to write the dates. */
export function absenceText(lang: Lang, days: { fromDay: string; toDay: string } | null): string {
  const T = replyTexts[lang];
  return days ? T.absenceRecorded(days.fromDay, days.toDay) : T.absenceUnread;
}

/** D-MAIL-20: a sheet received before the one that stands, but processed after it (an outage). */
function supersededText(lang: Lang, receivedAt: string, standing: string): string {
  return replyTexts[lang].superseded(receivedAt, standing);
}

/**
 * Why intake refuses a player's mail: each is the outcome stored for the referee, and
 * refusalReply below is the one place that turns it into the player's answer.
 */
export type PlayerRefusal =
  | { outcome: 'too-large'; size: number }
  /** The body was over its reading budget (set aside for the referee). */
  | { outcome: 'too-costly' }
  /** Broken MIME with nothing readable: what is wrong, in the player's language. */
  | { outcome: 'broken'; damage: readonly string[] }
  /** D-MAIL-1: nothing in it reads as a sheet. */
  | { outcome: 'no-sheet' }
  | { outcome: Refusal }
  | { outcome: 'late'; receivedAt: string; closedAt: string; declaration: boolean }
  /** D-MAIL-20: a newer sheet was received before this one was read. */
  | { outcome: 'superseded'; receivedAt: string; by: string };

/** Mail that is not a sheet is answered once a day per sender and text (D-MAIL-24). */
export const ANSWERED_ONCE_A_DAY: ReadonlySet<PlayerRefusal['outcome']> = new Set(['too-costly', 'broken', 'no-sheet']);

export function refusalReply(lang: Lang, r: PlayerRefusal): { kind: ReplyKind; text: string } {
  switch (r.outcome) {
    case 'too-large':
      return { kind: 'unreadable', text: unreadableText(lang, 'too-large', `${r.size} bytes`) };
    case 'too-costly':
    case 'no-sheet':
      return { kind: 'unreadable', text: unreadableText(lang, r.outcome, '') };
    case 'broken':
      return { kind: 'unreadable', text: unreadableText(lang, 'broken', r.damage.join('; ')) };
    case 'absence-dates':
      return { kind: 'refusal', text: absenceText(lang, null) };
    case 'late':
      return { kind: 'late', text: lateText(lang, r.receivedAt, r.closedAt, r.declaration) };
    case 'superseded':
      return { kind: 'refusal', text: supersededText(lang, r.receivedAt, r.by) };
    default:
      return { kind: 'refusal', text: notAcceptedText(lang, r.outcome) };
  }
}

export interface StatusFacts {
  lang: Lang;
  board: Board;
  gameName: string;
  faction: string;
  turn: number;
  deadline: string;
  received: 'none' | 'problems' | 'valid';
  sheetAt: string | null;
  sheetText: string | null;
  /** The game is over: no deadline is due, it says so instead. */
  over?: boolean;
}

export function statusText(f: StatusFacts): string {
  const { lang } = f;
  const T = replyTexts[lang];
  const state = { none: T.stateNone, problems: T.stateProblems, valid: T.stateValid }[f.received];
  const lines = [
    `"${f.gameName}" — ${sideName(f.board, f.faction, lang)}, ${T.turn} ${f.turn}`,
    f.over ? T.gameOver : `${T.deadline}: ${f.deadline}`,
    `${T.yourOrders}: ${state}${f.sheetAt ? ` (${f.sheetAt})` : ''}`,
  ];
  if (f.sheetText !== null) {
    const quoted = headLines(f.sheetText, MAX_STATUS_LINES, MAX_QUOTED_LINE);
    lines.push('', T.currentSheet, ...quoted.lines.map((l) => `  ${l}`));
    if (quoted.omitted > 0) lines.push(T.moreLines(quoted.omitted));
  }
  return lines.join('\n').trimEnd() + '\n';
}

export function helpText(lang: Lang): string {
  return replyTexts[lang].help;
}
