// The JSON API: everything the public pages show, as data, under /api, described by OpenAPI
// (@fastify/swagger collects the schemas below) and served at /api/openapi.json. Same rules as
// the pages: no addresses, no secrets, no sheet before its deadline.
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { edictHeaders, gameSummaries, publicEdict } from '../../db/public-views.ts';
import { GAME_ID, NUMBER, gameJson, loadGame } from '../public/load.ts';
import type { PublicOptions } from '../public/pages.ts';
import { RenderCache, safeJson, sendRendered } from '../web/respond.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const error = { type: 'object', properties: { error: { type: 'string' } } } as const;
/**
 * Every status a route answers besides 200 (a client generated from the spec handles each): 304 to
 * a matching If-None-Match, 503 while the service is starting, and for a route with parameters 400
 * when one does not have its shape (`/turns/abc`) and 404 when nothing has that name.
 */
const always = {
  304: { description: 'Not modified: the ETag sent in If-None-Match still holds', type: 'null' },
  503: { description: 'The service is starting: try again in a moment', ...error },
} as const;
const withParams = {
  ...always,
  400: { description: 'A parameter does not have its shape', ...error },
  404: { description: 'No such game, turn or version', ...error },
} as const;
const gameParam = { type: 'string', pattern: GAME_ID.source, description: 'The game id (a slug)' } as const;
const numberParam = { type: 'string', pattern: NUMBER.source } as const;
const iso = { type: 'string', format: 'date-time' } as const;
const nullable = <T extends object>(s: T) => ({ anyOf: [s, { type: 'null' }] });
const faction = { type: 'string', description: 'A faction id of the map' } as const;
const received = { type: 'string', enum: ['none', 'problems', 'valid'] } as const;
const edictHeader = {
  type: 'object',
  properties: { turn: { type: 'integer' }, version: { type: 'integer' }, reason: nullable({ type: 'string' }), createdAt: iso },
} as const;
const summary = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'paused', 'finished'] },
    turn: { type: 'integer' },
    deadline: nullable(iso),
    chancellor: nullable(faction),
    factions: { type: 'array', items: faction },
  },
} as const;
const game = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string' },
    map: { type: 'string' },
    timeZone: { type: 'string' },
    weeklyDeadline: { type: 'string' },
    victoryPlanets: { type: 'integer' },
    lastTurn: { type: ['integer', 'null'] },
    turn: {
      type: 'object',
      properties: {
        number: { type: 'integer' },
        status: { type: 'string', enum: ['open', 'adjudicated'] },
        election: { type: 'boolean' },
        chancellor: nullable(faction),
        deadline: nullable(iso),
        declarationDeadline: nullable(iso),
        factions: { type: 'array', items: faction },
        units: { type: 'array', items: { type: 'object', properties: { side: { type: 'string' }, at: { type: 'string' } } } },
      },
    },
    players: {
      type: 'array',
      items: { type: 'object', properties: { faction, joinedTurn: { type: 'integer' }, inPlay: { type: 'boolean' } } },
    },
    ordersReceived: {
      type: 'object',
      additionalProperties: received,
      description: 'Whether each faction has sent orders; never what they say (R-TURN-2)',
    },
    chancellorDeclaration: nullable({
      type: 'object',
      description: "The Chancellor's sheet, as parsed, once accepted (R-TURN-3)",
      properties: {
        faction,
        receivedAt: iso,
        hostility: { type: 'array', items: { type: 'string' } },
        orders: { type: 'array', items: { type: 'string' } },
      },
    }),
    planets: nullable({
      type: 'object',
      properties: { afterTurn: { type: 'integer' }, byFaction: { type: 'object', additionalProperties: { type: 'integer' } } },
    }),
    edicts: { type: 'array', items: edictHeader },
    broadcasts: nullable({
      type: 'object',
      description: 'Messages to everyone, newest first, when the game publishes them (press setting observers = broadcasts); else null',
      properties: {
        total: { type: 'integer' },
        newest: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              turn: { type: 'integer' },
              writer: { type: ['string', 'null'], description: "The writer's faction, 'referee', or null when anonymous (D-PRESS-10)" },
              sign: { type: 'string', enum: ['signed', 'anonymous'] },
              text: { type: 'string' },
              at: iso,
            },
          },
        },
      },
    }),
  },
} as const;
const edictVersion = {
  type: 'object',
  properties: {
    ...edictHeader.properties,
    closedLate: nullable({
      type: 'object',
      description: 'Set when the turn was closed after its deadline because the service was not running then',
      properties: { deadline: { type: 'string', format: 'date-time' }, closedAt: { type: 'string', format: 'date-time' } },
    }),
    text: { type: 'object', properties: { it: { type: 'string' }, en: { type: 'string' } } },
    edict: { type: 'object', additionalProperties: true, description: 'The Imperial Edict as the adjudicator wrote it' },
  },
} as const;

