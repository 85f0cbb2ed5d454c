import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', async (req, reply) => {
    try {
      await app.db.execute(sql`select 1`);
    } catch (err) {
      // Unhealthy, not broken: the database is away (a restart, a cut) and the service waits for it.
      req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'health: the database does not answer');
      return reply.code(503).send({ ok: false, database: 'unreachable' });
    }
    return reply.send({ ok: true });
  });
}
