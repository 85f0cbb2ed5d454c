// An observer's unsubscribe link (issue 9): GET shows one button, POST ends the subscription —
// also as RFC 8058's one-click POST that mail clients send from the List-Unsubscribe-Post header.
// A GET never unsubscribes: link checkers and mail scanners follow links.
import type { FastifyInstance } from 'fastify';
import { unsubscribe } from '../../db/observers.ts';
import { escapeHtml } from '../html.ts';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title></head><body><main><h1>Starts Foundation</h1>${body}</main></body></html>`;

export async function unsubscribeRoutes(app: FastifyInstance): Promise<void> {
  // The one-click POST carries `List-Unsubscribe=One-Click` as a form body; nothing else is read.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) => done(null, {}));
  }
  app.get<{ Params: { token: string } }>('/unsubscribe/:token', async (req, reply) => {
    if (!TOKEN.test(req.params.token)) return reply.code(404).type('text/html; charset=utf-8').send(page('<p>This link is not valid.</p>'));
    const action = `/unsubscribe/${escapeHtml(req.params.token)}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page(`<p>Stop receiving the edicts of this game?</p><form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`));
  });
  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (req, reply) => {
    const ended = TOKEN.test(req.params.token) && (await unsubscribe(app.db, req.params.token));
    // The same answer whether or not the token was known: it tells a guesser nothing.
    req.log.info({ ended }, 'observer unsubscribe');
    return reply.type('text/html; charset=utf-8').send(page('<p>You will receive no more edicts of this game.</p>'));
  });
}
