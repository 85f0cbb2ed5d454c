// The console's pages (read-only): the referee's games, one game in full, a stored mail, and the
// preview of the open turn. Registered behind the session check (plugin.ts).
import { latestEdict } from '../../db/edicts.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Game } from '../../db/games.ts';
import { gamesOfReferee, refereedGame } from '../../db/referees.ts';
import { gameOverview, mailOfGame, mailStarts, unprocessableMail } from '../../db/referee-views.ts';
import type { AppError } from '../../errors.ts';
import { httpStatus } from '../error-status.ts';
import { boardFor, GameError, listOpenDisputes, previewTurn } from '../../games/index.ts';
import { disputesList } from './disputes-list.ts';
import { pressList } from './press-list.ts';
import { listPressForReferee } from '../../db/press.ts';
import { gamePage, INLINE_MAIL_BYTES, mailSetAside } from './game-view.ts';
import { html, layout, trusted, when, type Html } from './html.ts';
import { logoutRoute } from './login.ts';
import type { ConsoleSettings } from './settings.ts';

const GAME_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;
const NUMBER = /^[1-9][0-9]{0,8}$/;

/** What an action reports back after its redirect: fixed words, never text from the request. */
export const NOTICES: Record<string, string> = {
  extended: 'The deadline was moved and every player will be told.',
  welcome: 'The welcome mail is queued.',
  edict: 'The edict is queued.',
  retried: 'The mail is queued again.',
  dropped: 'The mail is given up.',
  amended: 'The amended edict is published and every player will get it.',
  'rolled-back': 'The turn is open again and every player will be told.',
  paused: 'The game is paused and every player will be told.',
  replaced: 'The seat has a new player; their welcome mail is queued.',
  removed: 'The player is removed: the seat is empty, and every player will be told.',
  'address-add': 'The address is added; the player will be told.',
  'address-remove': 'The address is removed; the player will be told.',
  'address-primary': 'The primary address is changed; the player will be told at both.',
  resumed: 'The game runs again and every player will be told the new deadline.',
  length: 'The length of the game is changed and every player will be told.',
  'dispute-rejected': 'The dispute is rejected; the player who disputed will be told.',
  'press-settings': 'The press settings are changed and every player will be told what changed.',
  'press-unchanged': 'The press settings are already so: nothing changed and nobody was mailed.',
};

export function sendPage(req: FastifyRequest, reply: FastifyReply, title: string, body: Html, code = 200): FastifyReply {
  return reply
    .code(code)
    .type('text/html; charset=utf-8')
    .send(layout(title, req.referee?.email ?? null, body, reply.generateCsrf()));
}

/** A refusal (src/errors.ts) as a page: its sentence is written for the referee. */
export function sendRefereeError(req: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  const code = httpStatus(err.code);
  return sendPage(
    req,
    reply,
    code === 404 ? 'Not found' : 'Not done',
    html`<p class="error" role="alert">${err.message}</p><p><a href="/referee">Back to the console</a></p>`,
    code,
  );
}

/** The game named in the URL, if the logged-in referee runs it; otherwise a 404 page is sent. */
export async function gameOf(
  app: FastifyInstance,
  req: FastifyRequest<{ Params: { game: string } }>,
  reply: FastifyReply,
): Promise<Game | null> {
  const game = GAME_ID.test(req.params.game) ? await refereedGame(app.db, req.referee!.id, req.params.game) : null;
  if (!game) sendRefereeError(req, reply, new GameError('no-game', 'You run no game of that name.'));
  return game;
}

