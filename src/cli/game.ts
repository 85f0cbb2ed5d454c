// `sf game create|join|list|show`. Each runs one operation (src/control/operations.ts) through the
// running service or on the database directly; this module only reads the command line and
// prints the answer. Secrets travel by mail (the welcome mail); they are printed only with
// --show-secrets, for a referee who has to resend one.
import { formatInstant } from '../games/index.ts';
import { list, str, UsageError, wholeNumber, type Parsed } from './args.ts';
import { out, perform, type Group, type Leaf } from './command.ts';
import { inFlags, pressLine, scheduleLines, type GameView, type PlayerView } from './game-format.ts';
import { pressOptions, readPressFlags } from './press-flags.ts';
import { printableLine } from './terminal.ts';

const showSecrets = { help: 'also print each player’s secret and private orders address' };
const json = { help: 'print the answer as JSON' };

/** One value for everyone, or one per player in order. */
function perPlayer(name: string, values: string[] | undefined, count: number): string[] | undefined {
  if (!values) return undefined;
  if (values.length === 1) return Array<string>(count).fill(values[0]!);
  if (values.length !== count)
    throw new UsageError(`--${name} needs one value, or one per player (${count} players, ${values.length} values)`);
  return values;
}

function lang(name: string, v: string): 'it' | 'en' {
  if (v !== 'it' && v !== 'en') throw new UsageError(`--${name} must be it or en, not ${JSON.stringify(v)}`);
  return v;
}

function noPositionals(p: Parsed, command: string): void {
  if (p.positionals.length) throw new UsageError(`${command} takes no ${JSON.stringify(p.positionals[0])} (options start with --)`);
}

const playerLine = (p: PlayerView) =>
  `  ${p.faction.padEnd(12)} ${p.email}  (${p.lang}${p.timeZone ? `, ${p.timeZone}` : ''})${p.secret ? `  secret ${p.secret}  address ${p.address}` : ''}`;

const when = (iso: string | null, g: GameView) => (iso ? formatInstant(new Date(iso), g.timeZone, 'en') : '—');

