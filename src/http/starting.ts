// While the service still opens its database (PostgreSQL may take minutes to appear), it already
// listens, so that an orchestrator sees /health answer 503 instead of nothing. Every
// other request gets a friendly 503 in the reader's language and never runs a route that would
// need the database. Only /static/ passes: those files are read from disk.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../adjudicator/types.ts';
import { escapeHtml } from '../html.ts';
import { pageLang } from './web/lang.ts';

/** Seconds a client is asked to wait before trying again: the database wait retries about this often. */
const RETRY_AFTER_S = '10';

const STRINGS: Record<Lang, { title: string; text: string }> = {
  en: { title: 'Starting up', text: 'Starts Foundation is starting and will be back in a moment. Please reload this page shortly.' },
  it: { title: 'Avvio in corso', text: 'Starts Foundation si sta avviando e tornerà tra un momento. Ricarica la pagina tra poco.' },
};

export function startingPage(lang: Lang): string {
  const s = STRINGS[lang];
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(s.title)}</title></head><body><main><h1>${escapeHtml(s.title)}</h1><p>${escapeHtml(s.text)}</p></main></body></html>`
  );
}

/** Answers every request with 503 until `ready()` says the database is open. */
export function startingGate(app: FastifyInstance, ready: () => boolean): void {
  // Callback-style: once ready this runs on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (ready()) return done();
    const path = (req.raw.url ?? '/').split('?', 1)[0]!;
    if (path.startsWith('/static/')) return done();
    void reply.code(503).header('retry-after', RETRY_AFTER_S).header('cache-control', 'no-store');
    // Named, without internals: an orchestrator's probe and a person both learn what is awaited.
    if (path === '/health') return void reply.send({ ok: false, database: 'starting' });
    if (path.startsWith('/api/')) return void reply.send({ error: 'starting' });
    return void reply
      .header('vary', 'Accept-Language, Cookie')
      .type('text/html; charset=utf-8')
      .send(startingPage(pageLang(req, reply)));
  });
}
