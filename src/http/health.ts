import type { FastifyInstance } from 'fastify';
import { ping } from '../db/client.ts';

/** The service's loops that have stopped moving (intake, sending, the turn job); none in tests without them. */
export type StuckLoops = () => string[];

export async function healthRoutes(app: FastifyInstance, opts: { stuck?: StuckLoops }): Promise<void> {
  // Said once an outage, and once when it ends: a probe every few seconds would repeat it for as long as the database is away.
  let away = false;
  app.get('/health', async (req, reply) => {
    try {
      await ping(app.db);
    } catch (err) {
      // Unhealthy, not broken: the database is away (a restart, a cut) and the service waits for it.
      if (!away) req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'health: the database does not answer');
      away = true;
      return reply.code(503).send({ ok: false, database: 'unreachable' });
    }
    if (away) req.log.warn('health: the database answers again');
    away = false;
    const stuck = opts.stuck?.() ?? [];
    if (stuck.length) {
      req.log.warn({ stuck }, 'health: a loop of the service has stopped moving');
      return reply.code(503).send({ ok: false, stuck });
    }
    return reply.send({ ok: true });
  });
}
