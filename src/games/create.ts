// Creating a game: the game, its players with their secrets, turn 1 and one welcome mail per
// player, all in one transaction, so a failure anywhere leaves nothing behind.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { insertGame, type Game } from '../db/games.ts';
import { enqueue } from '../db/outbox.ts';
import { insertPlayer, type Player } from '../db/players.ts';
import { insertTurn, type Turn } from '../db/turns.ts';
import { freshSecret, type GamesContext } from './context.ts';
import { nextWeeklyDeadline } from './deadline.ts';
import { GameError } from './errors.ts';
import { initialState } from './initial-state.ts';
import { boardFor, createGameInput, parseInput, slugify, type CreateGameInput } from './input.ts';
import { refereesToTell } from './disputes.ts';
import { welcomeMail } from './welcome.ts';

// Turn 1 ends at the first weekly deadline at least this far away: a game created on Sunday at
// 19:00 with a Sunday 20:00 deadline gives its players a week, not an hour.
export const FIRST_TURN_MIN_NOTICE_MS = 24 * 3_600_000;

export interface CreatedGame {
  game: Game;
  turn: Turn;
  /** In R-SETUP-1 order. */
  players: Player[];
}

export async function createGame(db: Db, raw: CreateGameInput, ctx: GamesContext): Promise<CreatedGame> {
  const input = parseInput(createGameInput, raw);
  const board = boardFor(input.map);
  if (input.players.length > board.factionIds.length)
    throw new GameError('invalid-input', `players: at most ${board.factionIds.length} players, one per faction of map ${input.map}`);
  const id = slugify(input.name);
  const now = ctx.now?.() ?? new Date();
  const deadline = nextWeeklyDeadline(new Date(now.getTime() + FIRST_TURN_MIN_NOTICE_MS), input.weeklyDeadline, input.timeZone);
  // R-SETUP-1: the n-th address plays the n-th faction of the map.
  const factions = board.factionIds.slice(0, input.players.length);

  return db.transaction(async (tx) => {
    const game = await insertGame(tx, {
      id,
      name: input.name,
      map: input.map,
      timeZone: input.timeZone,
      weeklyDeadline: input.weeklyDeadline,
      declarationLeadMinutes: input.declarationLeadMinutes,
      reminderMinutes: input.reminderMinutes,
      disputeWindowMinutes: input.disputeWindowMinutes,
      earlyProcessingMinutes: input.earlyProcessingMinutes,
      graceMinutes: input.graceMinutes,
      absenceDaysPerPlayer: input.absenceDaysPerPlayer,
      absenceDaysPerGame: input.absenceDaysPerGame,
      victoryPlanets: input.victoryPlanets,
      lastTurn: input.lastTurn,
      nmrHostility: input.nmrHostility,
      pressSettings: input.press,
      status: 'active',
      currentTurn: 1,
    });
    if (!game) throw new GameError('game-exists', `a game called ${id} exists already: choose another name`);

    const state = initialState(board, id, factions, {
      victoryPlanets: input.victoryPlanets,
      nmrHostility: input.nmrHostility,
      lastTurn: input.lastTurn,
    });
    const turn = await insertTurn(tx, {
      gameId: id,
      number: 1,
      election: true, // R-TURN-1
      state,
      deadline,
      declarationDeadline: new Date(deadline.getTime() - input.declarationLeadMinutes * 60_000),
      status: 'open',
    });

    // D-PRESS-17: a new game has no referee yet; the welcome says who settles its disputes meanwhile.
    const settledBy = (await refereesToTell(tx, ctx, id)).to;
    const players: Player[] = [];
    const secrets = new Set<string>();
    for (const [i, p] of input.players.entries()) {
      const secret = await freshSecret(tx, ctx, secrets);
      secrets.add(secret.toLowerCase());
      const player = await insertPlayer(tx, {
        gameId: id,
        faction: factions[i]!,
        email: p.email,
        displayName: p.name ?? null,
        lang: p.lang,
        timeZone: p.timeZone ?? null,
        secret,
        joinedTurn: 1,
      });
      players.push(player);
      await enqueue(
        tx,
        welcomeMail({ board, game, player, factions, firstTurn: 1, deadline, mail: ctx.mail, publicUrl: ctx.publicUrl, settledBy }),
      );
    }

    const { players: _given, ...settings } = input;
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId: id,
      action: 'game.create',
      // Never the secrets: the audit log is shown on the referee console.
      detail: {
        ...settings,
        players: players.map((p) => ({ faction: p.faction, email: p.email, lang: p.lang })),
        deadline: deadline.toISOString(),
      },
    });
    return { game, turn, players };
  });
}
