// R-WIN-2: the length of a game is set when it starts (`lastTurn`, or none: play until R-WIN-1),
// and the referee may change it while the game runs. The game row says it for pages and mail; the
// open turn's state carries it into the adjudicator, so that closing, amending and replaying a turn
// all read the length that was in force. Every player is told of a change.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame, updateGame, type Game } from '../db/games.ts';
import { enqueueMany } from '../db/outbox.ts';
import { listPlayers } from '../db/players.ts';
import { lockTurn, updateTurn } from '../db/turns.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import type { GamesContext } from './context.ts';
import { GameError } from './errors.ts';
import { playerMail } from './game-mail.ts';

/**
 * Sets the game's last turn (null: none). R-WIN-2: a change never makes a turn already closed the
 * last one, so the new last turn is the open turn or a later one.
 */
export async function setLastTurn(db: Db, gameId: string, lastTurn: number | null, reason: string, ctx: GamesContext): Promise<Game> {
  // D-WIN-1: turn 2 or later; a finished game keeps its length.
  if (lastTurn !== null && (!Number.isInteger(lastTurn) || lastTurn < 2))
    throw new GameError(
      'invalid-input',
      'the last turn must be a whole number of at least 2 (turn 1 is only the election), or none',
      'lastTurn',
    );
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game) throw new GameError('no-game', `there is no game ${gameId}`);
    if (game.status === 'finished') throw new GameError('game-finished', `game ${gameId} is over: its length can no longer change`);
    if (lastTurn !== null && lastTurn < game.currentTurn)
      throw new GameError(
        'invalid-input',
        `turn ${game.currentTurn} is open: the last turn can be ${game.currentTurn} or later, never a turn already closed (R-WIN-2)`,
        'lastTurn',
      );
    if (lastTurn === game.lastTurn) return game;
    const turn = await lockTurn(tx, gameId, game.currentTurn);
    if (turn) await updateTurn(tx, gameId, turn.number, { state: { ...turn.state, settings: { ...turn.state.settings, lastTurn } } });
    const updated = (await updateGame(tx, gameId, { lastTurn })) ?? game;
    await recordAudit(tx, { actor: ctx.actor, gameId, action: 'game.length', detail: { reason, from: game.lastTurn, to: lastTurn } });
    const players = await listPlayers(tx, gameId);
    await enqueueMany(
      tx,
      players.map((p) => {
        const rendered = refereeTexts[p.lang].lengthChanged({
          game: gameId,
          gameName: game.name,
          reason,
          lastTurn,
          turn: game.currentTurn,
        });
        return playerMail(ctx.mail, p, {
          kind: 'game-length',
          gameId,
          rendered,
          dedupeKey: `game-length:${gameId}:${now.toISOString()}:${lastTurn ?? 'none'}:${p.id}`,
        });
      }),
    );
    return updated;
  });
}