const create: Leaf = {
  spec: {
    name: 'sf game create',
    summary: 'create a game: players, turn 1 and a welcome mail to each player',
    options: {
      name: { value: '<name>', help: 'the game’s name; its id (the [SF <id>] subject tag) is made from it', required: true },
      players: { value: '<a@x,b@y,…>', help: 'the players’ addresses, 4 to 8, in faction order (R-SETUP-1, R-SETUP-5)', required: true },
      tz: { value: '<zone>', help: 'the game’s time zone, an IANA name like Europe/Rome (not CET)', required: true },
      deadline: { value: '<day hh:mm>', help: 'the weekly deadline in that zone, like "sun 20:00"', required: true },
      lang: { value: '<it|en,…>', help: 'the players’ language: one for all, or one per player', default: 'en' },
      'player-tz': { value: '<zone,…>', help: 'zones the players read deadlines in: one, or one per player', default: 'the game’s' },
      'declare-lead': {
        value: '<minutes>',
        help: 'the Chancellor declares this many minutes before the deadline (R-TURN-3)',
        default: '1440 = 24 h',
      },
      reminders: { value: '<minutes,…>', help: 'reminder mails this many minutes before each deadline', default: '1440,120' },
      dispute: { value: '<minutes>', help: 'minutes after an edict during which players may dispute it', default: '1440 = 24 h' },
      victory: { value: '<planets>', help: 'planets that win the game', default: '12' },
      'last-turn': {
        value: '<turn>',
        help: 'the game’s last turn: at its end the most planets win (R-WIN-2)',
        default: 'none: play until a faction has the planets to win',
      },
      'nmr-hostility': { value: '<keep|none>', help: 'hostility of a faction that sends no orders', default: 'keep' },
      early: {
        value: '<minutes>',
        help: 'early processing: once every valid sheet is in, the turn closes this many minutes later (D-TURN-5)',
        default: 'off',
      },
      grace: { value: '<minutes>', help: 'sheets are still accepted this many minutes after the deadline (D-TURN-6)', default: '0' },
      'absence-days': { value: '<days>', help: 'days an absence (ABSENCE) may move deadlines, per player (D-ABS-1)', default: '14' },
      'absence-days-game': { value: '<days>', help: 'the same, for the whole game', default: '28' },
      // Press between players (docs/press.md §3); a referee changes them later with sf referee press.
      ...pressOptions('press-', true),
      'show-secrets': showSecrets,
      json,
    },
    notes: [
      'Turn 1 (the election) ends at the first weekly deadline at least 24 hours away.',
      'The --press-… options set what players may write to each other; messages to the referees are always allowed.',
    ],
    examples: [
      "sf game create --name 'Test Galaxy' --players ann@example.com,bob@example.com,cy@example.com,di@example.com --tz Europe/Rome --deadline 'sun 20:00'",
      "sf game create --name Andromeda --players a@x.it,b@y.it,c@z.it,d@w.it --lang it --tz Europe/Rome --deadline 'fri 21:30' --reminders 720",
      "sf game create --name Gagarin --players a@x.it,b@y.it,c@z.it,d@w.it --tz Europe/Rome --deadline 'sun 20:00' --press-mode signed --press-private no --press-open until-declaration",
    ],
  },
  async run(p) {
    noPositionals(p, 'sf game create');
    const emails = list(str(p, 'players')) ?? [];
    const langs = perPlayer('lang', list(str(p, 'lang')), emails.length)?.map((l) => lang('lang', l));
    const zones = perPlayer('player-tz', list(str(p, 'player-tz')), emails.length);
    const nmr = str(p, 'nmr-hostility');
    if (nmr !== undefined && nmr !== 'keep' && nmr !== 'none')
      throw new UsageError(`--nmr-hostility must be keep or none, not ${JSON.stringify(nmr)}`);
    const reminders = list(str(p, 'reminders'));
    const args = {
      name: str(p, 'name'),
      players: emails.map((email, i) => ({ email, lang: langs?.[i], timeZone: zones?.[i] })),
      timeZone: str(p, 'tz'),
      weeklyDeadline: str(p, 'deadline'),
      declarationLeadMinutes: wholeNumber('declare-lead', 'minutes', str(p, 'declare-lead')),
      reminderMinutes: reminders?.map((r) => wholeNumber('reminders', 'minutes', r)!),
      disputeWindowMinutes: wholeNumber('dispute', 'minutes', str(p, 'dispute')),
      victoryPlanets: wholeNumber('victory', 'planets', str(p, 'victory')),
      lastTurn: wholeNumber('last-turn', 'turns', str(p, 'last-turn')),
      nmrHostility: nmr,
      earlyProcessingMinutes: wholeNumber('early', 'minutes', str(p, 'early')),
      graceMinutes: wholeNumber('grace', 'minutes', str(p, 'grace')),
      absenceDaysPerPlayer: wholeNumber('absence-days', 'days', str(p, 'absence-days')),
      absenceDaysPerGame: wholeNumber('absence-days-game', 'days', str(p, 'absence-days-game')),
      press: readPressFlags(p, 'press-'),
      showSecrets: p.values['show-secrets'] === true,
    };
    const r = (await inFlags(perform('sf game create', 'game.create', args))) as {
      game: GameView;
      turn: { deadline: string };
      players: PlayerView[];
    };
    if (p.values.json) {
      out(JSON.stringify(r, null, 2));
      return 0;
    }
    out(
      [
        `created game ${r.game.id} (${printableLine(r.game.name)}), map ${r.game.map}`,
        `turn 1 (election) deadline: ${when(r.turn.deadline, r.game)}`,
        ...r.players.map(playerLine),
        `welcome mail queued for ${r.players.length} players`,
      ].join('\n'),
    );
    return 0;
  },
};

const join: Leaf = {
  spec: {
    name: 'sf game join',
    summary: 'add a late joiner: the next free faction, from the next turn (R-SETUP-4)',
    args: '<game> <email>',
    options: {
      lang: { value: '<it|en>', help: 'the player’s language', default: 'the game’s, if all its players share one; else en' },
      'player-name': { value: '<name>', help: 'the player’s name, for the referee' },
      'player-tz': { value: '<zone>', help: 'the zone the player reads deadlines in, like America/New_York', default: 'the game’s' },
      'show-secrets': showSecrets,
      json,
    },
    examples: ['sf game join test-galaxy eve@example.com --lang it --player-tz Europe/Rome'],
  },
  async run(p) {
    const [gameId, email, ...extra] = p.positionals;
    if (!gameId || !email || extra.length) throw new UsageError('give the game and the address: sf game join <game> <email>');
    const l = str(p, 'lang');
    const args = {
      gameId,
      email,
      lang: l === undefined ? undefined : lang('lang', l),
      name: str(p, 'player-name'),
      timeZone: str(p, 'player-tz'),
      showSecrets: p.values['show-secrets'] === true,
    };
    const r = (await inFlags(perform('sf game join', 'game.join', args), true)) as {
      game: GameView;
      firstDeadline: string;
      player: PlayerView;
    };
    if (p.values.json) {
      out(JSON.stringify(r, null, 2));
      return 0;
    }
    out(
      [
        `${r.player.email} joins ${r.game.id} as ${r.player.faction}, entering at turn ${r.player.joinedTurn} (R-SETUP-4)`,
        `first deadline: ${when(r.firstDeadline, r.game)}`,
        playerLine(r.player),
        'welcome mail queued',
      ].join('\n'),
    );
    return 0;
  },
};

