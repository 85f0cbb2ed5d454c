// The referee console under /referee: one encapsulated plugin. The login routes stand
// outside the session check; everything else is registered in a child scope behind ONE onRequest
// hook that refuses without a live session (a redirect to the login page for a page, 401 for a
// POST), and every POST there must carry the CSRF token of the form it came from (403 otherwise).
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HashingQueue } from '../../referee/hashing-queue.ts';
import { DEFAULT_THROTTLE, type ThrottlePolicy } from '../../referee/throttle.ts';
import type { MailAddressing } from '../../games/index.ts';
import { sessionReferee, type SessionReferee } from '../../referee/sessions.ts';
import { actionRoutes } from './action-routes.ts';
import { loginRoutes } from './login.ts';
import { pageRoutes } from './pages.ts';
import { passwordRoutes } from './password.ts';
import { refuseNul } from '../security.ts';
import { SESSION_COOKIE, type ConsoleSettings } from './settings.ts';

export interface RefereeConsoleOptions {
  /** For the mail the actions send; without it, `orders@localhost`. */
  mail?: MailAddressing;
  /** PUBLIC_URL, for links in that mail. */
  publicUrl?: string;
  /** true when PUBLIC_URL is https; 'auto' (the default): Secure when the request came over TLS. */
  secureCookies?: boolean | 'auto';
  /** How failed logins slow a client and an (account, client) pair (default DEFAULT_THROTTLE). */
  loginThrottle?: Partial<ThrottlePolicy>;
  /** Password hashes at once, and logins waiting for one, before more are refused (default 1 and 8). */
  hashing?: { concurrency?: number; maxWaiting?: number };
  /** How long a refused login (429, 503) is held before its answer, ms (default 1000; 0: at once). */
  refusalDelayMs?: number;
}

/** What a session opened with a one-time password may reach before a new password is set. */
const MAY_BEFORE_NEW_PASSWORD = new Set(['/referee/password', '/referee/logout']);

declare module 'fastify' {
  interface FastifyRequest {
    referee: SessionReferee | null;
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
    throttle: { ...DEFAULT_THROTTLE, ...opts.loginThrottle },
    // One hash at a time, on a thread of the least priority (hash-thread.ts); eight waiting is under
    // 0.2 s of hashing on an idle core.
    hashing: new HashingQueue(opts.hashing?.concurrency ?? 1, opts.hashing?.maxWaiting ?? 8),
    refusalDelayMs: opts.refusalDelayMs ?? 1000,
  };
  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  await app.register(csrf, { cookieKey: 'sf_csrf', cookieOpts: settings.cookie });
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
      if (req.referee?.mustChangePassword && !MAY_BEFORE_NEW_PASSWORD.has(req.url.split('?')[0]!)) {
        // A one-time password was used: nothing else opens until the referee sets their own.
        if (req.method === 'GET' || req.method === 'HEAD') return reply.code(302).header('location', '/referee/password').send();
        return reply.code(403).send({ error: 'set a new password first' });
      }
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
    await scope.register(passwordRoutes, settings);
  });
}
