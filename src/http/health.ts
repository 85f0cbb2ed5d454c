import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** The service's loops that have stopped moving (intake, sending, the turn job); none in tests without them. */
export type StuckLoops = () => string[];

export async function healthRoutes(app: FastifyInstance, opts: { stuck?: StuckLoops }): Promise<void> {
  app.get('/health', async (req, reply) => {
    try {
      await app.db.execute(sql`select 1`);
    } catch (err) {
      // Unhealthy, not broken: the database is away (a restart, a cut) and the service waits for it.
      req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'health: the database does not answer');
      return reply.code(503).send({ ok: false, database: 'unreachable' });
    }
    const stuck = opts.stuck?.() ?? [];
    if (stuck.length) {
      req.log.warn({ stuck }, 'health: a loop of the service has stopped moving');
      return reply.code(503).send({ ok: false, stuck });
    }
    return reply.send({ ok: true });
  });
}
