// The referee replaces a player: a substitute takes the seat — the faction, its units
// and its sheets — with a new secret, so a new private address, and their own welcome mail; the
// old addresses can no longer send orders. The seat's history keeps who played it when. One
// transaction, audited; the player who leaves is told. A seat left vacant by a removed player
// (remove-player.ts, D-SEAT-1) is filled the same way; its history and farewell were written then.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame } from '../db/games.ts';
import { enqueue, enqueueMany } from '../db/outbox.ts';
import { addAddress, findByEmail, listSeats, recordSeatHistory, releaseAddresses, seatPlayer, type Player } from '../db/players.ts';
import { lockTurn } from '../db/turns.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import { freshSecret, type GamesContext } from './context.ts';
import { GameError } from './errors.ts';
import { boardFor, parseInput, playerInput, type PlayerInput } from './input.ts';
import { endAbsences } from './absence-record.ts';
import { formatInstant } from './time-format.ts';
import { refereesToTell } from './disputes.ts';
import { welcomeMail } from './welcome.ts';
import { noSuchGame } from '../errors.ts';
import { gameMail } from './game-mail.ts';

export async function replacePlayer(
  db: Db,
  gameId: string,
  faction: string,
  substitute: PlayerInput,
  reason: string,
  ctx: GamesContext,
): Promise<Player> {
  if (!reason.trim()) throw new GameError('invalid-input', 'a replacement needs a reason', 'reason');
  const input = parseInput(playerInput, substitute);
  return db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game) throw new GameError('no-game', noSuchGame(gameId));
    if (game.status === 'finished') throw new GameError('game-finished', `game ${game.id} is over`);
    const seats = await listSeats(tx, game.id);
    const old = seats.find((p) => p.faction === faction);
    if (!old) throw new GameError('invalid-input', `game ${game.id} has no player for ${faction}`, 'faction');
    if (await findByEmail(tx, game.id, input.email)) throw new GameError('already-playing', `${input.email} already plays in ${game.id}`);
    const turn = await lockTurn(tx, game.id, game.currentTurn);
    const secret = await freshSecret(tx, ctx);
    const vacant = old.removedAt !== null;
    if (!vacant)
      await recordSeatHistory(tx, {
        gameId: game.id,
        faction,
        email: old.email,
        fromTurn: old.joinedTurn,
        toTurn: Math.max(old.joinedTurn, game.currentTurn - 1),
        reason: reason.trim(),
      });
    const oldAddresses = await releaseAddresses(tx, old.id);
    await endAbsences(tx, game, old.id, ctx.now?.() ?? new Date());
    const player = await seatPlayer(tx, old.id, {
      email: input.email,
      displayName: input.name ?? null,
      lang: input.lang,
      timeZone: input.timeZone ?? null,
      secret,
      joinedTurn: Math.max(old.joinedTurn, game.currentTurn),
    });
    await addAddress(tx, player, input.email);
    const board = boardFor(game.map);
    const inPlay = board.factionIds.filter((f) => seats.some((p) => p.faction === f));
    await enqueue(tx, {
      ...welcomeMail({
        board,
        game,
        player: player,
        factions: inPlay,
        firstTurn: game.currentTurn,
        deadline: turn?.deadline ?? new Date(),
        mail: ctx.mail,
        publicUrl: ctx.publicUrl,
        settledBy: (await refereesToTell(tx, ctx, game.id)).to,
      }),
      dedupeKey: `welcome:${player.id}:${secret}`,
    });
    if (!vacant) {
      const rendered = refereeTexts[old.lang].seatLeft({
        game: game.id,
        gameName: game.name,
        reason: reason.trim(),
        since: formatInstant(ctx.now?.() ?? new Date(), old.timeZone ?? game.timeZone, old.lang),
      });
      // No reply-to: the private address left with the seat.
      await enqueueMany(tx, [
        gameMail(ctx.mail, {
          kind: 'seat-left',
          gameId: game.id,
          to: old.email,
          replySecret: null,
          ...rendered,
          dedupeKey: `seat-left:${old.id}:${secret}`,
        }),
      ]);
    }
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'player.replace',
      detail: {
        faction,
        from: vacant ? null : old.email,
        fromAddresses: oldAddresses,
        to: input.email,
        turn: game.currentTurn,
        reason: reason.trim(),
      },
    });
    return player;
  });
}
