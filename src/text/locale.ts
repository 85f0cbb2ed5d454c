// The Intl locale each language is formatted in (dates, weekday names).
import type { Lang } from '../adjudicator/types.ts';

export const LOCALE: Readonly<Record<Lang, string>> = { it: 'it-IT', en: 'en-GB' };
