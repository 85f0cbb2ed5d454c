// What `sf game …` receives from its operations (plain JSON), and how an error about an input
// field is said in terms of the command's flags.
import { OperationError } from '../control/operations.ts';
import type { PressSettings } from '../games/index.ts';
import { pressFlagOf } from './press-flags.ts';
import { duration } from '../text/duration.ts';

export interface GameView {
  id: string;
  name: string;
  map: string;
  status: string;
  currentTurn: number;
  timeZone: string;
  weeklyDeadline: string;
  declarationLeadMinutes: number;
  reminderMinutes: number[];
  disputeWindowMinutes: number;
  earlyProcessingMinutes: number | null;
  graceMinutes: number;
  absenceDaysPerPlayer: number;
  absenceDaysPerGame: number;
  victoryPlanets: number;
  lastTurn: number | null;
  nmrHostility: string;
  /** Absent from a service older than the command. */
  press?: PressSettings;
}

/** The press settings in the words of their flags, as `sf game show` prints them. */
export function pressLine(s: PressSettings): string {
  return `press: mode ${s.mode}, private ${s.private ? 'yes' : 'no'}, open ${s.open}, observers ${s.observers}, reveal ${s.reveal}, at most ${s.maxChars} characters and ${s.perHour} messages an hour`;
}

/** Every schedule setting of a game, as `sf game show` prints them. */
export function scheduleLines(g: GameView): string[] {
  // "1 minute", "24 hours": never "1 minutes" or "1440 minutes" (the weekly time keeps the flag's spelling).
  const d = (minutes: number) => duration('en', minutes);
  return [
    `weekly deadline ${g.weeklyDeadline} (${g.timeZone}); the Chancellor declares ${d(g.declarationLeadMinutes)} before (R-TURN-3)`,
    `reminders ${g.reminderMinutes.length ? `${g.reminderMinutes.map(d).join(', ')} before` : 'none'}; disputes within ${d(g.disputeWindowMinutes)}`,
    g.earlyProcessingMinutes === null
      ? 'early processing: off'
      : `early processing: ${d(g.earlyProcessingMinutes)} after every sheet is in and valid (D-TURN-5); the next deadline then at least 48 hours after (D-TURN-7)`,
    `grace period: ${g.graceMinutes ? `${d(g.graceMinutes)} after the deadline (D-TURN-6)` : 'none'}`,
    `absences: a deadline moves at most ${g.absenceDaysPerPlayer} days per player, ${g.absenceDaysPerGame} days per game (D-ABS-1)`,
  ];
}

export interface PlayerView {
  faction: string;
  email: string;
  lang: string;
  timeZone: string | null;
  joinedTurn: number;
  secret?: string;
  address?: string;
}

// The games service names its input fields; a CLI user knows the flags.
const FLAGS: Record<string, string> = {
  name: '--name',
  players: '--players',
  timeZone: '--tz',
  weeklyDeadline: '--deadline',
  declarationLeadMinutes: '--declare-lead',
  reminderMinutes: '--reminders',
  disputeWindowMinutes: '--dispute',
  victoryPlanets: '--victory',
  lastTurn: '--last-turn',
  nmrHostility: '--nmr-hostility',
  earlyProcessingMinutes: '--early',
  graceMinutes: '--grace',
  absenceDaysPerPlayer: '--absence-days',
  absenceDaysPerGame: '--absence-days-game',
  // sf game join
  email: '<email>',
  gameId: '<game>',
  lang: '--lang',
};
const PLAYER_FLAGS: Record<string, string> = { email: '--players', lang: '--lang', timeZone: '--player-tz', name: '--player-name' };

// Messages from zod's built-in checks, said for a person.
const PLAIN: Array<[RegExp, string]> = [
  [/^Too small: expected string to have >=1 characters?$/, 'must not be empty'],
  [/^Too big: expected string to have <=(\d+) characters$/, 'must be at most $1 characters'],
];

/** `players.3.email: is not …` → `--players (player 4): is not …`; join's `timeZone` → `--player-tz`. */
export function inFlagTerms(err: OperationError, joining: boolean): string {
  if (!err.field) return err.message;
  const [top, index, sub] = err.field.split('.');
  const flag =
    pressFlagOf(err.field, 'press-') ??
    (top === 'players' && sub
      ? (PLAYER_FLAGS[sub] ?? '--players')
      : joining && top !== 'gameId' && top !== 'email'
        ? (PLAYER_FLAGS[top!] ?? FLAGS[top!])
        : FLAGS[top!]);
  const which = top === 'players' && index !== undefined ? ` (player ${Number(index) + 1})` : '';
  let message = err.message.startsWith(`${err.field}: `) ? err.message.slice(err.field.length + 2) : err.message;
  for (const [re, plain] of PLAIN) message = message.replace(re, plain);
  return `${flag ?? top}${which}: ${message}`;
}

/** Awaits an operation, rewording a field error in flag terms. */
export async function inFlags<T>(answer: Promise<T>, joining = false): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof OperationError && err.field) throw new OperationError(err.code, inFlagTerms(err, joining), err.field);
    throw err;
  }
}
