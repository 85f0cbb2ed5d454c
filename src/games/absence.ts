// Absences (ABSENCE <from> <to>, also ASSENZA): a player away for some days. While a game has an
// absent player, a deadline that falls inside the absence moves to its end, within the game's
// limits per player and per game; a deadline never moves earlier. Pure: dates are whole days in
// the game's zone, written YYYY-MM-DD.
import { zonedTimeToInstant } from './deadline.ts';

export interface AbsenceDays {
  fromDay: string;
  toDay: string;
}

const DAY = 86_400_000;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const EUROPEAN = /^(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2}|\d{4}))?$/;

/** `2025-04-01`, `1/4/2025`, `1.4.25` or `1/4` (the next such date from `today`); null when not a date. */
export function parseDay(text: string, today: string): string | null {
  const t = text.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = ISO.exec(t);
  const eu = iso ? null : EUROPEAN.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (eu) {
    [d, m] = [Number(eu[1]), Number(eu[2])];
    y = eu[3] ? Number(eu[3].length === 2 ? `20${eu[3]}` : eu[3]) : Number(today.slice(0, 4));
  } else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  let day = date.toISOString().slice(0, 10);
  // `1/4` written in December means next April.
  if (eu && !eu[3] && day < today) day = `${y + 1}${day.slice(4)}`;
  return day;
}

/** `ABSENCE 2025-04-01 2025-04-10` (or `ASSENZA dal 1/4 al 10/4`): the two days, or null. */
export function readAbsenceCommand(line: string, today: () => string): AbsenceDays | { error: 'dates' } | null {
  const m = /^\s*(absence|assenza)\b\s*:?\s*(.*)$/i.exec(line);
  if (!m) return null;
  const words = m[2]!.split(/\s+/).filter((w) => w && !/^(from|to|dal|al|fino|-)$/i.test(w));
  if (words.length !== 2) return { error: 'dates' };
  const day = today();
  const from = parseDay(words[0]!, day);
  const to = parseDay(words[1]!, day);
  if (!from || !to || to < from) return { error: 'dates' };
  return { fromDay: from, toDay: to };
}

// Building a formatter costs more than reading a sheet (intake asks for every mail): one per zone.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar day of an instant in a zone, YYYY-MM-DD. */
export function localDay(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format)
    dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(at);
}

export interface AbsenceLimits {
  /** Days a deadline may be moved for one player, in all, and for the whole game. */
  perPlayerDays: number;
  perGameDays: number;
}

/**
 * Where a deadline goes given the absences in force (D-ABS-1): a deadline that falls on a day of an
 * absence moves to the same time of day on the day after the absence ends, again while it lands in
 * another absence, but never by more days than the limits leave (`usedPlayer` days already moved for
 * each player, `usedGame` for the game). Returns the deadline (never earlier) and the days it moved.
 */
export function deadlineAfterAbsences(
  deadline: Date,
  timeZone: string,
  absences: ReadonlyArray<AbsenceDays & { playerId: number }>,
  limits: AbsenceLimits,
  used: { perPlayer: ReadonlyMap<number, number>; game: number },
): { deadline: Date; movedDays: number; for: number[] } {
  let current = deadline;
  let moved = 0;
  const who = new Set<number>();
  for (let guard = 0; guard < 64; guard++) {
    const day = localDay(current, timeZone);
    const hit = absences.find((a) => a.fromDay <= day && day <= a.toDay);
    if (!hit) break;
    const wanted = Math.round((Date.parse(hit.toDay) - Date.parse(day)) / DAY) + 1;
    const allowance = Math.min(
      limits.perGameDays - used.game - moved,
      limits.perPlayerDays - (used.perPlayer.get(hit.playerId) ?? 0) - moved,
    );
    const step = Math.min(wanted, allowance);
    if (step <= 0) break;
    current = sameTimeDaysLater(current, timeZone, step);
    moved += step;
    who.add(hit.playerId);
  }
  return { deadline: current, movedDays: moved, for: [...who] };
}

/** The same wall-clock time `days` later in the zone (23 or 25 hours across a change). */
function sameTimeDaysLater(at: Date, timeZone: string, days: number): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day! + days, parts.hour!, parts.minute!);
  return new Date(zonedTimeToInstant(wall, timeZone));
}
