// Instants as a player reads them: in their time zone and language, with the zone named.
import type { Lang } from '../adjudicator/types.ts';
import { LOCALE } from '../text/locale.ts';

// Building an Intl.DateTimeFormat costs more than parsing a mail: one per language and zone.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string, lang: Lang): Intl.DateTimeFormat {
  const key = `${lang} ${timeZone}`;
  let fmt = formats.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(LOCALE[lang], {
      timeZone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formats.set(key, fmt);
  }
  return fmt;
}

export function formatInstant(at: Date, timeZone: string, lang: Lang): string {
  return `${formatFor(timeZone, lang).format(at)} (${timeZone})`;
}
