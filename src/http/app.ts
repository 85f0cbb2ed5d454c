// The Fastify app, built apart from the launcher so tests use app.inject. One plugin per route
// group (health, status, the referee console under /referee, the public pages with the edict
// archive); repositories are reached through the `db` decorator.
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { TrustProxy } from '../config.ts';
import type { Db } from '../db/client.ts';
import { healthRoutes, type StuckLoops } from './health.ts';
import { siteNotFound } from './not-found.ts';
import { lazyChildLogger, OneLineRequestLog } from './request-log.ts';
import { refereeConsole, type RefereeConsoleOptions } from './referee/plugin.ts';
import { publicRoutes } from './public/index.ts';
import { RefusedRequest, securityHooks } from './security.ts';
import { startingGate } from './starting.ts';
import { statusRoutes } from './status.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export async function buildApp(opts: {
  /**
   * The database; or, while the service is still opening it (it listens first, so /health answers), a way to
   * ask whether it is open yet: until then every request is answered 503 and no route runs.
   */
  db: Db | (() => Db | null);
  log?: Logger;
  /** How long public pages are reused, ms (default 1000; 0 in tests that change data between requests). */
  publicCacheMs?: number;
  /** PUBLIC_URL, for the absolute links of the feeds. */
  publicUrl?: string;
  /** The referee console's mail addressing and cookie security (refereeConsoleOptions(config)). */
  referee?: RefereeConsoleOptions;
  /** The service's stuck loops, for /health. */
  stuck?: StuckLoops;
  /** TRUST_PROXY: whom to believe about X-Forwarded-For (Fastify's trustProxy); default nobody. */
  trustProxy?: TrustProxy;
}): Promise<FastifyInstance> {
  // One line per request, and a request's child logger only when something logs through it (request-log.ts).
  const requestLog = new OneLineRequestLog();
  const app = Fastify({
    loggerInstance: opts.log as FastifyBaseLogger | undefined,
    logController: requestLog,
    // A number of hops as Fastify reads one (its types take no number): the nearest n proxies.
    trustProxy:
      typeof opts.trustProxy === 'number'
        ? (
            (hops) => (_addr: string, hop: number) =>
              hop < hops
          )(opts.trustProxy)
        : (opts.trustProxy ?? false),
    ...(opts.log ? { childLoggerFactory: lazyChildLogger } : {}),
  });
  requestLog.use(app.log);
  const db = opts.db;
  if (typeof db === 'function') {
    // A getter: routes read app.db per request, and the gate keeps them from running before it is set.
    app.decorate('db', {
      getter(): Db {
        const open = db();
        if (!open) throw new Error('the database is not open yet');
        return open;
      },
    });
  } else {
    app.decorate('db', db);
  }
  securityHooks(app, { hsts: opts.publicUrl?.startsWith('https:') ?? false });
  siteNotFound(app);
  if (typeof db === 'function') startingGate(app, () => db() !== null);
  // One error handler: no error shows internals, or echoes what the request sent (a 4xx message
  // from Fastify may quote the URL), to the browser.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ err: err.message, status }, 'request refused');
    // A refusal of ours says what to change; any other shows only its status's name.
    const message = err instanceof RefusedRequest ? err.message : (STATUS_CODES[status] ?? 'bad request').toLowerCase();
    void reply.code(status).send({ error: status >= 500 ? 'internal error' : message });
  });
  await app.register(healthRoutes, { stuck: opts.stuck });
  await app.register(statusRoutes);
  await app.register(refereeConsole, { ...opts.referee, prefix: '/referee' });
  await app.register(publicRoutes, { cacheMs: opts.publicCacheMs, publicUrl: opts.publicUrl });
  return app;
}
