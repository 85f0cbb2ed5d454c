// Instants as a player reads them: in their time zone and language, with the zone named.
import type { Lang } from '../adjudicator/types.ts';

export function formatInstant(at: Date, timeZone: string, lang: Lang): string {
  const fmt = new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : 'en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return `${fmt.format(at)} (${timeZone})`;
}
