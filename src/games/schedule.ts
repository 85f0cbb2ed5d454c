// The weekly rhythm of a game, as pure decisions of (game settings, turn, now): when the next turn
// is due, which reminder is due now. The turn job asks; nothing here reads a clock.
import { nextWeeklyDeadline } from './deadline.ts';

export interface ScheduleSettings {
  weeklyDeadline: string;
  timeZone: string;
  declarationLeadMinutes: number;
  reminderMinutes: readonly number[];
}

/**
 * A turn closed late (the service was down across the deadline) still gives players this long
 * before the next deadline (D-TURN-2): the next weekly deadline at least this far from the close.
 */
export const MIN_TURN_NOTICE_MS = 24 * 3_600_000;

/**
 * A turn closed before its deadline (early processing, D-TURN-7) is followed by the first weekly
 * deadline whose Chancellor's declaration deadline is at least this far from the close: the game
 * goes faster, and everyone still has two days to read the edict and answer it.
 */
export const MIN_EARLY_NOTICE_MS = 48 * 3_600_000;

/** Deadlines of the turn after one whose deadline was `previous`, closed at `closedAt`. */
export function nextTurnDeadlines(game: ScheduleSettings, previous: Date, closedAt: Date): { deadline: Date; declarationDeadline: Date } {
  const lead = game.declarationLeadMinutes * 60_000;
  // On time, the next weekly time after the previous deadline is a week later on the game's clocks
  // (an hour more or less across a daylight-saving change) and well past the notice. Early, the
  // first weekly time that leaves the notice (never later than the one after the previous deadline).
  const after =
    closedAt < previous
      ? new Date(closedAt.getTime() + MIN_EARLY_NOTICE_MS + lead - 1)
      : new Date(Math.max(previous.getTime(), closedAt.getTime() + MIN_TURN_NOTICE_MS));
  const deadline = nextWeeklyDeadline(after, game.weeklyDeadline, game.timeZone);
  return { deadline, declarationDeadline: declarationDeadlineOf(game, deadline) };
}

/** R-TURN-3: the Chancellor declares this long before the orders deadline. */
export function declarationDeadlineOf(game: Pick<ScheduleSettings, 'declarationLeadMinutes'>, deadline: Date): Date {
  return new Date(deadline.getTime() - game.declarationLeadMinutes * 60_000);
}

/**
 * The reminder due now for a deadline: the smallest configured offset (minutes before the
 * deadline) whose time has come, or null. Only the latest one matters: after an outage, players
 * get one reminder saying what is missing, not every reminder they missed.
 */
export function dueReminderOffset(reminderMinutes: readonly number[], deadline: Date, now: Date): number | null {
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return null;
  let due: number | null = null;
  for (const m of reminderMinutes) {
    if (m > 0 && m * 60_000 >= left && (due === null || m < due)) due = m;
  }
  return due;
}

/** When a turn stops taking sheets: its deadline plus the game's grace period. */
export function turnClosesAt(game: { graceMinutes: number }, turn: { deadline: Date }): Date {
  return new Date(turn.deadline.getTime() + game.graceMinutes * 60_000);
}