export async function pageRoutes(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  await app.register(logoutRoute, settings);

  app.get('/', async (req, reply) => {
    const [games, loose] = await Promise.all([gamesOfReferee(app.db, req.referee!.id), unprocessableMail(app.db, null)]);
    const list = games.map(
      (g) =>
        html`<li><a href="/referee/games/${encodeURIComponent(g.id)}">${g.name}</a> (<code>${g.id}</code>, ${g.status}, turn ${g.currentTurn})</li>`,
    );
    // The page's own heading already says "Your games".
    const body = html`${list.length ? html`<ul>${list}</ul>` : html`<p>You run no game yet (sf referee assign &lt;game&gt; &lt;email&gt;).</p>`}${mailSetAside(
      loose,
      '/referee/unassigned',
      'Mail set aside that names no game',
    )}`;
    return sendPage(req, reply, 'Your games', body);
  });

  app.get<{ Params: { game: string }; Querystring: { turn?: string; done?: string } }>('/games/:game', async (req, reply) => {
    const game = await gameOf(app, req, reply);
    if (!game) return reply;
    const turn = req.query.turn !== undefined && NUMBER.test(req.query.turn) ? Number(req.query.turn) : undefined;
    const o = await gameOverview(app.db, game, turn);
    const ids = o.sheets.flatMap((f) => f.versions.flatMap((s) => (s.inboundId === null ? [] : [s.inboundId])));
    const starts = await mailStarts(app.db, ids, INLINE_MAIL_BYTES);
    const notice = req.query.done !== undefined && Object.hasOwn(NOTICES, req.query.done) ? NOTICES[req.query.done]! : null;
    // The turn a dispute can be about: the last closed one (its next turn still open, or the game over).
    const lastClosed = game.status === 'finished' ? game.currentTurn : game.currentTurn - 1;
    const last = lastClosed >= 1 ? await latestEdict(app.db, game.id, lastClosed) : null;
    const disputes = await listOpenDisputes(app.db, game.id, { settledToo: true });
    return sendPage(req, reply, game.name, gamePage({ o, last, mailStarts: starts, csrf: reply.generateCsrf(), notice, disputes }));
  });

  // The address the disputes' mails give: the game's disputes alone, each with its reject form.
  app.get<{ Params: { game: string } }>('/games/:game/disputes', async (req, reply) => {
    const game = await gameOf(app, req, reply);
    if (!game) return reply;
    const gameBase = `/referee/games/${encodeURIComponent(game.id)}`;
    const list = await listOpenDisputes(app.db, game.id, { settledToo: true });
    return sendPage(
      req,
      reply,
      `Disputes of ${game.name}`,
      html`<p><a href="${gameBase}">Back to ${game.name}</a> (amend a turn there) · <a href="${gameBase}/press">its press</a></p>${disputesList(gameBase, list, reply.generateCsrf(), boardFor(game.map))}`,
    );
  });

  // Every message of the game's press with its writer (anonymous ones too: referees see who wrote).
  app.get<{ Params: { game: string } }>('/games/:game/press', async (req, reply) => {
    const game = await gameOf(app, req, reply);
    if (!game) return reply;
    const gameBase = `/referee/games/${encodeURIComponent(game.id)}`;
    const list = await listPressForReferee(app.db, game.id);
    return sendPage(
      req,
      reply,
      `Press of ${game.name}`,
      html`<p><a href="${gameBase}">Back to ${game.name}</a></p>${pressList(list, boardFor(game.map), game.timeZone)}`,
    );
  });

  const showMail = async (req: FastifyRequest, reply: FastifyReply, gameId: string, id: string, back: string) => {
    const raw = NUMBER.test(id) ? await mailOfGame(app.db, gameId, Number(id)) : null;
    if (!raw) return sendRefereeError(req, reply, new GameError('no-mail', 'There is no such mail.'));
    return sendPage(req, reply, `Mail ${id}`, html`<p><a href="${back}">Back</a></p><pre>${raw.toString('utf8')}</pre>`);
  };

  app.get<{ Params: { game: string; id: string } }>('/games/:game/mail/:id', async (req, reply) => {
    const game = await gameOf(app, req, reply);
    if (!game) return reply;
    return showMail(req, reply, game.id, req.params.id, `/referee/games/${encodeURIComponent(game.id)}`);
  });

  // Mail set aside without a game: any referee may read it (only a person can sort it out).
  app.get<{ Params: { id: string } }>('/unassigned/mail/:id', async (req, reply) => showMail(req, reply, '', req.params.id, '/referee'));

  app.get<{ Params: { game: string } }>('/games/:game/preview', async (req, reply) => {
    const game = await gameOf(app, req, reply);
    if (!game) return reply;
    try {
      const p = await previewTurn(app.db, game);
      const standing = Object.entries(p.standing).map(([f, v]) => html`<li>${f}: version ${v}</li>`);
      return sendPage(
        req,
        reply,
        `Preview of turn ${p.turn}: ${game.name}`,
        html`<p class="notice" role="status">A preview: if turn ${p.turn} closed now (deadline ${when(p.deadline)}). Nothing is stored, mailed or published.</p>
<p><a href="/referee/games/${encodeURIComponent(game.id)}">Back to the game</a></p>
<h2>Sheets that stand</h2>${standing.length ? html`<ul>${standing}</ul>` : html`<p>None: every player would miss the turn.</p>`}
<h2>Map</h2><div class="map">${trusted(p.svg)}</div>
<h2>Edict (English)</h2><pre>${p.textEn}</pre><h2>Editto (italiano)</h2><pre lang="it">${p.textIt}</pre>`,
      );
    } catch (err) {
      if (err instanceof GameError) return sendRefereeError(req, reply, err);
      throw err;
    }
  });
}
