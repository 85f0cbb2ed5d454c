// `sf referee …` as operations of the one registry (operations.ts spreads these into it): run in
// the service over the control socket, or here when this process holds the database — the same
// application code, and the same input schemas (src/games/action-inputs.ts), as the console's forms.
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { findByEmail, listPlayers, type Player } from '../db/players.ts';
import {
  actionInputs,
  amendTurn,
  changePlayerAddress,
  changePressSettings,
  checkReason,
  dropMail,
  extendDeadline,
  GameError,
  listOpenDisputes,
  pauseGame,
  rejectDispute,
  removePlayer,
  replacePlayer,
  resendEdict,
  resendWelcome,
  resumeGame,
  retryMail,
  rollBackTurn,
  setLastTurn,
} from '../games/index.ts';
import { addReferee, assignReferee, refereesOfGame, setRefereePassword } from '../referee/accounts.ts';
import { gamesContext, op } from './operation.ts';

const str = z.string();

/** A player named by faction or by any of their addresses. */
async function playerNamed(db: Db, gameId: string, who: string): Promise<Player> {
  const w = who.trim().toLowerCase();
  const player = w.includes('@') ? await findByEmail(db, gameId, w) : (await listPlayers(db, gameId)).find((p) => p.faction === w);
  if (!player) throw new GameError('no-player', `game ${gameId} has no player ${JSON.stringify(who)} (a faction or an address)`);
  return player;
}

/** A player's id: given as such, or by faction or address. */
const playerId = async (db: Db, gameId: string, who: number | string): Promise<number> =>
  typeof who === 'number' ? who : (await playerNamed(db, gameId, who)).id;