export async function apiRoutes(app: FastifyInstance, opts: PublicOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Starts Foundation public API',
        version: '1',
        description: 'Games, turns and Imperial Edicts: everything the public pages show.',
      },
    },
  });
  const cache = new RenderCache(opts.cacheMs ?? 1000);
  const answer = (req: FastifyRequest, reply: FastifyReply, key: string, make: () => Promise<unknown>) => {
    const produce = async () => {
      const data = await make();
      return data === null ? null : { body: safeJson(data), type: JSON_TYPE };
    };
    return cache.serve(key, produce, (r) =>
      r ? sendRendered(req, reply, r, { maxAge: cache.maxAge }) : reply.code(404).type(JSON_TYPE).send({ error: 'not found' }),
    );
  };

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/api/games',
    {
      schema: { summary: 'Every game', response: { 200: { type: 'array', items: summary }, ...always } },
    },
    (req, reply) =>
      answer(req, reply, 'games', async () =>
        (await gameSummaries(app.db)).map((g) => ({
          id: g.id,
          name: g.name,
          status: g.status,
          turn: g.turn,
          deadline: g.status !== 'finished' && g.turnStatus === 'open' && g.deadline ? g.deadline.toISOString() : null,
          chancellor: g.chancellor,
          factions: g.factions,
        })),
      ),
  );

  app.get<{ Params: { game: string } }>(
    '/api/games/:game',
    {
      schema: {
        summary: "A game's public state",
        params: { type: 'object', properties: { game: gameParam } },
        response: { 200: game, ...withParams },
      },
    },
    (req, reply) =>
      answer(req, reply, `game ${req.params.game}`, async () => {
        const d = await loadGame(app.db, req.params.game);
        return d ? gameJson(d) : null;
      }),
  );

  app.get<{ Params: { game: string } }>(
    '/api/games/:game/edicts',
    {
      schema: {
        summary: 'The archive: every version of every edict',
        params: { type: 'object', properties: { game: gameParam } },
        response: { 200: { type: 'array', items: edictHeader }, ...withParams },
      },
    },
    (req, reply) =>
      answer(req, reply, `edicts ${req.params.game}`, async () => {
        if (!GAME_ID.test(req.params.game)) return null;
        const list = await edictHeaders(app.db, req.params.game);
        if (list.length === 0 && !(await gameSummaries(app.db, req.params.game)).length) return null;
        return list.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
      }),
  );

  const oneEdict = (req: FastifyRequest<{ Params: { game: string; n: string; k?: string } }>, reply: FastifyReply) => {
    const { game: id, n, k } = req.params;
    return answer(req, reply, `edict ${id} ${n} ${k ?? 'latest'}`, async () => {
      if (!GAME_ID.test(id) || !NUMBER.test(n) || (k !== undefined && !NUMBER.test(k))) return null;
      const e = await publicEdict(app.db, id, Number(n), k === undefined ? undefined : Number(k));
      return (
        e && {
          turn: e.turn,
          version: e.version,
          reason: e.reason,
          createdAt: e.createdAt.toISOString(),
          closedLate: e.closedLate,
          text: { it: e.textIt, en: e.textEn },
          edict: e.json,
        }
      );
    });
  };
  const turnParams = { type: 'object', properties: { game: gameParam, n: numberParam } } as const;
  app.get(
    '/api/games/:game/turns/:n',
    {
      schema: { summary: "The newest version of a turn's edict", params: turnParams, response: { 200: edictVersion, ...withParams } },
    },
    oneEdict,
  );
  app.get(
    '/api/games/:game/turns/:n/v/:k',
    {
      schema: {
        summary: "One version of a turn's edict (a permanent link, R-EDICT-3)",
        params: { type: 'object', properties: { ...turnParams.properties, k: numberParam } },
        response: { 200: edictVersion, ...withParams },
      },
    },
    oneEdict,
  );
}