const listGames: Leaf = {
  spec: { name: 'sf game list', summary: 'list the games: id, turn, deadline, players', options: { json }, examples: ['sf game list'] },
  async run(p) {
    noPositionals(p, 'sf game list');
    const games = (await perform('sf game list', 'game.list', {})) as Array<GameView & { players: number; deadline: string | null }>;
    if (p.values.json) {
      out(JSON.stringify(games, null, 2));
      return 0;
    }
    if (games.length === 0) {
      out('no games yet (sf game create --help shows how to make one)');
      return 0;
    }
    out(
      games
        .map(
          (g) =>
            `${g.id.padEnd(24)} ${g.status.padEnd(8)} turn ${String(g.currentTurn).padEnd(3)} ${g.players} players  deadline ${when(g.deadline, g)}`,
        )
        .join('\n'),
    );
    return 0;
  },
};

const show: Leaf = {
  spec: {
    name: 'sf game show',
    summary: 'one game: its settings, deadlines and players (faction, language, address)',
    args: '<game>',
    options: { 'show-secrets': showSecrets, json },
    examples: ['sf game show test-galaxy', 'sf game show test-galaxy --show-secrets'],
  },
  async run(p) {
    const [gameId, ...extra] = p.positionals;
    if (!gameId || extra.length) throw new UsageError('give one game: sf game show <game> (sf game list shows them)');
    const r = (await perform('sf game show', 'game.show', { gameId, showSecrets: p.values['show-secrets'] === true })) as {
      game: GameView;
      turns: Array<{ number: number; status: string; election: boolean; deadline: string; declarationDeadline: string }>;
      players: PlayerView[];
    };
    if (p.values.json) {
      out(JSON.stringify(r, null, 2));
      return 0;
    }
    const g = r.game;
    const current = r.turns.find((t) => t.number === g.currentTurn);
    out(
      [
        `${g.id} (${printableLine(g.name)}), map ${g.map}, ${g.status}`,
        `turn ${g.currentTurn}${current?.election ? ' (election)' : ''}, ${current?.status ?? 'no turn'}; deadline ${when(current?.deadline ?? null, g)}`,
        ...(current ? [`Chancellor declares by ${when(current.declarationDeadline, g)} (R-TURN-3)`] : []),
        ...scheduleLines(g),
        `victory at ${g.victoryPlanets} planets${g.lastTurn === null ? ', no last turn' : `, or the most planets at the end of turn ${g.lastTurn} (R-WIN-2)`}; hostility without orders: ${g.nmrHostility}`,
        ...(g.press ? [pressLine(g.press)] : []),
        `players (${r.players.length}):`,
        ...r.players.map((pl) => `${playerLine(pl)}${pl.joinedTurn > 1 ? `  from turn ${pl.joinedTurn}` : ''}`),
        ...(p.values['show-secrets'] ? [] : ['(secrets and private addresses: --show-secrets)']),
      ].join('\n'),
    );
    return 0;
  },
};

const observe: Leaf = {
  spec: {
    name: 'sf game observe',
    summary: 'add an observer: they get every edict of the game, with a one-click unsubscribe, and play no part',
    args: '<game> <email>',
    options: { lang: { value: '<it|en>', help: 'the language of their edicts', default: 'en' }, json },
    examples: ['sf game observe test-galaxy fan@example.org --lang it'],
  },
  async run(p) {
    if (p.positionals.length !== 2) throw new UsageError('give the game and the observer’s address: sf game observe <game> <email>');
    const [gameId, email] = p.positionals as [string, string];
    const l = str(p, 'lang');
    const r = (await perform('sf game observe', 'game.observe', {
      gameId,
      email,
      lang: l === undefined ? undefined : lang('lang', l),
    })) as { game: string; email: string };
    out(p.values.json ? JSON.stringify(r, null, 2) : `${r.email} now observes ${r.game}: every edict from the next one on`);
    return 0;
  },
};

export const group: Group = {
  name: 'sf game',
  summary: 'create, join, list, show and observe games',
  subs: { create, join, list: listGames, show, observe },
};
