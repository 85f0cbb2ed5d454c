// The operations an `sf` command can ask of the database, in one registry used by both paths:
// sent over the control socket to the running service, or run in the command's own process when
// it holds the database (see run-operation.ts). Same code, same validation, same answers.
import { z } from 'zod';
import { addObserver } from '../db/observers.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { findGame, listGames, type Game } from '../db/games.ts';
import { listOutbox, type OutboxMail } from '../db/outbox.ts';
import { listPlayers, type Player } from '../db/players.ts';
import { listTurns } from '../db/turns.ts';
import { AppError, noSuchGame } from '../errors.ts';
import { actionInputs, createGame, GameError, joinGame, pressSettingsOf, privateAddress, replayTurns } from '../games/index.ts';
import { gamesContext, op, type Operation, type OperationContext } from './operation.ts';
import { refereeOperations } from './referee-operations.ts';

export type { OperationContext };

/**
 * A failure the asker can act on, as it crosses from the service to the command: a code of
 * src/errors.ts and one sentence; `field` names the argument at fault.
 */
export class OperationError extends AppError {
  override name = 'OperationError';
}

// Arguments are checked for shape here; what they mean (an address, a zone) is checked by src/games.
const str = z.string();
const int = z.number().int();

const playerView = (p: Player, config: Config, showSecrets: boolean) => ({
  faction: p.faction,
  email: p.email,
  name: p.displayName,
  lang: p.lang,
  timeZone: p.timeZone,
  joinedTurn: p.joinedTurn,
  ...(showSecrets ? { secret: p.secret, address: privateAddress(config.mail, p.secret) } : {}),
});

const gameView = (g: Game) => ({
  id: g.id,
  name: g.name,
  map: g.map,
  status: g.status,
  currentTurn: g.currentTurn,
  timeZone: g.timeZone,
  weeklyDeadline: g.weeklyDeadline,
  declarationLeadMinutes: g.declarationLeadMinutes,
  reminderMinutes: g.reminderMinutes,
  disputeWindowMinutes: g.disputeWindowMinutes,
  earlyProcessingMinutes: g.earlyProcessingMinutes,
  graceMinutes: g.graceMinutes,
  absenceDaysPerPlayer: g.absenceDaysPerPlayer,
  absenceDaysPerGame: g.absenceDaysPerGame,
  victoryPlanets: g.victoryPlanets,
  lastTurn: g.lastTurn,
  nmrHostility: g.nmrHostility,
  press: pressSettingsOf(g.pressSettings),
});

const outboxView = (m: OutboxMail) => ({
  id: m.id,
  kind: m.kind,
  gameId: m.gameId,
  to: m.toAddress,
  subject: m.subject,
  status: m.status,
  attempts: m.attempts,
  createdAt: m.createdAt,
  sentAt: m.sentAt,
  lastError: m.lastError,
});

async function mustFindGame(db: Db, id: string): Promise<Game> {
  const game = await findGame(db, id);
  if (!game) throw new OperationError('no-game', noSuchGame(id));
  return game;
}

