// The console's actions (POST, behind the session check and the CSRF token): each takes a reason
// and runs through src/referee/actions.ts, which audits it and mails players in one transaction.
// On success, a redirect to the game page with a fixed notice (never text from the request).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { amendTurn, rollBackTurn } from '../../games/amend-turn.ts';
import { AppError } from '../../errors.ts';
import { setLastTurn } from '../../games/game-length.ts';
import { pauseGame, resumeGame } from '../../games/pause.ts';
import { changePlayerAddress } from '../../games/player-addresses.ts';
import { removePlayer } from '../../games/remove-player.ts';
import { replacePlayer } from '../../games/replace-player.ts';
import { findPlayer } from '../../db/players.ts';
import { checkReason, dropMail, extendDeadline, resendEdict, resendWelcome, retryMail, type ActionContext } from '../../referee/actions.ts';
import { RefereeError } from '../../referee/errors.ts';
import { gameOf, sendRefereeError } from './pages.ts';
import type { ConsoleSettings } from './settings.ts';

type Form = Record<string, string | undefined>;
type Req<P> = FastifyRequest<{ Params: P & { game: string }; Body: Form }>;

const NUMBER = /^[1-9][0-9]{0,8}$/;

function whole(v: string | undefined, what: string): number {
  if (v === undefined || !NUMBER.test(v.trim())) throw new RefereeError('invalid-input', `${what} must be a whole number`);
  return Number(v.trim());
}

export async function actionRoutes(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  const ctx = (req: FastifyRequest): ActionContext => ({ actor: `referee:${req.referee!.email}`, mail: settings.mail, publicUrl: settings.publicUrl });

  /** Runs an action on a game the referee runs; AppErrors become a page, anything else the app's 500. */
  function action<P extends object>(path: string, run: (req: Req<P>, gameId: string) => Promise<string>) {
    app.post<{ Params: P & { game: string }; Body: Form }>(path, async (req, reply: FastifyReply) => {
      const game = await gameOf(app, req, reply);
      if (!game) return reply;
      try {
        const done = await run(req, game.id);
        return reply.code(303).header('location', `/referee/games/${encodeURIComponent(game.id)}?done=${done}`).send();
      } catch (err) {
        // The referee's and the application layer's refusals (a closed window, a cell's wrong candidate) are the referee's to read.
        if (err instanceof AppError) return sendRefereeError(req, reply, err);
        throw err;
      }
    });
  }

  action('/games/:game/deadline', async (req, gameId) => {
    await extendDeadline(app.db, gameId, whole(req.body.minutes, 'minutes'), req.body.reason, ctx(req));
    return 'extended';
  });

  action<{ player: string }>('/games/:game/players/:player/welcome', async (req, gameId) => {
    await resendWelcome(app.db, gameId, whole(req.params.player, 'player'), req.body.reason, ctx(req));
    return 'welcome';
  });

  action('/games/:game/edicts/resend', async (req, gameId) => {
    const player = req.body.player ? whole(req.body.player, 'player') : null;
    await resendEdict(app.db, gameId, whole(req.body.turn, 'turn'), player, req.body.reason, ctx(req));
    return 'edict';
  });

  action<{ id: string }>('/games/:game/outbox/:id/retry', async (req, gameId) => {
    await retryMail(app.db, gameId, whole(req.params.id, 'mail'), req.body.reason, ctx(req));
    return 'retried';
  });

  action('/games/:game/amend', async (req, gameId) => {
    const advances: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.body)) if (k.startsWith('advance:') && v) advances[k.slice('advance:'.length)] = v;
    const faction = req.body.faction?.trim();
    await amendTurn(app.db, {
      gameId,
      turn: whole(req.body.turn, 'turn'),
      reason: checkReason(req.body.reason),
      advances,
      ...(faction ? { correctedSheets: { [faction]: req.body.sheet ?? '' } } : {}),
      confirmOutsideWindow: req.body.confirm === 'yes',
    }, ctx(req));
    return 'amended';
  });

  action('/games/:game/rollback', async (req, gameId) => {
    const hours = whole(req.body.hours, 'hours');
    if (hours > 336) throw new RefereeError('invalid-input', 'a re-opened turn is due within 336 hours (two weeks)');
    await rollBackTurn(app.db, gameId, checkReason(req.body.reason), new Date(Date.now() + hours * 3_600_000), ctx(req));
    return 'rolled-back';
  });

  action<{ player: string }>('/games/:game/players/:player/replace', async (req, gameId) => {
    const seat = await findPlayer(app.db, whole(req.params.player, 'player'));
    if (!seat || seat.gameId !== gameId) throw new RefereeError('no-player', 'no such player in this game');
    const lang = req.body.lang === 'it' ? 'it' : 'en';
    await replacePlayer(app.db, gameId, seat.faction, { email: req.body.email ?? '', lang }, checkReason(req.body.reason), ctx(req));
    return 'replaced';
  });

  /** A seated player of this game, by the id in the URL (a vacant seat has none, D-SEAT-1). */
  async function seated(playerParam: string, gameId: string) {
    const p = await findPlayer(app.db, whole(playerParam, 'player'));
    if (!p || p.gameId !== gameId || p.removedAt) throw new RefereeError('no-player', 'no such player in this game');
    return p;
  }

  action<{ player: string }>('/games/:game/players/:player/remove', async (req, gameId) => {
    const p = await seated(req.params.player, gameId);
    await removePlayer(app.db, gameId, p.faction, checkReason(req.body.reason), ctx(req));
    return 'removed';
  });

  action<{ player: string }>('/games/:game/players/:player/addresses', async (req, gameId) => {
    const p = await seated(req.params.player, gameId);
    const change = req.body.change;
    if (change !== 'add' && change !== 'remove' && change !== 'primary') throw new RefereeError('invalid-input', 'say add, remove or primary');
    await changePlayerAddress(app.db, gameId, p.faction, change, req.body.email ?? '', checkReason(req.body.reason), ctx(req));
    return `address-${change}`;
  });

  action('/games/:game/pause', async (req, gameId) => {
    await pauseGame(app.db, gameId, checkReason(req.body.reason), ctx(req));
    return 'paused';
  });

  // R-WIN-2: an empty field means no last turn.
  action('/games/:game/length', async (req, gameId) => {
    const v = req.body.lastTurn?.trim() ?? '';
    await setLastTurn(app.db, gameId, v === '' ? null : whole(v, 'the last turn'), checkReason(req.body.reason), ctx(req));
    return 'length';
  });

  action('/games/:game/resume', async (req, gameId) => {
    await resumeGame(app.db, gameId, checkReason(req.body.reason), ctx(req));
    return 'resumed';
  });

  action<{ id: string }>('/games/:game/outbox/:id/drop', async (req, gameId) => {
    await dropMail(app.db, gameId, whole(req.params.id, 'mail'), req.body.reason, ctx(req));
    return 'dropped';
  });
}
