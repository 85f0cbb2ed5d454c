// A late joiner (R-SETUP-4) takes the next free faction in R-SETUP-1 order and enters at the
// start of the next turn: the open turn's state lists the faction in `joining`, and the
// adjudicator brings its 3 units in when it opens the next turn.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame, type Game } from '../db/games.ts';
import { enqueue } from '../db/outbox.ts';
import { findByEmail, insertPlayer, listSeats, type Player } from '../db/players.ts';
import { lockTurn, updateTurn } from '../db/turns.ts';
import { freshSecret, type GamesContext } from './context.ts';
import { nextWeeklyDeadline } from './deadline.ts';
import { GameError } from './errors.ts';
import { boardFor, joinGameInput, parseInput, type JoinGameInput } from './input.ts';
import { refereesToTell } from './disputes.ts';
import { welcomeMail } from './welcome.ts';
import { noSuchGame } from '../errors.ts';

export interface JoinedGame {
  game: Game;
  player: Player;
  /** The deadline of the player's first turn. */
  firstDeadline: Date;
}

export async function joinGame(db: Db, raw: JoinGameInput, ctx: GamesContext): Promise<JoinedGame> {
  const input = parseInput(joinGameInput, raw);
  return db.transaction(async (tx) => {
    // Locks in the order game, then turn (see lockGame): joins of one game queue up here.
    const game = await lockGame(tx, input.gameId);
    if (!game) throw new GameError('no-game', noSuchGame(input.gameId));
    if (game.status === 'finished') throw new GameError('game-finished', `game ${game.id} is over`);
    const board = boardFor(game.map);

    // Any of a player's addresses counts (D-SEAT-3); a vacant seat's faction is still taken (D-SEAT-1).
    if (await findByEmail(tx, game.id, input.email)) throw new GameError('already-playing', `${input.email} already plays in ${game.id}`);
    const taken = new Set((await listSeats(tx, game.id)).map((p) => p.faction));
    const faction = board.factionIds.find((f) => !taken.has(f));
    if (!faction)
      throw new GameError('game-full', `game ${game.id} is full: all ${board.factionIds.length} factions are taken (R-SETUP-4)`);

    const turn = await lockTurn(tx, game.id, game.currentTurn);
    if (!turn || turn.status !== 'open')
      throw new GameError('turn-closed', `turn ${game.currentTurn} of ${game.id} is being adjudicated: try again in a moment`);
    const joining = [...(turn.state.joining ?? []), faction];
    await updateTurn(tx, game.id, turn.number, { state: { ...turn.state, joining } });

    const player = await insertPlayer(tx, {
      gameId: game.id,
      faction,
      email: input.email,
      displayName: input.name ?? null,
      lang: input.lang,
      timeZone: input.timeZone ?? null,
      secret: await freshSecret(tx, ctx),
      joinedTurn: turn.number + 1,
    });
    const firstDeadline = nextWeeklyDeadline(turn.deadline, game.weeklyDeadline, game.timeZone);
    const inPlay = board.factionIds.filter((f) => turn.state.factions.includes(f) || joining.includes(f));
    await enqueue(
      tx,
      welcomeMail({
        board,
        game,
        player,
        factions: inPlay,
        firstTurn: player.joinedTurn,
        deadline: firstDeadline,
        mail: ctx.mail,
        publicUrl: ctx.publicUrl,
        settledBy: (await refereesToTell(tx, ctx, game.id)).to,
      }),
    );
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'game.join',
      detail: { faction, email: player.email, lang: player.lang, joinedTurn: player.joinedTurn },
    });
    return { game, player, firstDeadline };
  });
}
