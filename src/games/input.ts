// What a person gives to create or join a game, validated in one place with zod.
import { z } from 'zod';
import { classicMap, type Board } from '../adjudicator/map.ts';
import { formatWeekly, isTimeZone, parseWeekly } from './deadline.ts';
import { GameError } from './errors.ts';
import { pressSettingsInput } from './press/settings.ts';
import { lineProblem } from '../text/typed-text.ts';

const WEEK_MINUTES = 7 * 24 * 60;

/** `Andròmeda 2025!` → `andromeda-2025`: also the `[SF <game>]` subject tag, so short and plain. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
}

/** A value quoted in an error as typed: bare when plain (Mars/Olympus), in quotes otherwise ("sun 25:00"). */
const shown = (v: unknown): string => (typeof v === 'string' && /^[\w/+:.@-]+$/.test(v) ? v : JSON.stringify(v));

const canonicalZone = (tz: string) => new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;

/**
 * The canonical spelling of a valid IANA zone (`europe/rome` → `Europe/Rome`). An alias that names
 * another zone (`CET` → Europe/Brussels, `US/Eastern`) is refused, saying which: silently storing
 * another zone than the one written would surprise the referee.
 */
const timeZone = z
  .string()
  .trim()
  .superRefine((tz, ctx) => {
    if (!isTimeZone(tz)) ctx.addIssue({ code: 'custom', message: `${shown(tz)} is not a time zone (write it like Europe/Rome)` });
    else if (canonicalZone(tz).toLowerCase() !== tz.toLowerCase())
      ctx.addIssue({
        code: 'custom',
        message: `${tz} is another name for ${canonicalZone(tz)}: write that, or your own city's zone (like Europe/Rome)`,
      });
  })
  .transform(canonicalZone);

/** A name shown to others (D-INPUT-1): one line of text, without controls or direction overrides. */
const typedName = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `may have at most ${max} characters`)
    .superRefine((s, ctx) => {
      const problem = lineProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const lang = z.enum(['it', 'en'], 'must be it or en');
const email = z
  .string()
  .trim()
  .pipe(z.email({ error: (issue) => `${shown(issue.input)} is not an e-mail address` }))
  .transform((e) => e.toLowerCase());
const minutes = (min: number, max = WEEK_MINUTES - 1) =>
  z
    .number('must be a number of minutes')
    .int('must be a whole number of minutes')
    .min(min, `must be at least ${min} minute${min === 1 ? '' : 's'}`)
    .max(max, `must be less than a week (${max + 1} minutes)`);

export const playerInput = z.object({
  email,
  // English unless the game says otherwise: the README and the CLI are in English.
  lang: lang.default('en'),
  name: typedName(100).optional(),
  /** Deadlines in this player's mail are shown in this zone; the game's when absent. */
  timeZone: timeZone.optional(),
});
export type PlayerInput = z.input<typeof playerInput>;

export const createGameInput = z
  .object({
    name: typedName(80),
    map: z.literal('classic', { error: 'the only map is "classic"' }).default('classic'),
    /** In R-SETUP-1 order: the first plays the first faction, and so on. R-SETUP-5: at least 4. */
    players: z.array(playerInput).min(4, 'a game needs at least 4 players (R-SETUP-5)'),
    timeZone,
    weeklyDeadline: z
      .string()
      .superRefine((t, ctx) => {
        if (parseWeekly(t) === null)
          ctx.addIssue({ code: 'custom', message: `${shown(t)} is not a weekly time (write it like "sun 20:00")` });
      })
      .transform((t) => formatWeekly(parseWeekly(t)!)),
    declarationLeadMinutes: minutes(0).default(1440),
    reminderMinutes: z
      .array(minutes(1))
      .default([1440, 120])
      .transform((r) => [...new Set(r)].sort((a, b) => b - a)),
    disputeWindowMinutes: minutes(0).default(1440),
    /** Early processing: the turn closes this long after every valid sheet is in; null (default) = off. */
    earlyProcessingMinutes: minutes(0).nullable().default(null),
    /** Sheets are still accepted this long after the deadline. */
    graceMinutes: minutes(0).default(0),
    absenceDaysPerPlayer: z.number('must be a number of days').int('must be a whole number of days').min(0).max(365).default(14),
    absenceDaysPerGame: z.number('must be a number of days').int('must be a whole number of days').min(0).max(730).default(28),
    victoryPlanets: z.number('must be a number of planets').int('must be a whole number').min(1, 'must be at least 1').default(12),
    /** R-WIN-2: the game's last turn; null (default): play until R-WIN-1. */
    lastTurn: z
      .number('must be a turn number')
      .int('must be a whole number')
      .min(2, 'must be 2 or later: turn 1 is only the election')
      .nullable()
      .default(null),
    nmrHostility: z.enum(['keep', 'none'], 'must be keep or none').default('keep'),
    /** Press between players (docs/press.md §3): any setting left out takes its default. */
    press: pressSettingsInput.prefault({}),
  })
  .superRefine((g, ctx) => {
    const seen = new Set<string>();
    g.players.forEach((p, i) => {
      if (seen.has(p.email)) ctx.addIssue({ code: 'custom', path: ['players', i, 'email'], message: `${p.email} is listed twice` });
      seen.add(p.email);
    });
    if (slugify(g.name) === '') ctx.addIssue({ code: 'custom', path: ['name'], message: 'needs a letter or a digit' });
  });
export type CreateGameInput = z.input<typeof createGameInput>;
export type CreateGame = z.output<typeof createGameInput>;

export const joinGameInput = playerInput.extend({ gameId: z.string().trim().min(1) });
export type JoinGameInput = z.input<typeof joinGameInput>;

/** Parses or throws a GameError whose message names the field: `players.4.email: is not …`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new GameError('invalid-input', `${field ? `${field}: ` : ''}${issue.message}`, field || undefined);
}

/** The board a game is played on (R-BOARD-5: maps are data; only the classic map exists yet). */
export function boardFor(mapId: string): Board {
  if (mapId === 'classic') return classicMap();
  throw new GameError('unknown-map', `unknown map ${JSON.stringify(mapId)}`);
}
