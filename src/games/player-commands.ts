// What a player's mail may say besides a sheet: STATUS (STATO), HELP (AIUTO) and
// ABSENCE <from> <to> (ASSENZA, D-ABS-1). A command is a mail's only line (a `Code:` line aside,
// D-PARSE-13); STATUS and HELP may also be the subject of an otherwise empty mail. Pure.
import { readAbsenceCommand, type AbsenceDays } from './absence.ts';

export type PlayerCommand =
  | { kind: 'help' }
  | { kind: 'status' }
  | { kind: 'absence'; days: AbsenceDays }
  /** An ABSENCE line whose dates cannot be read, or end before they start. */
  | { kind: 'absence-dates' };

const WORDS: Record<string, 'status' | 'help'> = { status: 'status', stato: 'status', help: 'help', aiuto: 'help' };

/**
 * The command a mail gives, or null when it is anything else (a sheet, chatter). `today`: YYYY-MM-DD,
 * for `1/4`, asked for only when a line may be an absence (working it out costs more than the rest).
 */
export function readPlayerCommand(text: string, subject: string | null, today: () => string): PlayerCommand | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !/^code\s*:/i.test(l));
  if (lines.length === 1) {
    const word = WORDS[lines[0]!.toLowerCase()];
    if (word) return { kind: word };
    const absence = readAbsenceCommand(lines[0]!, today);
    if (!absence) return null;
    return 'error' in absence ? { kind: 'absence-dates' } : { kind: 'absence', days: absence };
  }
  if (lines.length === 0 && subject) {
    // `Re: [SF andromeda] status code k7Q2`: the tag, the code and a reply prefix are not the command.
    const bare = subject.replace(/\[sf [^\]]*\]/gi, '').replace(/\bcode\s+\S+/i, '').replace(/^\s*(re|r|aw|fwd?|i)\s*:\s*/i, '').trim();
    const word = WORDS[bare.toLowerCase()];
    return word ? { kind: word } : null;
  }
  return null;
}
