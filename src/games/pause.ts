// The referee pauses a game (a dispute, a holiday for everyone) and resumes it: while paused no
// deadline fires and no reminder goes out; on resuming, the open turn's deadlines move on by the
// length of the pause, so nobody loses time. Both are audited and mailed. (Extending a deadline by
// hand is referee-actions.ts.)
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame, updateGame, type Game } from '../db/games.ts';
import { enqueueMany } from '../db/outbox.ts';
import { listPlayers } from '../db/players.ts';
import { lockTurn, updateTurn } from '../db/turns.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import type { GamesContext } from './context.ts';
import { GameError } from './errors.ts';
import { declarationDeadlineOf } from './schedule.ts';
import { formatInstant } from './time-format.ts';
import { noSuchGame } from '../errors.ts';
import { playerMail } from './game-mail.ts';

export async function pauseGame(db: Db, gameId: string, reason: string, ctx: GamesContext): Promise<void> {
  const now = ctx.now?.() ?? new Date();
  await db.transaction(async (tx) => {
    const game = await locked(tx, gameId);
    if (game.status !== 'active') throw new GameError('turn-closed', `game ${gameId} is ${game.status}, not running`);
    await updateGame(tx, gameId, { status: 'paused', pausedAt: now });
    await recordAudit(tx, { actor: ctx.actor, gameId, action: 'game.pause', detail: { reason } });
    await tell(tx, game, 'game-paused', { reason }, ctx, now);
  });
}

export async function resumeGame(db: Db, gameId: string, reason: string, ctx: GamesContext): Promise<Date> {
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await locked(tx, gameId);
    if (game.status !== 'paused' || !game.pausedAt) throw new GameError('turn-closed', `game ${gameId} is not paused`);
    const turn = await lockTurn(tx, gameId, game.currentTurn);
    const shift = Math.max(0, now.getTime() - game.pausedAt.getTime());
    const deadline = new Date(turn!.deadline.getTime() + shift);
    await updateTurn(tx, gameId, game.currentTurn, { deadline, declarationDeadline: declarationDeadlineOf(game, deadline), earlyAt: null });
    await updateGame(tx, gameId, { status: 'active', pausedAt: null });
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId,
      action: 'game.resume',
      detail: { reason, pausedMs: shift, deadline: deadline.toISOString() },
    });
    await tell(tx, game, 'game-resumed', { reason, deadline }, ctx, now);
    return deadline;
  });
}

async function locked(tx: Db, gameId: string): Promise<Game> {
  const game = await lockGame(tx, gameId);
  if (!game) throw new GameError('no-game', noSuchGame(gameId));
  return game;
}

async function tell(
  tx: Db,
  game: Game,
  kind: 'game-paused' | 'game-resumed',
  v: { reason: string; deadline?: Date },
  ctx: GamesContext,
  now: Date,
): Promise<void> {
  const players = await listPlayers(tx, game.id);
  await enqueueMany(
    tx,
    players.map((p) => {
      const values = {
        game: game.id,
        gameName: game.name,
        reason: v.reason,
        turn: game.currentTurn,
        deadline: v.deadline ? formatInstant(v.deadline, p.timeZone ?? game.timeZone, p.lang) : '',
      };
      const rendered = kind === 'game-paused' ? refereeTexts[p.lang].gamePaused(values) : refereeTexts[p.lang].gameResumed(values);
      return playerMail(ctx.mail, p, { kind, gameId: game.id, rendered, dedupeKey: `${kind}:${game.id}:${now.toISOString()}:${p.id}` });
    }),
  );
}