export const refereeOperations = {
  'referee.add': op({
    summary: 'create a referee with a one-time password',
    args: z.object({ email: str }),
    async run(ctx, { email }) {
      const { referee, password } = await addReferee(ctx.db, email, ctx.actor);
      return { email: referee.email, password };
    },
  }),
  'referee.passwd': op({
    summary: 'set a referee’s password: the one given, or a new one-time password',
    args: z.object({ email: str, password: str.optional() }),
    async run(ctx, { email, password }) {
      const r = await setRefereePassword(ctx.db, email, ctx.actor, password);
      return { email: r.referee.email, password: r.password };
    },
  }),
  'referee.assign': op({
    summary: 'make a referee one of a game’s referees',
    args: z.object({ gameId: str, email: str }),
    async run(ctx, { gameId, email }) {
      const r = await assignReferee(ctx.db, gameId, email, ctx.actor);
      return {
        game: r.game.id,
        email: r.referee.email,
        added: r.added,
        referees: (await refereesOfGame(ctx.db, r.game.id)).map((x) => x.email),
      };
    },
  }),
  'referee.extend': op({
    summary: 'move the open turn’s deadline later, telling every player',
    args: actionInputs.extend,
    async run(ctx, { gameId, minutes, reason }) {
      return extendDeadline(ctx.db, gameId, minutes, reason, gamesContext(ctx));
    },
  }),
  'referee.resend-welcome': op({
    summary: 'send a player their welcome mail again',
    args: actionInputs.resendWelcome,
    async run(ctx, { gameId, player, reason }) {
      const mail = await resendWelcome(ctx.db, gameId, await playerId(ctx.db, gameId, player), reason, gamesContext(ctx));
      return { outbox: mail.id, to: mail.toAddress };
    },
  }),
  'referee.resend-edict': op({
    summary: 'send a turn’s newest edict again, to one player or all',
    args: actionInputs.resendEdict,
    async run(ctx, { gameId, turn, player, reason }) {
      const to = player === undefined ? null : await playerId(ctx.db, gameId, player);
      return { queued: await resendEdict(ctx.db, gameId, turn, to, reason, gamesContext(ctx)) };
    },
  }),
  'referee.retry-mail': op({
    summary: 'queue a failed mail again',
    args: actionInputs.retryMail,
    async run(ctx, { gameId, outboxId, reason }) {
      const m = await retryMail(ctx.db, gameId, outboxId, reason, gamesContext(ctx));
      return { outbox: m.id, status: m.status };
    },
  }),
  'referee.drop-mail': op({
    summary: 'give up a mail that keeps failing',
    args: actionInputs.dropMail,
    async run(ctx, { gameId, outboxId, reason }) {
      const m = await dropMail(ctx.db, gameId, outboxId, reason, gamesContext(ctx));
      return { outbox: m.id, status: m.status };
    },
  }),
  'referee.amend': op({
    summary: 'amend a closed turn: another unit into a contested cell, a corrected sheet; a new edict version mailed to all',
    args: actionInputs.amend,
    async run(ctx, a) {
      const corrected = a.faction ? { correctedSheets: { [a.faction.trim().toLowerCase()]: a.sheet ?? '' } } : {};
      return amendTurn(
        ctx.db,
        {
          gameId: a.gameId,
          turn: a.turn,
          reason: a.reason,
          advances: a.advances ?? {},
          ...corrected,
          confirmOutsideWindow: a.confirm ?? false,
        },
        gamesContext(ctx),
      );
    },
  }),
  'referee.rollback': op({
    summary: 'roll back the last closed turn: it re-opens with its sheets, due in the hours given',
    args: actionInputs.rollback,
    async run(ctx, { gameId, hours, reason }) {
      const deadline = new Date(Date.now() + hours * 3_600_000);
      await rollBackTurn(ctx.db, gameId, reason, deadline, gamesContext(ctx));
      return { deadline: deadline.toISOString() };
    },
  }),
  'referee.replace': op({
    summary: 'give a player’s seat to a substitute: new address and code, a welcome; the seat’s history kept',
    args: actionInputs.replace,
    async run(ctx, { gameId, faction, email, lang, reason }) {
      const p = await replacePlayer(
        ctx.db,
        gameId,
        faction.trim().toLowerCase(),
        { email, ...(lang ? { lang } : {}) },
        reason,
        gamesContext(ctx),
      );
      return { faction: p.faction, email: p.email };
    },
  }),
  'referee.remove': op({
    summary: 'remove a player: the seat stays empty, its units holding as if no sheet came, until someone takes it; every player told',
    args: actionInputs.remove,
    async run(ctx, { gameId, player, reason }) {
      const seat = await playerNamed(ctx.db, gameId, player);
      const r = await removePlayer(ctx.db, gameId, seat.faction, checkReason(reason), gamesContext(ctx));
      return { faction: r.seat.faction, addresses: r.addresses };
    },
  }),
  'referee.address': op({
    summary: 'add or remove one of a player’s addresses, or make it the primary one (where their mail goes)',
    args: actionInputs.address,
    async run(ctx, { gameId, player, change, email, reason }) {
      const seat = await playerNamed(ctx.db, gameId, player);
      const r = await changePlayerAddress(ctx.db, gameId, seat.faction, change, email, checkReason(reason), gamesContext(ctx));
      return { faction: r.player.faction, primary: r.player.email, addresses: r.addresses };
    },
  }),
  'referee.pause': op({
    summary: 'pause a game: no deadline passes until it resumes',
    args: actionInputs.pause,
    async run(ctx, { gameId, reason }) {
      await pauseGame(ctx.db, gameId, reason, gamesContext(ctx));
      return { paused: true };
    },
  }),
  'referee.disputes': op({
    summary: 'the game’s open disputes, by turn: who, why, when',
    args: actionInputs.disputes,
    async run(ctx, { gameId }) {
      return listOpenDisputes(ctx.db, gameId);
    },
  }),
  'referee.dispute.reject': op({
    summary: 'reject an open dispute with a reason: the edict stands, the disputer is told',
    args: actionInputs.rejectDispute,
    async run(ctx, { gameId, disputeId, reason }) {
      const d = await rejectDispute(ctx.db, gamesContext(ctx), { gameId, disputeId, reason: checkReason(reason) });
      return { dispute: d.id, turn: d.turn, faction: d.faction, status: d.status };
    },
  }),
  'referee.length': op({
    summary: 'set the game’s last turn (R-WIN-2), or none; every player told',
    args: actionInputs.length,
    async run(ctx, { gameId, lastTurn, reason }) {
      const game = await setLastTurn(ctx.db, gameId, lastTurn, checkReason(reason), gamesContext(ctx));
      return { lastTurn: game.lastTurn, currentTurn: game.currentTurn };
    },
  }),
  'referee.press': op({
    summary: 'change the game’s press settings; every player told what changed',
    args: actionInputs.press,
    async run(ctx, { gameId, press, reason }) {
      const r = await changePressSettings(ctx.db, gameId, press, checkReason(reason), gamesContext(ctx));
      return { changed: r.changed, from: r.from, settings: r.settings, told: r.told };
    },
  }),
  'referee.resume': op({
    summary: 'resume a paused game: the deadline moves on by the pause',
    args: actionInputs.resume,
    async run(ctx, { gameId, reason }) {
      return { deadline: (await resumeGame(ctx.db, gameId, reason, gamesContext(ctx))).toISOString() };
    },
  }),
} as const;
