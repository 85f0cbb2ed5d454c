// Mail that is not a sheet, answered once (D-MAIL-24): an out-of-office reply with none of the
// headers that mark automatic mail answers our answer, and we would answer it again, up to the
// hourly limit, for ever. So the answers to mail that is not a sheet (chatter, a mail we
// cannot read, a refusal) carry a key made of the sender and a fingerprint of what they wrote:
// the same sender writing the same thing again within the day is not answered again. Humans
// rarely write the same words twice in a day; robots always do.
import { hash } from 'node:crypto';

/** Letters that make a fingerprint: more would only cost time. */
const FINGERPRINT_LETTERS = 4_000;

/** What is not a letter: dropped from a fingerprint. */
const NOT_LETTERS = /\P{L}+/gu;

/**
 * What a text says, ignoring what robots vary: case, digits (dates, counters), spaces and
 * punctuation. Linear: one pass over at most a few thousand characters, by one regular expression
 * rather than one per character: every mail's key is taken, hostile ones too.
 */
export function fingerprint(text: string): string {
  const letters = text
    .slice(0, FINGERPRINT_LETTERS * 4)
    .toLowerCase()
    .replace(NOT_LETTERS, '');
  // The first FINGERPRINT_LETTERS letters, a surrogate pair kept whole at the cut.
  const high = letters.charCodeAt(FINGERPRINT_LETTERS - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? FINGERPRINT_LETTERS + 1 : FINGERPRINT_LETTERS;
  return hash('sha256', letters.slice(0, end), 'hex').slice(0, 24);
}

/**
 * The outbox dedupe key of an answer to non-sheet mail: one per sender, text and day (UTC), from
 * the text's fingerprint (taken while the mail is read, read-mails.ts). The subject does not
 * count: an out-of-office reply's grows by a prefix at every round.
 */
export function echoKey(from: string | null, print: string, now: Date): string | null {
  if (!from) return null;
  // Hashed with the address: an index key must stay short whatever the sender wrote.
  const who = hash('sha256', `${from.trim().toLowerCase()}\u0000${print}`, 'hex').slice(0, 32);
  return `echo:${who}:${now.toISOString().slice(0, 10)}`;
}
