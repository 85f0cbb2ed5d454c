// The subjects auto-responders write (D-MAIL-37): some vacation and out-of-office replies
// carry no marking header at all, only a subject in the words of the program and its language —
// Outlook's "Automatic reply: …" / "Risposta automatica: …", a Sieve vacation's "Auto: …". Read
// at the start of the subject only: a person's "Re: the absence of the fleet" is never one.

/**
 * Phrases that name an automatic reply in so many words: a person does not title their own mail
 * so. Folded (lower case, accents off); each must end a word (`Autoreply:`, not `Autoreplying`).
 */
const NAMES_AN_AUTO_REPLY = new RegExp(
  '^(?:' +
    [
      'auto:', // RFC 5230 §5.4, the Sieve vacation's default: "Auto: " and the original subject
      'auto[- ]?(?:reply|replied|response|responder)',
      'automatic (?:reply|response)',
      'automated (?:reply|response)',
      'out of (?:the )?office (?:auto[- ]?reply|reply|response)',
      'vacation (?:auto[- ]?reply|reply|response)',
      'risposta automatica',
      'reponse automatique',
      'automatische antwort',
      'abwesenheitsnotiz',
      'respuesta automatica',
      'resposta automatica',
      'automatisch antwoord',
      'automatisk svar',
      'autosvar',
    ].join('|') +
    ')(?![\\p{L}\\p{N}])',
  'u',
);

/**
 * Words a person may well put first in a subject about their own absence ("Absence", "Vacation",
 * "Fuori sede" above an ABSENCE command, D-ABS-1): a sign only as an auto-responder writes them,
 * a label and a colon before the subject of one of our mails, which all carry `[SF …]`.
 */
const ABSENCE_LABEL =
  /^(?:out of (?:the )?office|fuori (?:sede|ufficio)|assente|assenza|absent|absence(?: du bureau)?|abwesend|abwesenheit|vacation|vacances|urlaub)\s*:.*\[sf\s/u;

/** A player's own tag and code (`[SF andromeda] code k7Q2-x9Pm`, MAIL.md): no subject of ours holds one. */
const TAG_AND_CODE = /\[sf [^\]]*\]\s*code\s/;

/** A subject folded for the tests above: accents, case, format characters and runs of spaces. */
function folded(subject: string): string {
  return subject
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Whether a subject is the one an auto-responder writes (the subject decoded, RFC 2047). */
export function autoReplySubject(subject: string): boolean {
  // A subject is short; a long one is looked at only as far as any of these could reach.
  const s = folded(subject.slice(0, 400));
  return NAMES_AN_AUTO_REPLY.test(s) || (ABSENCE_LABEL.test(s) && !TAG_AND_CODE.test(s));
}
