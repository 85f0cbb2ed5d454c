// A length of time as a reader says it: "1 minute", "90 minutes", "2 hours", "1 day" (whole hours
// and days only when they are whole: "90 minutes", never "1.5 hours"); a weekly time on the
// reader's own words ("every Sunday at 20:00"). For the public pages and the CLI, which otherwise
// printed "1 minutes" and "1440 minutes".
import type { Lang } from '../adjudicator/types.ts';
import { defineTexts } from './define.ts';
import { LOCALE } from './locale.ts';

const units = defineTexts({
  it: {
    minutes: (n: number) => (n === 1 ? '1 minuto' : `${n} minuti`),
    hours: (n: number) => (n === 1 ? '1 ora' : `${n} ore`),
    days: (n: number) => (n === 1 ? '1 giorno' : `${n} giorni`),
    weekly: (day: string, time: string) => `ogni ${day} alle ${time}`,
  },
  en: {
    minutes: (n) => (n === 1 ? '1 minute' : `${n} minutes`),
    hours: (n) => (n === 1 ? '1 hour' : `${n} hours`),
    days: (n) => (n === 1 ? '1 day' : `${n} days`),
    weekly: (day, time) => `every ${day} at ${time}`,
  },
});

export function duration(lang: Lang, minutes: number): string {
  const u = units[lang];
  // A week or more stays in days; 24 hours and 48 hours read better as hours (the rules speak so, D-TURN-7).
  if (minutes > 0 && minutes % 1440 === 0 && minutes >= 7 * 1440) return u.days(minutes / 1440);
  if (minutes > 0 && minutes % 60 === 0) return u.hours(minutes / 60);
  return u.minutes(minutes);
}

/** `sun 20:00` (the stored spelling, src/games/deadline.ts) as "every Sunday at 20:00"; the stored text when it is not one. */
export function weeklyInWords(lang: Lang, weekly: string): string {
  const m = /^([a-z]{3}) (\d\d:\d\d)$/.exec(weekly);
  const day = m ? WEEKDAYS.indexOf(m[1]!) : -1;
  if (!m || day < 0) return weekly;
  // 2023-01-01 was a Sunday: the weekday's name in the language from Intl, not from a table here.
  const name = new Intl.DateTimeFormat(LOCALE[lang], { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2023, 0, 1 + day)));
  return weeklyAt(lang, name, m[2]!);
}

/** A weekly time from a weekday's name in the language and a time: "every Monday at 04:00". */
export function weeklyAt(lang: Lang, day: string, time: string): string {
  return units[lang].weekly(day, time);
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
