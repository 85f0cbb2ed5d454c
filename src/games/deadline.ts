// Weekly deadlines are wall-clock times in the game's time zone ("Sunday 20:00 in Rome"), so the
// instant moves by an hour across daylight-saving changes. Pure: no clock, no I/O.

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

// Players and referees write Italian too; stored and shown canonically in English abbreviations.
const WEEKDAY_NAMES: Record<string, number> = {
  sun: 0,
  sunday: 0,
  dom: 0,
  domenica: 0,
  mon: 1,
  monday: 1,
  lun: 1,
  lunedi: 1,
  lunedì: 1,
  tue: 2,
  tuesday: 2,
  mar: 2,
  martedi: 2,
  martedì: 2,
  wed: 3,
  wednesday: 3,
  mer: 3,
  mercoledi: 3,
  mercoledì: 3,
  thu: 4,
  thursday: 4,
  gio: 4,
  giovedi: 4,
  giovedì: 4,
  fri: 5,
  friday: 5,
  ven: 5,
  venerdi: 5,
  venerdì: 5,
  sat: 6,
  saturday: 6,
  sab: 6,
  sabato: 6,
};

export interface Weekly {
  /** 0 = Sunday, as Date#getUTCDay. */
  weekday: number;
  hour: number;
  minute: number;
}

/** Reads `sun 20:00` (also `Sunday 8:00`, `dom 20.00`); null when it is not such a time. */
export function parseWeekly(text: string): Weekly | null {
  const m = /^\s*(\p{L}+)\s+(\d{1,2})[:.](\d{2})\s*$/u.exec(text);
  if (!m) return null;
  const weekday = WEEKDAY_NAMES[m[1]!.toLowerCase()];
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  if (weekday === undefined || hour > 23 || minute > 59) return null;
  return { weekday, hour, minute };
}

/** Canonical spelling, as stored: `sun 20:00`. */
export function formatWeekly(w: Weekly): string {
  return `${WEEKDAYS[w.weekday]} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock time in tz at an instant, as milliseconds of a UTC date with the same fields. */
function wallMs(instant: number, tz: string): number {
  const p: Record<string, number> = {};
  for (const part of wallFormatter(tz).formatToParts(instant)) p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** Offset of tz from UTC at an instant, in ms (Rome in summer: +2h). Whole seconds only. */
function offsetMs(instant: number, tz: string): number {
  return wallMs(instant - (instant % 1000), tz) - (instant - (instant % 1000));
}

/**
 * The instant a wall-clock time happens in tz. Across a change it behaves as Temporal's
 * "compatible" choice: a time that happens twice (autumn) is the first one; a time that does not
 * happen (spring, 02:30 in Rome) is pushed forward by the gap (03:30 summer time).
 */
export function zonedTimeToInstant(wall: number, tz: string): number {
  // Offsets a day either side are those before and after any change near this time.
  const before = offsetMs(wall - 86_400_000, tz);
  const after = offsetMs(wall + 86_400_000, tz);
  const fits = [before, after].map((o) => wall - o).filter((t) => offsetMs(t, tz) === wall - t);
  if (fits.length > 0) return Math.min(...fits);
  return wall - before;
}

/** The latest instant at or before `at` when the clocks of `timeZone` read `hour:minute` (the digest's 07:00). */
export function latestDailyTime(at: Date, hour: number, minute: number, timeZone: string): Date {
  const today = new Date(wallMs(at.getTime(), timeZone));
  const dayStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  // Today's, else yesterday's (a day without that time, across a change, sends to the day before).
  for (const back of [0, 1, 2]) {
    const instant = zonedTimeToInstant(dayStart - back * 86_400_000 + (hour * 60 + minute) * 60_000, timeZone);
    if (instant <= at.getTime()) return new Date(instant);
  }
  throw new Error('unreachable: a daily time always came within two days');
}

/**
 * The first weekly deadline strictly after `after`: the next time it is `weekly` (`sun 20:00`)
 * on the clocks of `timeZone`.
 */
export function nextWeeklyDeadline(after: Date, weekly: string, timeZone: string): Date {
  const w = parseWeekly(weekly);
  if (!w) throw new RangeError(`not a weekly time: ${JSON.stringify(weekly)} (write it like "sun 20:00")`);
  if (!isTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${JSON.stringify(timeZone)}`);
  const now = wallMs(after.getTime(), timeZone);
  const today = new Date(now);
  const dayStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const daysAhead = (w.weekday - today.getUTCDay() + 7) % 7;
  // This week's candidate may already be past (or be now): then next week's. Two tries suffice.
  for (const extra of [0, 7]) {
    const wall = dayStart + (daysAhead + extra) * 86_400_000 + (w.hour * 60 + w.minute) * 60_000;
    const instant = zonedTimeToInstant(wall, timeZone);
    if (instant > after.getTime()) return new Date(instant);
  }
  throw new Error('unreachable: a weekly time always comes within two weeks');
}
