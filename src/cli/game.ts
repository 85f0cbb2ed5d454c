// `sf game create …` and `sf game join <game> <email>`. Secrets travel by mail only (the welcome
// mail); the summary shows them only with --show-secrets, for a referee who has to resend one.
import { userInfo } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createGame, GameError, joinGame, type GamesContext } from '../games/index.ts';
import { formatInstant } from '../games/time-format.ts';
import type { Player } from '../db/players.ts';

const USAGE = `usage:
  sf game create --name <name> --players a@x,b@y,c@z,d@w [--lang it,en,it,it] [--player-tz <zones>]
                 --tz Europe/Rome --deadline 'sun 20:00' [--declare-lead 1440] [--reminders 1440,120]
                 [--dispute 1440] [--victory 12] [--nmr-hostility keep|none] [--show-secrets]
  sf game join <game> <email> [--lang it] [--name <name>] [--tz <zone>] [--show-secrets]`;

class UsageError extends Error {}

const list = (v: string | undefined): string[] | undefined =>
  v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter((s) => s !== '');

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim())) throw new UsageError(`--${name} must be a whole number, not ${JSON.stringify(v)}`);
  return Number(v);
}

/** One value for everyone, or one per player in order. */
function perPlayer<T extends string>(name: string, values: string[] | undefined, count: number): T[] | undefined {
  if (!values) return undefined;
  if (values.length === 1) return Array<T>(count).fill(values[0] as T);
  if (values.length !== count) throw new UsageError(`--${name} needs one value, or one per player (${count})`);
  return values as T[];
}

function parse<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
}

function context(domain: string, ordersLocalPart: string): GamesContext {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the audit row still says it came from the CLI.
  }
  return { actor: `cli:${user}`, mail: { domain, ordersLocalPart } };
}

// The service names its input fields; a CLI user knows the flags.
const FLAGS: Record<string, string> = {
  name: '--name',
  players: '--players',
  timeZone: '--tz',
  weeklyDeadline: '--deadline',
  declarationLeadMinutes: '--declare-lead',
  reminderMinutes: '--reminders',
  disputeWindowMinutes: '--dispute',
  victoryPlanets: '--victory',
  nmrHostility: '--nmr-hostility',
};

/** `players.3.email: is not …` → `--players (player 4): is not …`. */
function inFlags(err: GameError): string {
  if (!err.field) return err.message;
  const [top, index, sub] = err.field.split('.');
  const flag = top === 'players' && sub === 'lang' ? '--lang' : top === 'players' && sub === 'timeZone' ? '--player-tz' : FLAGS[top!] ?? top;
  const which = top === 'players' && index !== undefined ? ` (player ${Number(index) + 1})` : '';
  return `${flag}${which}: ${err.message.slice(err.field.length + 2)}`;
}

const playerLine = (p: Player, showSecrets: boolean) =>
  `  ${p.faction.padEnd(12)} ${p.email}  (${p.lang})${showSecrets ? `  secret ${p.secret}` : ''}`;

async function create(args: string[]): Promise<string> {
  const { values: v, positionals } = parse(args, {
    name: { type: 'string' },
    players: { type: 'string' },
    lang: { type: 'string' },
    'player-tz': { type: 'string' },
    tz: { type: 'string' },
    deadline: { type: 'string' },
    'declare-lead': { type: 'string' },
    reminders: { type: 'string' },
    dispute: { type: 'string' },
    victory: { type: 'string' },
    'nmr-hostility': { type: 'string' },
    'show-secrets': { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}`);
  for (const required of ['name', 'players', 'tz', 'deadline'] as const)
    if (typeof v[required] !== 'string') throw new UsageError(`--${required} is required`);
  const emails = list(v.players)!;
  const langs = perPlayer<'it' | 'en'>('lang', list(v.lang), emails.length);
  const zones = perPlayer('player-tz', list(v['player-tz']), emails.length);
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const { game, turn, players } = await createGame(
      database.db,
      {
        name: v.name!,
        players: emails.map((email, i) => ({ email, lang: langs?.[i], timeZone: zones?.[i] })),
        timeZone: v.tz!,
        weeklyDeadline: v.deadline!,
        declarationLeadMinutes: int('declare-lead', v['declare-lead']),
        reminderMinutes: list(v.reminders)?.map((r) => int('reminders', r)!),
        disputeWindowMinutes: int('dispute', v.dispute),
        victoryPlanets: int('victory', v.victory),
        nmrHostility: v['nmr-hostility'] as 'keep' | 'none' | undefined,
      },
      context(config.mail.domain, config.mail.ordersLocalPart),
    );
    return [
      `created game ${game.id} (${game.name}), map ${game.map}`,
      `turn 1 (election) deadline: ${formatInstant(turn.deadline, game.timeZone, 'en')}`,
      ...players.map((p) => playerLine(p, v['show-secrets'] === true)),
      `welcome mail queued for ${players.length} players`,
    ].join('\n');
  } finally {
    await database.close();
  }
}

async function join(args: string[]): Promise<string> {
  const { values: v, positionals } = parse(args, {
    lang: { type: 'string' },
    name: { type: 'string' },
    tz: { type: 'string' },
    'show-secrets': { type: 'boolean' },
  });
  const [gameId, email, ...extra] = positionals;
  if (!gameId || !email || extra.length) throw new UsageError('give the game and the address: sf game join <game> <email>');
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const { game, player, firstDeadline } = await joinGame(
      database.db,
      { gameId, email, lang: v.lang as 'it' | 'en' | undefined, name: v.name, timeZone: v.tz },
      context(config.mail.domain, config.mail.ordersLocalPart),
    );
    return [
      `${player.email} joins ${game.id} as ${player.faction}, entering at turn ${player.joinedTurn} (R-SETUP-4)`,
      `first deadline: ${formatInstant(firstDeadline, game.timeZone, 'en')}`,
      playerLine(player, v['show-secrets'] === true),
      'welcome mail queued',
    ].join('\n');
  } finally {
    await database.close();
  }
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    const summary = sub === 'create' ? await create(rest) : sub === 'join' ? await join(rest) : null;
    if (summary === null) {
      process.stderr.write(`${USAGE}\n`);
      return sub === undefined || sub === 'help' || sub === '--help' ? 0 : 2;
    }
    process.stdout.write(`${summary}\n`);
    return 0;
  } catch (err) {
    if (err instanceof GameError) {
      process.stderr.write(`sf game: ${inFlags(err)}\n`);
      return 2;
    }
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`sf game: ${err.message}\n`);
      return 2;
    }
    // Anything else (the database is down…): still one line, but a different status.
    process.stderr.write(`sf game: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    return 1;
  }
}
