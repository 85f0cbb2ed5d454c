// Instants as a player reads them: in their time zone and language, with the zone named.
import type { Lang } from '../adjudicator/types.ts';
import { LOCALE } from '../text/locale.ts';

/** What an instant shows: down to the minute, never the seconds (formatInstant's memo keys by minute). */
export const INSTANT_FIELDS: Readonly<Intl.DateTimeFormatOptions> = {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
};

// Building an Intl.DateTimeFormat costs more than parsing a mail: one per language and zone.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string, lang: Lang): Intl.DateTimeFormat {
  const key = `${lang} ${timeZone}`;
  let fmt = formats.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(LOCALE[lang], { ...INSTANT_FIELDS, timeZone });
    formats.set(key, fmt);
  }
  return fmt;
}

const formatted = (at: Date, timeZone: string, lang: Lang) => `${formatFor(timeZone, lang).format(at)} (${timeZone})`;

// Formatting costs microseconds and intake words the same instants again and again (a turn's
// deadlines in every acknowledgement, mail received within the same minute): up to 512 texts are
// remembered, by the minute, which is all the text shows, and forgotten all at once when full.
// Every zone's offset has been a whole number of minutes since 1972 (Liberia's -0:44:30 was the
// last); earlier instants are not memoised.
const MEMO_SIZE = 512;
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1973, 0, 1);
const memo = new Map<string, string>();

export function formatInstant(at: Date, timeZone: string, lang: Lang): string {
  const ms = at.getTime();
  if (!(ms >= WHOLE_MINUTE_OFFSETS_SINCE)) return formatted(at, timeZone, lang);
  const key = `${lang} ${timeZone} ${Math.floor(ms / 60_000)}`;
  let text = memo.get(key);
  if (text === undefined) {
    text = formatted(at, timeZone, lang);
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(key, text);
  }
  return text;
}
