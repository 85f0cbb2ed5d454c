// What the pages link to besides pages: our stylesheet and script (same-origin files, so the CSP
// needs no inline exception), the maps as PNG, and each edict version as JSON.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findGame } from '../../db/games.ts';
import { publicEdict } from '../../db/public-views.ts';
import { boardFor } from '../../games/index.ts';
import { RenderCache, safeJson, etagOf, sendRendered, type Rendered } from '../web/respond.ts';
import { GAME_ID, NUMBER, loadGame } from './load.ts';
import { mapPicture, mapPng } from './maps.ts';
import { requestLang } from '../web/lang.ts';
import type { PublicOptions } from './pages.ts';

const staticDir = new URL('../../../templates/web/static/', import.meta.url);
const STATIC: Record<string, string> = { 'site.css': 'text/css; charset=utf-8', 'local-time.js': 'text/javascript; charset=utf-8' };

export async function publicFiles(app: FastifyInstance, opts: PublicOptions): Promise<void> {
  const cache = new RenderCache(opts.cacheMs ?? 1000);
  const started = new Date();
  const files = new Map<string, Rendered>(
    Object.entries(STATIC).map(([name, type]) => {
      const body = readFileSync(fileURLToPath(new URL(name, staticDir)));
      return [name, { body, type, etag: etagOf(body), lastModified: started }];
    }),
  );
  app.get<{ Params: { file: string } }>('/static/:file', async (req, reply) => {
    const f = Object.hasOwn(STATIC, req.params.file) ? files.get(req.params.file) : undefined;
    if (!f) return reply.code(404).send({ error: 'not found' });
    return sendRendered(req, reply, f);
  });

  const send = async (
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    make: () => Promise<{ body: string | Buffer; type: string } | null>,
    vary?: string,
  ) => {
    const r = await cache.get(key, make);
    if (!r) return reply.code(404).send({ error: 'not found' });
    return sendRendered(req, reply, r, { maxAge: cache.maxAge, ...(vary ? { vary } : {}) });
  };
  /** A map without ?lang= is in the reader's language, which caches must tell apart. */
  const LANG_VARY = 'Accept-Language, Cookie';
  const version = (k: string | undefined) => (k === undefined ? undefined : NUMBER.test(k) ? Number(k) : null);

  // The PNG in the language of the page that links to it (?lang=), else the reader's (D-EDICT-2).
  app.get<{ Params: { game: string } }>('/games/:game/map.png', (req, reply) => {
    const lang = requestLang(req);
    return send(
      req,
      reply,
      `png ${lang} ${req.params.game}`,
      async () => {
        const d = await loadGame(app.db, req.params.game);
        if (!d) return null;
        const { svg } = mapPicture(d.board, d.lastEdict?.json ?? d.turn.state, lang, d.game.name);
        return { body: await mapPng(svg), type: 'image/png' };
      },
      LANG_VARY,
    );
  });

  type EdictParams = { Params: { game: string; n: string; k?: string } };
  const edictOf = async (p: EdictParams['Params']) => {
    const k = version(p.k);
    if (!GAME_ID.test(p.game) || !NUMBER.test(p.n) || k === null) return null;
    const game = await findGame(app.db, p.game);
    const edict = game && (await publicEdict(app.db, game.id, Number(p.n), k));
    return game && edict ? { game, edict } : null;
  };
  const png = (req: FastifyRequest<EdictParams>, reply: FastifyReply) => {
    const lang = requestLang(req);
    return send(
      req,
      reply,
      `png ${lang} ${req.params.game} ${req.params.n} ${req.params.k ?? 'latest'}`,
      async () => {
        const found = await edictOf(req.params);
        if (!found) return null;
        const { svg } = mapPicture(boardFor(found.game.map), found.edict.json, lang, found.game.name);
        return { body: await mapPng(svg), type: 'image/png' };
      },
      LANG_VARY,
    );
  };
  const json = (req: FastifyRequest<EdictParams>, reply: FastifyReply) =>
    send(req, reply, `json ${req.params.game} ${req.params.n} ${req.params.k ?? 'latest'}`, async () => {
      const found = await edictOf(req.params);
      return found ? { body: safeJson(found.edict.json), type: 'application/json; charset=utf-8' } : null;
    });
  app.get('/games/:game/turns/:n/map.png', png);
  app.get('/games/:game/turns/:n/v/:k/map.png', png);
  app.get('/games/:game/turns/:n/edict.json', json);
  app.get('/games/:game/turns/:n/v/:k/edict.json', json);
}
