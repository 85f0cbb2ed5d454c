// The console's actions (POST, behind the session check and the CSRF token): each form is read into
// the action's input schema (the one `sf referee …` uses) and runs through src/games, which audits
// it and mails players in one transaction.
// On success, a redirect to the game page with a fixed notice (never text from the request).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { findPlayer } from '../../db/players.ts';
import {
  actionInput,
  amendTurn,
  changePlayerAddress,
  changePressSettings,
  checkReason,
  dropMail,
  extendDeadline,
  GameError,
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
  type GamesContext,
} from '../../games/index.ts';
import { gameOf, sendRefereeError } from './pages.ts';
import type { ConsoleSettings } from './settings.ts';

type Form = Record<string, string | undefined>;
type Req<P> = FastifyRequest<{ Params: P & { game: string }; Body: Form }>;

const NUMBER = /^[1-9][0-9]{0,8}$/;

function whole(v: string | undefined, what: string): number {
  if (v === undefined || !NUMBER.test(v.trim())) throw new GameError('invalid-input', `${what} must be a whole number`);
  return Number(v.trim());
}

export async function actionRoutes(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  const ctx = (req: FastifyRequest): GamesContext => ({
    actor: `referee:${req.referee!.email}`,
    mail: settings.mail,
    publicUrl: settings.publicUrl,
  });

  /** Runs an action on a game the referee runs; AppErrors become a page, anything else the app's 500. */
  function action<P extends object>(path: string, run: (req: Req<P>, gameId: string) => Promise<string>) {
    app.post<{ Params: P & { game: string }; Body: Form }>(path, async (req, reply: FastifyReply) => {
      const game = await gameOf(app, req, reply);
      if (!game) return reply;
      try {
        const done = await run(req, game.id);
        return reply
          .code(303)
          .header('location', `/referee/games/${encodeURIComponent(game.id)}?done=${done}`)
          .send();
      } catch (err) {
        // The referee's and the application layer's refusals (a closed window, a cell's wrong candidate) are the referee's to read.
        if (err instanceof AppError) return sendRefereeError(req, reply, err);
        throw err;
      }
    });
  }

  action('/games/:game/deadline', async (req, gameId) => {
    const a = actionInput('extend', { gameId, minutes: whole(req.body.minutes, 'minutes'), reason: req.body.reason ?? '' });
    await extendDeadline(app.db, a.gameId, a.minutes, req.body.reason, ctx(req));
    return 'extended';
  });

  action<{ player: string }>('/games/:game/players/:player/welcome', async (req, gameId) => {
    const player = whole(req.params.player, 'player');
    const a = actionInput('resendWelcome', { gameId, player, reason: req.body.reason ?? '' });
    await resendWelcome(app.db, a.gameId, player, req.body.reason, ctx(req));
    return 'welcome';
  });

  action('/games/:game/edicts/resend', async (req, gameId) => {
    const player = req.body.player ? whole(req.body.player, 'player') : undefined;
    const a = actionInput('resendEdict', { gameId, turn: whole(req.body.turn, 'turn'), player, reason: req.body.reason ?? '' });
    await resendEdict(app.db, a.gameId, a.turn, player ?? null, req.body.reason, ctx(req));
    return 'edict';
  });

  action<{ id: string }>('/games/:game/outbox/:id/retry', async (req, gameId) => {
    const a = actionInput('retryMail', { gameId, outboxId: whole(req.params.id, 'mail'), reason: req.body.reason ?? '' });
    await retryMail(app.db, a.gameId, a.outboxId, req.body.reason, ctx(req));
    return 'retried';
  });

  action<{ id: string }>('/games/:game/disputes/:id/reject', async (req, gameId) => {
    const a = actionInput('rejectDispute', { gameId, disputeId: whole(req.params.id, 'dispute'), reason: checkReason(req.body.reason) });
    await rejectDispute(app.db, ctx(req), a);
    return 'dispute-rejected';
  });

  action('/games/:game/amend', async (req, gameId) => {
    const advances: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.body)) if (k.startsWith('advance:') && v) advances[k.slice('advance:'.length)] = v;
    const faction = req.body.faction?.trim();
    const a = actionInput('amend', {
      gameId,
      turn: whole(req.body.turn, 'turn'),
      reason: checkReason(req.body.reason),
      advances,
      faction,
      sheet: req.body.sheet,
      confirm: req.body.confirm === 'yes',
    });
    await amendTurn(
      app.db,
      {
        gameId: a.gameId,
        turn: a.turn,
        reason: a.reason,
        advances,
        ...(faction ? { correctedSheets: { [faction]: a.sheet ?? '' } } : {}),
        confirmOutsideWindow: a.confirm === true,
      },
      ctx(req),
    );
    return 'amended';
  });

  action('/games/:game/rollback', async (req, gameId) => {
    const a = actionInput('rollback', { gameId, hours: whole(req.body.hours, 'hours'), reason: checkReason(req.body.reason) });
    await rollBackTurn(app.db, a.gameId, a.reason, new Date(Date.now() + a.hours * 3_600_000), ctx(req));
    return 'rolled-back';
  });

  action<{ player: string }>('/games/:game/players/:player/replace', async (req, gameId) => {
    const seat = await findPlayer(app.db, whole(req.params.player, 'player'));
    if (!seat || seat.gameId !== gameId) throw new GameError('no-player', 'no such player in this game');
    const a = actionInput('replace', {
      gameId,
      faction: seat.faction,
      email: req.body.email ?? '',
      lang: req.body.lang === 'it' ? 'it' : 'en',
      reason: checkReason(req.body.reason),
    });
    await replacePlayer(app.db, a.gameId, a.faction, { email: a.email, lang: a.lang ?? 'en' }, a.reason, ctx(req));
    return 'replaced';
  });

  /** A seated player of this game, by the id in the URL (a vacant seat has none, D-SEAT-1). */
  async function seated(playerParam: string, gameId: string) {
    const p = await findPlayer(app.db, whole(playerParam, 'player'));
    if (!p || p.gameId !== gameId || p.removedAt) throw new GameError('no-player', 'no such player in this game');
    return p;
  }

  action<{ player: string }>('/games/:game/players/:player/remove', async (req, gameId) => {
    const p = await seated(req.params.player, gameId);
    const a = actionInput('remove', { gameId, player: p.faction, reason: checkReason(req.body.reason) });
    await removePlayer(app.db, a.gameId, p.faction, a.reason, ctx(req));
    return 'removed';
  });

  action<{ player: string }>('/games/:game/players/:player/addresses', async (req, gameId) => {
    const p = await seated(req.params.player, gameId);
    const change = req.body.change;
    if (change !== 'add' && change !== 'remove' && change !== 'primary') throw new GameError('invalid-input', 'say add, remove or primary');
    const a = actionInput('address', {
      gameId,
      player: p.faction,
      change,
      email: req.body.email ?? '',
      reason: checkReason(req.body.reason),
    });
    await changePlayerAddress(app.db, a.gameId, p.faction, a.change, a.email, a.reason, ctx(req));
    return `address-${change}`;
  });

  action('/games/:game/pause', async (req, gameId) => {
    const a = actionInput('pause', { gameId, reason: checkReason(req.body.reason) });
    await pauseGame(app.db, a.gameId, a.reason, ctx(req));
    return 'paused';
  });

  // R-WIN-2: an empty field means no last turn.
  action('/games/:game/length', async (req, gameId) => {
    const v = req.body.lastTurn?.trim() ?? '';
    const a = actionInput('length', {
      gameId,
      lastTurn: v === '' ? null : whole(v, 'the last turn'),
      reason: checkReason(req.body.reason),
    });
    await setLastTurn(app.db, a.gameId, a.lastTurn, a.reason, ctx(req));
    return 'length';
  });

  // docs/press.md §3: every field comes with the value the form showed (`was_<field>`); only a field
  // this referee changed is sent, so a stale form never reverts another referee's change (D-PRESS-20).
  // A field without its `was_` (a hand-made post) is sent as given; only what differs changes.
  action('/games/:game/press-settings', async (req, gameId) => {
    const b = req.body;
    const given = (field: string) => {
      const v = b[field]?.trim();
      if (v === undefined || v === '') return undefined;
      const was = b[`was_${field}`]?.trim();
      return was !== undefined && was === v ? undefined : v;
    };
    const priv = given('private');
    if (priv !== undefined && priv !== 'yes' && priv !== 'no')
      throw new GameError('invalid-input', 'messages to some factions: say yes or no');
    const maxChars = given('maxChars');
    const perHour = given('perHour');
    const a = actionInput('press', {
      gameId,
      press: Object.fromEntries(
        Object.entries({
          mode: given('mode'),
          private: priv === undefined ? undefined : priv === 'yes',
          open: given('open'),
          observers: given('observers'),
          reveal: given('reveal'),
          maxChars: maxChars === undefined ? undefined : whole(maxChars, 'the longest message'),
          perHour: perHour === undefined ? undefined : whole(perHour, 'messages an hour'),
        }).filter(([, v]) => v !== undefined),
      ),
      reason: checkReason(b.reason),
    });
    const r = await changePressSettings(app.db, a.gameId, a.press, a.reason, ctx(req));
    return r.changed.length ? 'press-settings' : 'press-unchanged';
  });

  action('/games/:game/resume', async (req, gameId) => {
    const a = actionInput('resume', { gameId, reason: checkReason(req.body.reason) });
    await resumeGame(app.db, a.gameId, a.reason, ctx(req));
    return 'resumed';
  });

  action<{ id: string }>('/games/:game/outbox/:id/drop', async (req, gameId) => {
    const a = actionInput('dropMail', { gameId, outboxId: whole(req.params.id, 'mail'), reason: req.body.reason ?? '' });
    await dropMail(app.db, a.gameId, a.outboxId, req.body.reason, ctx(req));
    return 'dropped';
  });
}
