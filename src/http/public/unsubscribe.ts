// An observer's unsubscribe link: GET shows one button, POST ends the subscription —
// also as RFC 8058's one-click POST that mail clients send from the List-Unsubscribe-Post header.
// A GET never unsubscribes: link checkers and mail scanners follow links. The page is the site's,
// in the observer's language (the reader's when the link is unknown), and names the game.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../adjudicator/types.ts';
import { observerByToken, unsubscribe } from '../../db/observers.ts';
import { webTexts } from '../../text/web.ts';
import { pageLang } from '../web/lang.ts';
import { PAGE_CSP } from '../web/respond.ts';
import { html, type Html } from '../web/template.ts';
import { layout } from './views.ts';

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

function send(req: FastifyRequest, reply: FastifyReply, status: number, lang: Lang, body: Html) {
  const s = webTexts[lang];
  const path = (req.raw.url ?? '/').split('?')[0]!;
  const page = layout({ lang, title: s.unsubscribeTitle, path }, html`<h1>${s.unsubscribeTitle}</h1>${body}`);
  return reply
    .code(status)
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page);
}

export async function unsubscribeRoutes(app: FastifyInstance): Promise<void> {
  // The one-click POST carries `List-Unsubscribe=One-Click` as a form body; nothing else is read.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) =>
      done(null, {}),
    );
  }
  const subscription = (token: string) => (TOKEN.test(token) ? observerByToken(app.db, token) : Promise.resolve(null));

  app.get<{ Params: { token: string } }>('/unsubscribe/:token', async (req, reply) => {
    const sub = await subscription(req.params.token);
    if (!sub) {
      const lang = pageLang(req, reply);
      return send(req, reply, 404, lang, html`<p>${webTexts[lang].unsubscribeInvalid}</p>`);
    }
    const s = webTexts[sub.lang];
    const action = `/unsubscribe/${req.params.token}`;
    return send(
      req,
      reply,
      200,
      sub.lang,
      html`<p>${s.unsubscribeAsk(sub.gameName)}</p><form method="post" action="${action}"><button type="submit">${s.unsubscribeButton}</button></form>`,
    );
  });
  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (req, reply) => {
    const sub = await subscription(req.params.token);
    const ended = sub !== null && (await unsubscribe(app.db, req.params.token));
    // The same answer whether or not the subscription was still on; a token nobody holds gets no name.
    req.log.info({ ended }, 'observer unsubscribe');
    const lang = sub?.lang ?? pageLang(req, reply);
    const s = webTexts[lang];
    return send(req, reply, 200, lang, html`<p>${sub ? s.unsubscribeDone(sub.gameName) : s.unsubscribeDoneAny}</p>`);
  });
}