export const operations = {
  'game.create': op({
    summary: 'create a game: players, turn 1 and the welcome mails',
    args: z.object({
      name: str,
      players: z.array(z.object({ email: str, lang: z.enum(['it', 'en']).optional(), timeZone: str.optional() })),
      timeZone: str,
      weeklyDeadline: str,
      declarationLeadMinutes: int.optional(),
      reminderMinutes: z.array(int).optional(),
      disputeWindowMinutes: int.optional(),
      victoryPlanets: int.optional(),
      lastTurn: int.nullable().optional(),
      nmrHostility: z.enum(['keep', 'none']).optional(),
      earlyProcessingMinutes: int.optional(),
      graceMinutes: int.optional(),
      absenceDaysPerPlayer: int.optional(),
      absenceDaysPerGame: int.optional(),
      /** The press settings given; the rest take their defaults. */
      press: actionInputs.press.shape.press.optional(),
      showSecrets: z.boolean().default(false),
    }),
    async run(ctx, { showSecrets, ...input }) {
      const { game, turn, players } = await createGame(ctx.db, input, gamesContext(ctx));
      return {
        game: gameView(game),
        turn: { number: turn.number, deadline: turn.deadline },
        players: players.map((p) => playerView(p, ctx.config, showSecrets)),
      };
    },
  }),
  'game.join': op({
    summary: 'add a late joiner to a game (R-SETUP-4)',
    args: z.object({
      gameId: str,
      email: str,
      lang: z.enum(['it', 'en']).optional(),
      name: str.optional(),
      timeZone: str.optional(),
      showSecrets: z.boolean().default(false),
    }),
    async run(ctx, { showSecrets, ...input }) {
      // No language given: the game's, when all its players share one; English otherwise.
      const langs = new Set((await listPlayers(ctx.db, input.gameId.trim())).map((p) => p.lang));
      const lang = input.lang ?? (langs.size === 1 ? [...langs][0] : 'en');
      const { game, player, firstDeadline } = await joinGame(ctx.db, { ...input, lang }, gamesContext(ctx));
      return { game: gameView(game), firstDeadline, player: playerView(player, ctx.config, showSecrets) };
    },
  }),
  'game.observe': op({
    summary: 'add an observer who gets every edict, with a one-click unsubscribe',
    args: z.object({ gameId: str, email: str, lang: z.enum(['it', 'en']).optional() }),
    async run(ctx, { gameId, email, lang }) {
      const game = await findGame(ctx.db, gameId.trim().toLowerCase());
      if (!game) throw new GameError('no-game', noSuchGame(gameId));
      if (!z.email().safeParse(email.trim()).success) throw new GameError('invalid-input', `${email} is not an e-mail address`, 'email');
      const o = await addObserver(ctx.db, game.id, email, lang ?? 'en');
      return { game: game.id, email: o.email };
    },
  }),
  'game.list': op({
    summary: 'list the games',
    args: z.object({}),
    async run(ctx) {
      const games = await listGames(ctx.db);
      return Promise.all(
        games.map(async (g) => {
          const [players, turns] = await Promise.all([listPlayers(ctx.db, g.id), listTurns(ctx.db, g.id)]);
          const current = turns.find((t) => t.number === g.currentTurn);
          return { ...gameView(g), players: players.length, deadline: current?.deadline ?? null };
        }),
      );
    },
  }),
  'game.show': op({
    summary: 'one game: settings, players and deadlines',
    args: z.object({ gameId: str, showSecrets: z.boolean().default(false) }),
    async run(ctx, { gameId, showSecrets }) {
      const game = await mustFindGame(ctx.db, gameId.trim().toLowerCase());
      const [players, turns] = await Promise.all([listPlayers(ctx.db, game.id), listTurns(ctx.db, game.id)]);
      return {
        game: gameView(game),
        turns: turns.map((t) => ({
          number: t.number,
          status: t.status,
          election: t.election,
          deadline: t.deadline,
          declarationDeadline: t.declarationDeadline,
        })),
        players: players.map((p) => playerView(p, ctx.config, showSecrets)),
      };
    },
  }),
  'outbox.list': op({
    summary: 'mail waiting to go out, sent or failed',
    args: z.object({ gameId: str.optional(), status: z.enum(['pending', 'sent', 'failed']).optional(), limit: int.min(1).default(50) }),
    async run(ctx, { gameId, status, limit }) {
      const rows = (await listOutbox(ctx.db, gameId === undefined ? {} : { gameId })).filter(
        (m) => status === undefined || m.status === status,
      );
      // The newest `limit`, oldest first, and how many there are: a list cut short says so.
      return { mails: rows.slice(-limit).map(outboxView), total: rows.length };
    },
  }),
  'turn.replay': op({
    summary: 're-adjudicate every stored turn of a game with the current engine and show any difference',
    args: z.object({ gameId: str }),
    async run(ctx, { gameId }) {
      return replayTurns(ctx.db, gameId.trim().toLowerCase());
    },
  }),
  'mail.ingest': op({
    summary: 'take in one mail by hand, as if it had just arrived',
    args: z.object({ rawBase64: z.base64(), sourceKey: str.min(1) }),
    async run(ctx, { rawBase64, sourceKey }) {
      const r = await ctx.receive({ raw: Buffer.from(rawBase64, 'base64'), source: 'cli', sourceKey, receivedAt: new Date() });
      return { inbound: r.id, duplicate: r.duplicate, ...(r.result ?? { status: 'pending' }) };
    },
  }),
  ...refereeOperations,
} as const;

export type OperationName = keyof typeof operations;
export const isOperationName = (name: string): name is OperationName => Object.hasOwn(operations, name);

/**
 * Validates the arguments, runs the operation and answers in plain JSON (dates as ISO strings),
 * the same whether it ran here or in the service. Throws OperationError for anything the asker
 * can act on; anything else is a bug or an outage, for the caller to log and hide.
 */
export async function runOperation(ctx: OperationContext, name: string, args: unknown): Promise<unknown> {
  if (!isOperationName(name)) throw new OperationError('unknown-operation', `unknown operation ${JSON.stringify(name)}`);
  const o = operations[name] as Operation<z.ZodType>;
  const parsed = o.args.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new OperationError('bad-arguments', `${field || 'arguments'}: ${issue.message}`, field || undefined);
  }
  try {
    return JSON.parse(JSON.stringify(await o.run(ctx, parsed.data))) as unknown;
  } catch (err) {
    // Every AppError (a game's, a referee's refusal) crosses as one kind, whichever layer threw it.
    if (err instanceof AppError && !(err instanceof OperationError)) throw new OperationError(err.code, err.message, err.field);
    throw err;
  }
}
