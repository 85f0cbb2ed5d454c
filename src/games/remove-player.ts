// The referee removes a player. The seat becomes vacant rather than disappearing: its
// faction stays on the board and is adjudicated as if no sheet came (R-TURN-5, D-SEAT-1) until
// the referee gives the seat to someone (replace-player.ts). The player's code and addresses stop
// naming anyone at once (D-SEAT-2); the seat's history keeps who played it when. One transaction,
// audited; the player who leaves and every other player are told, in the game's thread.
import { sideName } from '../adjudicator/render/vocabulary.ts';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame } from '../db/games.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { listSeats, recordSeatHistory, releaseAddresses, vacateSeat, type Player } from '../db/players.ts';
import { lockTurn } from '../db/turns.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import type { GamesContext } from './context.ts';
import { GameError } from './errors.ts';
import { boardFor } from './input.ts';
import { endAbsences } from './absence-record.ts';
import { formatInstant } from './time-format.ts';
import { noSuchGame } from '../errors.ts';
import { gameMail } from './game-mail.ts';

export interface RemovedPlayer {
  /** The vacant seat, as it now stands. */
  seat: Player;
  /** The addresses that no longer name anyone in the game. */
  addresses: string[];
}

export async function removePlayer(db: Db, gameId: string, faction: string, reason: string, ctx: GamesContext): Promise<RemovedPlayer> {
  const why = reason.trim();
  if (!why) throw new GameError('invalid-input', 'a removal needs a reason', 'reason');
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    // Lock order everywhere: game, then turn. Holding the turn keeps intake from adding a sheet
    // for this seat while it empties (intake locks the turns of the games it writes to).
    const game = await lockGame(tx, gameId);
    if (!game) throw new GameError('no-game', noSuchGame(gameId));
    if (game.status === 'finished') throw new GameError('game-finished', `game ${game.id} is over`);
    await lockTurn(tx, game.id, game.currentTurn);
    const seats = await listSeats(tx, game.id);
    const old = seats.find((p) => p.faction === faction);
    if (!old) throw new GameError('invalid-input', `game ${game.id} has no player for ${faction}`, 'faction');
    if (old.removedAt) throw new GameError('invalid-input', `the ${faction} seat of ${game.id} has no player already`, 'faction');

    const addresses = await releaseAddresses(tx, old.id);
    await endAbsences(tx, game, old.id, ctx.now?.() ?? new Date());
    await recordSeatHistory(tx, {
      gameId: game.id,
      faction,
      email: old.email,
      fromTurn: old.joinedTurn,
      toTurn: Math.max(old.joinedTurn, game.currentTurn - 1),
      reason: why,
    });
    const seat = await vacateSeat(tx, old.id, now);
    const audit = await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'player.remove',
      detail: { faction, email: old.email, addresses, turn: game.currentTurn, reason: why },
    });

    const board = boardFor(game.map);
    const mail = (p: Player, template: 'seat-removed' | 'seat-vacant', replySecret: string | null): OutboxInput => {
      const values = {
        game: game.id,
        gameName: game.name,
        faction: sideName(board, faction, p.lang),
        reason: why,
        turn: game.currentTurn,
        since: formatInstant(now, p.timeZone ?? game.timeZone, p.lang),
      };
      const r = template === 'seat-removed' ? refereeTexts[p.lang].seatRemoved(values) : refereeTexts[p.lang].seatVacant(values);
      return gameMail(ctx.mail, {
        kind: template,
        gameId: game.id,
        to: p.email,
        replySecret,
        ...r,
        dedupeKey: `${template}:${audit.id}:${p.id}`,
      });
    };
    // The one who leaves gets no reply-to: their private address no longer works.
    const others = seats.filter((p) => p.id !== old.id && !p.removedAt);
    await enqueueMany(tx, [mail(old, 'seat-removed', null), ...others.map((p) => mail(p, 'seat-vacant', p.secret))]);
    return { seat: seat!, addresses };
  });
}
