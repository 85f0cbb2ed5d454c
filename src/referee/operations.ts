// `sf referee …` as operations (src/control/operations.ts spreads these into its registry): run
// in the service over the control socket, or here when this process holds the database — the
// same code as the console's forms (accounts.ts, actions.ts).
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { findByEmail, listPlayers, type Player } from '../db/players.ts';
import { addReferee, assignReferee, refereesOfGame, setRefereePassword } from './accounts.ts';
import { checkReason, dropMail, extendDeadline, resendEdict, resendWelcome, retryMail, type ActionContext } from './actions.ts';
import { RefereeError } from './errors.ts';
import { amendTurn, rollBackTurn } from '../games/amend-turn.ts';
import { setLastTurn } from '../games/game-length.ts';
import { pauseGame, resumeGame } from '../games/pause.ts';
import { changePlayerAddress } from '../games/player-addresses.ts';
import { removePlayer } from '../games/remove-player.ts';
import { replacePlayer } from '../games/replace-player.ts';

interface Ctx {
  db: Db;
  config: Config;
  log: Logger;
  actor: string;
}

interface RefereeOperation<S extends z.ZodType> {
  summary: string;
  args: S;
  run(ctx: Ctx, args: z.output<S>): Promise<unknown>;
}
const op = <S extends z.ZodType>(o: RefereeOperation<S>): RefereeOperation<S> => o;

const str = z.string();
const id = z.number().int().min(1);

const actionContext = (ctx: Ctx): ActionContext => ({
  actor: ctx.actor,
  mail: { domain: ctx.config.mail.domain, ordersLocalPart: ctx.config.mail.ordersLocalPart },
  publicUrl: ctx.config.http.publicUrl,
});

/** A player named by faction or by any of their addresses. */
async function playerNamed(db: Db, gameId: string, who: string): Promise<Player> {
  const w = who.trim().toLowerCase();
  const player = w.includes('@') ? await findByEmail(db, gameId, w) : (await listPlayers(db, gameId)).find((p) => p.faction === w);
  if (!player) throw new RefereeError('no-player', `game ${gameId} has no player ${JSON.stringify(who)} (a faction or an address)`);
  return player;
}

