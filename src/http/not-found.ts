// What a path nobody serves answers: under /api a JSON 404 (an API client reads JSON), elsewhere the
// site's own HTML page in the reader's language, and 405 with an Allow header when the path exists
// for other methods (a form posted to a page, a GET of a form's target). Fastify's own answer is a
// JSON echo of the method and URL, which a person cannot use.
import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';
import { notFoundPage } from './public/views.ts';
import { pageLang } from './web/lang.ts';
import { PAGE_CSP } from './web/respond.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Call before any route is registered: it learns every route as it is added (onRoute). */
export function siteNotFound(app: FastifyInstance): void {
  // A router of our own with the same routes, asked only on a miss: which methods does this path have?
  const known = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!METHODS.includes(method as (typeof METHODS)[number])) continue;
      if (!known.hasRoute(method as (typeof METHODS)[number], route.url)) known.on(method as (typeof METHODS)[number], route.url, () => {});
    }
  });
  app.setNotFoundHandler((req, reply) => {
    const path = (req.raw.url ?? '/').split('?')[0]!;
    const allowed = METHODS.filter((m) => known.find(m, path) !== null);
    if (allowed.length > 0) {
      void reply.code(405).header('allow', allowed.join(', '));
      if (path === '/api' || path.startsWith('/api/')) return reply.send({ error: 'method not allowed' });
      return reply.type('text/plain; charset=utf-8').send(`This address answers ${allowed.join(', ')} only.\n`);
    }
    if (path === '/api' || path.startsWith('/api/')) return reply.code(404).send({ error: 'not found' });
    return reply
      .code(404)
      .header('content-security-policy', PAGE_CSP)
      .header('vary', 'Accept-Language, Cookie')
      .type('text/html; charset=utf-8')
      .send(notFoundPage(pageLang(req, reply)));
  });
}
