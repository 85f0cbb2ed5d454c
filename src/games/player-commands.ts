// What a player's mail may say besides a sheet: STATUS (STATO), HELP (AIUTO),
// ABSENCE <from> <to> (ASSENZA, D-ABS-1) and the press commands MUTE, UNMUTE, DIGEST, IMMEDIATE
// (SILENZIA, RIATTIVA, RIEPILOGO, SUBITO: press-commands.ts, D-PRESS-11). A command is a mail's only line (a `Code:` line aside,
// D-PARSE-13); STATUS and HELP may also be the subject of an otherwise empty mail. Pure.
import type { Problem } from '../adjudicator/types.ts';
import { inBoth } from '../text/define.ts';
import { replyTexts } from '../text/replies.ts';
import { readAbsenceCommand, type AbsenceDays } from './absence.ts';
import { readPressCommand, type PressCommand } from './press/press-commands.ts';
import type { PressFaction } from './press/read-press.ts';

export type PlayerCommand =
  | { kind: 'help' }
  | { kind: 'status' }
  | { kind: 'absence'; days: AbsenceDays }
  /** An ABSENCE line whose dates cannot be read, or end before they start. */
  | { kind: 'absence-dates' }
  /** MUTE / UNMUTE / DIGEST / IMMEDIATE, or a MUTE of something that is no faction. */
  | { kind: 'press'; command: PressCommand };

const WORDS: Record<string, 'status' | 'help'> = { status: 'status', stato: 'status', help: 'help', aiuto: 'help' };

/**
 * The command a mail gives, or null when it is anything else (a sheet, chatter). `today`: YYYY-MM-DD,
 * for `1/4`, asked for only when a line may be an absence (working it out costs more than the rest).
 * `factions`: the game's, for MUTE <faction>; without them the press commands are not read.
 */
export function readPlayerCommand(
  text: string,
  subject: string | null,
  today: () => string,
  factions?: readonly PressFaction[],
): PlayerCommand | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^code\s*:/i.test(l));
  if (lines.length === 1) {
    const word = WORDS[lines[0]!.toLowerCase()];
    if (word) return { kind: word };
    const press = factions ? readPressCommand(lines[0]!, factions) : null;
    if (press) return { kind: 'press', command: press };
    const absence = readAbsenceCommand(lines[0]!, today);
    if (!absence) return null;
    return 'error' in absence ? { kind: 'absence-dates' } : { kind: 'absence', days: absence };
  }
  if (lines.length === 0 && subject) {
    // `Re: [SF andromeda] status code k7Q2`: the tag, the code and a reply prefix are not the command.
    const bare = subject
      .replace(/\[sf [^\]]*\]/gi, '')
      .replace(/\bcode\s+\S+/i, '')
      .replace(/^\s*(re|r|aw|fwd?|i)\s*:\s*/i, '')
      .trim();
    const word = WORDS[bare.toLowerCase()];
    return word ? { kind: word } : null;
  }
  return null;
}

/**
 * An ABSENCE line among orders is not recorded (a command is a mail's only line): the problem the
 * sheet's reader found on that line says instead exactly how to send it. Other problems unchanged.
 */
export function explainAbsenceLines(text: string, problems: Problem[]): Problem[] {
  if (!/\b(absence|assenza)\b/i.test(text)) return problems;
  const lines = text.split(/\r?\n/);
  return problems.map((p) => {
    const line = p.line > 0 ? lines[p.line - 1]?.trim() : undefined;
    if (!line || !/^(absence|assenza)\b/i.test(line)) return p;
    return { ...p, message: inBoth(replyTexts, (t) => t.absenceInSheet(p.line, line)) };
  });
}
