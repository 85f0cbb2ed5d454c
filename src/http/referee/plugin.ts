// The referee console under /referee (issue 10): one encapsulated plugin. The login routes stand
// outside the session check; everything else is registered in a child scope behind ONE onRequest
// hook that refuses without a live session (a redirect to the login page for a page, 401 for a
// POST), and every POST there must carry the CSRF token of the form it came from (403 otherwise).
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RefereeView } from '../../referee/accounts.ts';
import type { MailAddressing } from '../../games/welcome.ts';
import { sessionReferee } from '../../referee/sessions.ts';
import { actionRoutes } from './action-routes.ts';
import { loginRoutes } from './login.ts';
import { pageRoutes } from './pages.ts';
import { refuseNul } from '../security.ts';

export interface RefereeConsoleOptions {
  /** For the mail the actions send; without it, `orders@localhost`. */
  mail?: MailAddressing;
  /** PUBLIC_URL, for links in that mail. */
  publicUrl?: string;
  /** true when PUBLIC_URL is https; 'auto' (the default): Secure when the request came over TLS. */
  secureCookies?: boolean | 'auto';
  /** Login attempts allowed per IP and per account in each window (default 30 and 10 per 15 minutes). */
  loginLimit?: { perIp?: number; perAccount?: number; windowMs?: number };
}

export interface ConsoleSettings {
  mail: MailAddressing;
  publicUrl?: string;
  cookie: { path: string; httpOnly: true; sameSite: 'strict'; secure: boolean | 'auto' };
  loginLimit: { perIp: number; perAccount: number; windowMs: number };
}

export const SESSION_COOKIE = 'sf_referee';

declare module 'fastify' {
  interface FastifyRequest {
    referee: RefereeView | null;
  }
}

/** The options for the console from the service's configuration. */
export function refereeConsoleOptions(config: { http: { publicUrl: string }; mail: MailAddressing }): RefereeConsoleOptions {
  return {
    mail: { domain: config.mail.domain, ordersLocalPart: config.mail.ordersLocalPart },
    publicUrl: config.http.publicUrl,
    secureCookies: config.http.publicUrl.startsWith('https:') ? true : 'auto',
  };
}

/** Forms post application/x-www-form-urlencoded: read with URLSearchParams (linear), first value of each name. */
function formParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    const fields: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body as string)) if (!Object.hasOwn(fields, k)) fields[k] = v;
    const refused = refuseNul(fields);
    if (refused) done(refused, undefined);
    else done(null, fields);
  });
}

export async function refereeConsole(app: FastifyInstance, opts: RefereeConsoleOptions): Promise<void> {
  const settings: ConsoleSettings = {
    mail: opts.mail ?? { domain: 'localhost', ordersLocalPart: 'orders' },
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    cookie: { path: '/referee', httpOnly: true, sameSite: 'strict', secure: opts.secureCookies ?? 'auto' },
    loginLimit: { perIp: opts.loginLimit?.perIp ?? 30, perAccount: opts.loginLimit?.perAccount ?? 10, windowMs: opts.loginLimit?.windowMs ?? 15 * 60_000 },
  };
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  await app.register(csrf, { cookieKey: 'sf_csrf', cookieOpts: settings.cookie });
  await app.register(rateLimit, { global: false });
  formParser(app);
  app.decorateRequest('referee', null);
  // Console pages are per person: never cached by anyone.
  app.addHook('onSend', async (_req, reply, payload) => {
    void reply.header('cache-control', 'no-store');
    return payload;
  });

  await app.register(loginRoutes, settings);
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      req.referee = await sessionReferee(scope.db, req.cookies[SESSION_COOKIE]);
      if (req.referee) return;
      if (req.method === 'GET' || req.method === 'HEAD') return reply.code(302).header('location', '/referee/login').send();
      return reply.code(401).send({ error: 'log in first' });
    });
    scope.addHook('preHandler', (req, reply, done) => {
      if (req.method === 'GET' || req.method === 'HEAD') return done();
      scope.csrfProtection(req, reply, done);
    });
    await scope.register(pageRoutes, settings);
    await scope.register(actionRoutes, settings);
  });
}
