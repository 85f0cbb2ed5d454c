// The public HTML pages: the games, a game's page, and the archive of edicts with a permanent
// link for every version (R-EDICT-3). No login; nothing from a sheet before its deadline.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../adjudicator/types.ts';
import { findGame } from '../../db/games.ts';
import { revealedPress } from '../../db/press.ts';
import { edictHeaders, gameSummaries, publicEdict } from '../../db/public-views.ts';
import { boardFor, pressSettingsOf } from '../../games/index.ts';
import { pageLang } from '../web/lang.ts';
import { PAGE_CSP, RenderCache, sendRendered } from '../web/respond.ts';
import { GAME_ID, NUMBER, loadGame } from './load.ts';
import { edictChanges } from './edict-diff.ts';
import { mapPicture } from './maps.ts';
import { edictPage, gamePage, homePage, notFoundPage, revealPage } from './views.ts';
import { classicMap } from '../../adjudicator/map.ts';

export interface PublicOptions {
  /** How long a rendered page is reused (ms); 0 renders every request. */
  cacheMs?: number;
}

const HTML = 'text/html; charset=utf-8';
const VARY = 'Accept-Language, Cookie';

export async function publicPages(app: FastifyInstance, opts: PublicOptions): Promise<void> {
  const cache = new RenderCache(opts.cacheMs ?? 1000);

  /** `render` gives the page, a page with another status (a 404 with something to say), or null for the plain 404. */
  function answer(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    render: (lang: Lang) => Promise<string | { body: string; status: number } | null>,
  ) {
    const lang = pageLang(req, reply);
    const produce = async () => {
      const r = await render(lang);
      return r === null ? null : typeof r === 'string' ? { body: r, type: HTML } : { ...r, type: HTML };
    };
    return cache.serve(`${lang} ${key}`, produce, (r) => {
      if (!r) return reply.code(404).header('vary', VARY).header('content-security-policy', PAGE_CSP).type(HTML).send(notFoundPage(lang));
      return sendRendered(req, reply, r, { vary: VARY, maxAge: cache.maxAge });
    });
  }

  app.get('/', (req, reply) =>
    answer(req, reply, '/', async (lang) => {
      return homePage(lang, classicMap(), await gameSummaries(app.db));
    }),
  );

  app.get<{ Params: { game: string } }>('/games/:game', (req, reply) =>
    answer(req, reply, `game ${req.params.game}`, async (lang) => {
      const d = await loadGame(app.db, req.params.game);
      if (!d) return null;
      const map = mapPicture(d.board, d.lastEdict?.json ?? d.turn.state, lang, d.game.name);
      return gamePage(lang, d.board, { ...d, game: d.game, map });
    }),
  );

  // D-PRESS-18: a finished game's messages between players, when its press setting reveal = at-end;
  // otherwise a 404 that says they are not published. Looked up inside the cached answer, as every
  // page: a crowd asking for it costs one query per TTL, not one per request.
  app.get<{ Params: { game: string } }>('/games/:game/press', (req, reply) =>
    answer(req, reply, `press ${req.params.game}`, async (lang) => {
      const id = req.params.game;
      const game = GAME_ID.test(id) ? await findGame(app.db, id) : null;
      if (!game) return null;
      const board = boardFor(game.map);
      if (!(game.status === 'finished' && pressSettingsOf(game.pressSettings).reveal === 'at-end'))
        return { body: revealPage(lang, { game, board, messages: null }), status: 404 };
      return revealPage(lang, { game, board, messages: await revealedPress(app.db, game.id) });
    }),
  );

  const edictRoute =
    (version: (p: { k?: string }) => number | undefined | null) =>
    (req: FastifyRequest<{ Params: { game: string; n: string; k?: string } }>, reply: FastifyReply) => {
      const { game: id, n } = req.params;
      const k = version(req.params);
      return answer(req, reply, `edict ${id} ${n} ${k ?? 'latest'}`, async (lang) => {
        if (!GAME_ID.test(id) || !NUMBER.test(n) || k === null) return null;
        const game = await findGame(app.db, id);
        if (!game) return null;
        const edict = await publicEdict(app.db, id, Number(n), k);
        if (!edict) return null;
        const versions = await edictHeaders(app.db, id, edict.turn);
        const board = boardFor(game.map);
        const previous = edict.version > 1 ? await publicEdict(app.db, id, edict.turn, edict.version - 1) : null;
        const changes = previous ? edictChanges(board, previous.json, edict.json, lang) : null;
        return edictPage(lang, { game, board, edict, versions, changes, map: mapPicture(board, edict.json, lang, game.name) });
      });
    };
  app.get(
    '/games/:game/turns/:n',
    edictRoute(() => undefined),
  );
  app.get(
    '/games/:game/turns/:n/v/:k',
    edictRoute((p) => (p.k !== undefined && NUMBER.test(p.k) ? Number(p.k) : null)),
  );
}
