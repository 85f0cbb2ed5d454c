// Accepting a player's mail: the game's decisions, as pure functions of what the caller knows (the
// game, the player, the game's current turn, the faction's standing sheet, the mail and when our
// server received it). No clock, no I/O: intake (src/mail/intake/answer-player.ts) gathers the
// facts, stores what is decided and words the replies; the mail's own troubles (too large,
// unreadable) are intake's and come first.
import type { Board } from '../adjudicator/map.ts';
import { reviewSheet, type SheetReview } from '../adjudicator/review.ts';
import type { FactionId, GameState } from '../adjudicator/types.ts';
import { localDay, type AbsenceDays } from './absence.ts';
import { explainAbsenceLines, readPlayerCommand } from './player-commands.ts';
import { turnClosesAt } from './schedule.ts';
import type { PressCommand } from './press/press-commands.ts';
import { pressFactions } from './press/read-press.ts';

/** What the decisions read of a turn; the caller's own turn type comes back in an accepted decision. */
export interface TurnFacts {
  number: number;
  status: string;
  deadline: Date;
  declarationDeadline: Date;
  state: GameState;
}

export interface PlayerMailFacts<T extends TurnFacts = TurnFacts> {
  game: { status: string; graceMinutes: number; timeZone: string };
  player: { faction: FactionId; joinedTurn: number };
  /** The game's current turn — the one every sheet is for — or null when it is not at hand. */
  turn: T | null;
  /** The faction's newest sheet of that turn (R-TURN-4), or null. */
  standing: StandingSheet | null;
  mail: {
    /** The stored message's id: it orders two mails received within the same second. */
    inboundId: number;
    /** When our server received it (D-MAIL-16), never the Date: header. */
    receivedAt: Date;
    /** The sheet as read from the mail. */
    text: string;
    subject: string | null;
  };
  board: Board;
}

export interface StandingSheet {
  receivedAt: Date;
  inboundId: number | null;
}

/** Why a mail is not taken, where no more needs saying. Each is also the stored outcome. */
export type Refusal =
  | 'game-not-active' // the game is over; a paused game still takes sheets (only its deadlines wait)
  | 'absence-dates' // D-ABS-1: an absence whose dates cannot be read
  | 'no-open-turn'
  | 'not-in-play' // R-SETUP-4: a late joiner plays from the turn after it joined
  | 'chancellor-final'; // R-TURN-3, D-MAIL-17

export type SheetDecision<T extends TurnFacts = TurnFacts> =
  | { kind: 'refused'; reason: Refusal }
  /** Received after `closedAt`: the turn's deadline and grace (D-TURN-6), or the Chancellor's declaration deadline (R-TURN-3). */
  | { kind: 'late'; closedAt: Date; declaration: boolean }
  /** D-MAIL-1: nothing in it reads as a sheet; the standing sheet stays. */
  | { kind: 'no-sheet' }
  /** D-MAIL-20: a newer sheet was received before this one was read; it stands. */
  | { kind: 'superseded'; by: Date }
  /**
   * R-TURN-4: stored as the faction's newest sheet. `broadcast`: the Chancellor's sheet goes to
   * every player at once and is final (R-TURN-3).
   */
  | { kind: 'accepted'; turn: T; review: SheetReview; isChancellor: boolean; broadcast: boolean; electionTurn: boolean };

export type PlayerMailDecision<T extends TurnFacts = TurnFacts> =
  | SheetDecision<T>
  | { kind: 'help' }
  | { kind: 'status' }
  /** D-ABS-1: recorded with the mail; the turn job moves deadlines for it. */
  | { kind: 'absence'; absence: AbsenceDays }
  /** MUTE / UNMUTE / DIGEST / IMMEDIATE (D-PRESS-11): applied and answered by intake. */
  | { kind: 'press'; command: PressCommand };

/** What a mail from an identified player comes to: a command, a refusal, or a sheet decision. */
export function decidePlayerMail<T extends TurnFacts>(f: PlayerMailFacts<T>): PlayerMailDecision<T> {
  // ABSENCE dates are whole days of the game's zone (D-ABS-1): `1/4` is read from the day it arrived.
  const command = readPlayerCommand(
    f.mail.text,
    f.mail.subject,
    () => localDay(f.mail.receivedAt, f.game.timeZone),
    pressFactions(f.board.map),
  );
  // Once the game is over HELP and STATUS still answer; nothing else is taken (no sheet, absence or press setting).
  if (f.game.status === 'finished') return command?.kind === 'help' || command?.kind === 'status' ? command : refused('game-not-active');
  if (command?.kind === 'absence-dates') return refused('absence-dates');
  if (command?.kind === 'absence') return { kind: 'absence', absence: command.days };
  if (command) return command;
  return decideSheet(f);
}

/** A mail that is not a command: whether it is taken as the faction's sheet for the current turn. */
export function decideSheet<T extends TurnFacts>(f: PlayerMailFacts<T>): SheetDecision<T> {
  const { turn, player, mail } = f;
  if (!turn || turn.status !== 'open') return refused('no-open-turn');
  if (player.joinedTurn > turn.number) return refused('not-in-play');
  const isChancellor = turn.state.chancellor === player.faction;
  // The time that counts is when our server received the mail (R-TURN-4), not its Date: header;
  // a game's grace period still takes sheets after the deadline (D-TURN-6), not the Chancellor's.
  const closesAt = turnClosesAt(f.game, turn);
  if (mail.receivedAt > closesAt) return { kind: 'late', closedAt: closesAt, declaration: false };
  if (isChancellor && mail.receivedAt > turn.declarationDeadline)
    return { kind: 'late', closedAt: turn.declarationDeadline, declaration: true };

  const read = reviewSheet(f.board, turn.state, player.faction, mail.text);
  const review = { ...read, problems: explainAbsenceLines(mail.text, read.problems) };
  const p = review.parsed;
  // Chatter alone ("grazie!") is not a sheet: it must not wipe out real orders (D-MAIL-1), whether
  // it is text with no order shape (D-PARSE-16) or lines that could not be read.
  if (!p.orders.length && !p.hostilityDeclared && !p.vote && !p.eliminate && (p.problems.length > 0 || p.ignored.length > 0))
    return { kind: 'no-sheet' };
  if (isChancellor && f.standing) return refused('chancellor-final');
  // The sheet that counts is the last one received, not the last one read (D-MAIL-20).
  if (f.standing && receivedBefore(mail, f.standing)) return { kind: 'superseded', by: f.standing.receivedAt };
  return { kind: 'accepted', turn, review, isChancellor, broadcast: isChancellor, electionTurn: turn.number === 1 || turn.state.election };
}

/**
 * Whether a mail was received before the one a standing sheet came from. Reception times have
 * whole seconds (IMAP): within one second, the mail stored first (lower id) is the earlier one.
 */
function receivedBefore(mail: { receivedAt: Date; inboundId: number }, standing: StandingSheet): boolean {
  const a = mail.receivedAt.getTime();
  const b = standing.receivedAt.getTime();
  return a < b || (a === b && standing.inboundId !== null && mail.inboundId < standing.inboundId);
}

const refused = (reason: Refusal) => ({ kind: 'refused', reason }) as const;