const playerId = async (db: Db, gameId: string, who: string): Promise<number> => (await playerNamed(db, gameId, who)).id;

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
      return { game: r.game.id, email: r.referee.email, added: r.added, referees: (await refereesOfGame(ctx.db, r.game.id)).map((x) => x.email) };
    },
  }),
  'referee.extend': op({
    summary: 'move the open turn’s deadline later, telling every player',
    args: z.object({ gameId: str, minutes: z.number().int(), reason: str }),
    async run(ctx, { gameId, minutes, reason }) {
      return extendDeadline(ctx.db, gameId.trim().toLowerCase(), minutes, reason, actionContext(ctx));
    },
  }),
  'referee.resend-welcome': op({
    summary: 'send a player their welcome mail again',
    args: z.object({ gameId: str, player: str, reason: str }),
    async run(ctx, { gameId, player, reason }) {
      const game = gameId.trim().toLowerCase();
      const mail = await resendWelcome(ctx.db, game, await playerId(ctx.db, game, player), reason, actionContext(ctx));
      return { outbox: mail.id, to: mail.toAddress };
    },
  }),
  'referee.resend-edict': op({
    summary: 'send a turn’s newest edict again, to one player or all',
    args: z.object({ gameId: str, turn: id, player: str.optional(), reason: str }),
    async run(ctx, { gameId, turn, player, reason }) {
      const game = gameId.trim().toLowerCase();
      const to = player === undefined ? null : await playerId(ctx.db, game, player);
      return { queued: await resendEdict(ctx.db, game, turn, to, reason, actionContext(ctx)) };
    },
  }),
  'referee.retry-mail': op({
    summary: 'queue a failed mail again',
    args: z.object({ gameId: str, outboxId: id, reason: str }),
    async run(ctx, { gameId, outboxId, reason }) {
      const m = await retryMail(ctx.db, gameId.trim().toLowerCase(), outboxId, reason, actionContext(ctx));
      return { outbox: m.id, status: m.status };
    },
  }),
  'referee.drop-mail': op({
    summary: 'give up a mail that keeps failing',
    args: z.object({ gameId: str, outboxId: id, reason: str }),
    async run(ctx, { gameId, outboxId, reason }) {
      const m = await dropMail(ctx.db, gameId.trim().toLowerCase(), outboxId, reason, actionContext(ctx));
      return { outbox: m.id, status: m.status };
    },
  }),
  'referee.amend': op({
    summary: 'amend a closed turn: another unit into a contested cell, a corrected sheet; a new edict version mailed to all',
    args: z.object({ gameId: str, turn: id, reason: str, advances: z.record(z.string(), z.string()).optional(), faction: str.optional(), sheet: str.optional(), confirm: z.boolean().optional() }),
    async run(ctx, a) {
      const corrected = a.faction ? { correctedSheets: { [a.faction.trim().toLowerCase()]: a.sheet ?? '' } } : {};
      return amendTurn(ctx.db, { gameId: a.gameId.trim().toLowerCase(), turn: a.turn, reason: a.reason, advances: a.advances ?? {}, ...corrected, confirmOutsideWindow: a.confirm ?? false }, actionContext(ctx));
    },
  }),
  'referee.rollback': op({
    summary: 'roll back the last closed turn: it re-opens with its sheets, due in the hours given',
    args: z.object({ gameId: str, hours: z.number().int().min(1).max(336), reason: str }),
    async run(ctx, { gameId, hours, reason }) {
      const deadline = new Date(Date.now() + hours * 3_600_000);
      await rollBackTurn(ctx.db, gameId.trim().toLowerCase(), reason, deadline, actionContext(ctx));
      return { deadline: deadline.toISOString() };
    },
  }),
  'referee.replace': op({
    summary: 'give a player’s seat to a substitute: new address and code, a welcome; the seat’s history kept',
    args: z.object({ gameId: str, faction: str, email: str, lang: z.enum(['it', 'en']).optional(), reason: str }),
    async run(ctx, { gameId, faction, email, lang, reason }) {
      const p = await replacePlayer(ctx.db, gameId.trim().toLowerCase(), faction.trim().toLowerCase(), { email, ...(lang ? { lang } : {}) }, reason, actionContext(ctx));
      return { faction: p.faction, email: p.email };
    },
  }),
  'referee.remove': op({
    summary: 'remove a player: the seat stays empty, its units holding as if no sheet came, until someone takes it; every player told',
    args: z.object({ gameId: str, player: str, reason: str }),
    async run(ctx, { gameId, player, reason }) {
      const game = gameId.trim().toLowerCase();
      const seat = await playerNamed(ctx.db, game, player);
      const r = await removePlayer(ctx.db, game, seat.faction, checkReason(reason), actionContext(ctx));
      return { faction: r.seat.faction, addresses: r.addresses };
    },
  }),
  'referee.address': op({
    summary: 'add or remove one of a player’s addresses, or make it the primary one (where their mail goes)',
    args: z.object({ gameId: str, player: str, change: z.enum(['add', 'remove', 'primary']), email: str, reason: str }),
    async run(ctx, { gameId, player, change, email, reason }) {
      const game = gameId.trim().toLowerCase();
      const seat = await playerNamed(ctx.db, game, player);
      const r = await changePlayerAddress(ctx.db, game, seat.faction, change, email, checkReason(reason), actionContext(ctx));
      return { faction: r.player.faction, primary: r.player.email, addresses: r.addresses };
    },
  }),
  'referee.pause': op({
    summary: 'pause a game: no deadline passes until it resumes',
    args: z.object({ gameId: str, reason: str }),
    async run(ctx, { gameId, reason }) {
      await pauseGame(ctx.db, gameId.trim().toLowerCase(), reason, actionContext(ctx));
      return { paused: true };
    },
  }),
  'referee.length': op({
    summary: 'set the game’s last turn (R-WIN-2), or none; every player told',
    args: z.object({ gameId: str, lastTurn: id.nullable(), reason: str }),
    async run(ctx, { gameId, lastTurn, reason }) {
      const game = await setLastTurn(ctx.db, gameId.trim().toLowerCase(), lastTurn, checkReason(reason), actionContext(ctx));
      return { lastTurn: game.lastTurn, currentTurn: game.currentTurn };
    },
  }),
  'referee.resume': op({
    summary: 'resume a paused game: the deadline moves on by the pause',
    args: z.object({ gameId: str, reason: str }),
    async run(ctx, { gameId, reason }) {
      return { deadline: (await resumeGame(ctx.db, gameId.trim().toLowerCase(), reason, actionContext(ctx))).toISOString() };
    },
  }),
} as const;
