// The Fastify app, built apart from the launcher so tests use app.inject. One plugin per route
// group; repositories are reached through the `db` decorator. Later: edict archive, referee console.
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { healthRoutes } from './health.ts';
import { statusRoutes } from './status.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export async function buildApp(opts: { db: Db; log?: Logger }): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: opts.log as FastifyBaseLogger | undefined });
  app.decorate('db', opts.db);
  // One error handler: a 5xx never shows internals to the browser.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    void reply.code(status).send({ error: status >= 500 ? 'internal error' : err.message });
  });
  await app.register(healthRoutes);
  await app.register(statusRoutes);
  return app;
}
