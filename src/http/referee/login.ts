// Logging in and out. The login form carries a CSRF token like every other form; attempts are
// limited per IP and per account (@fastify/rate-limit) before a password is even hashed, and a
// failed login is logged (pino warn: the address tried and the IP, never the password).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authenticate } from '../../referee/accounts.ts';
import { createSession, endSession } from '../../referee/sessions.ts';
import { fromTemplate, html, layout } from './html.ts';
import { SESSION_COOKIE, type ConsoleSettings } from './plugin.ts';

type Form = Record<string, string | undefined>;

export async function loginRoutes(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  const windowMinutes = Math.ceil(settings.loginLimit.windowMs / 60_000);
  const byIp = app.createRateLimit({ max: settings.loginLimit.perIp, timeWindow: settings.loginLimit.windowMs, keyGenerator: (req) => `login-ip:${req.ip}` });
  const byAccount = app.createRateLimit({
    max: settings.loginLimit.perAccount,
    timeWindow: settings.loginLimit.windowMs,
    keyGenerator: (req) => `login-account:${String((req.body as Form | undefined)?.email ?? '').trim().toLowerCase().slice(0, 254)}`,
  });

  const form = (reply: FastifyReply, code: number, message: string | null, email = '') =>
    reply
      .code(code)
      .type('text/html; charset=utf-8')
      .send(layout('Log in', null, fromTemplate('login', { message: message ? html`<p class="error" role="alert">${message}</p>` : html``, csrf: html`${reply.generateCsrf()}`, email: html`${email}` }), null));

  app.get('/login', async (_req, reply) => form(reply, 200, null));

  app.post('/login', { preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Form;
    const email = String(body.email ?? '').slice(0, 254);
    const password = String(body.password ?? '');
    for (const limit of [byIp, byAccount]) {
      const r = await limit(req);
      if (!r.isAllowed && r.isExceeded) {
        req.log.warn({ email, ip: req.ip }, 'referee login refused: too many attempts');
        return form(reply, 429, `Too many attempts: try again in ${windowMinutes} minutes.`, email);
      }
    }
    const referee = email && password ? await authenticate(app.db, email, password) : null;
    if (!referee) {
      req.log.warn({ email, ip: req.ip }, 'referee login failed');
      return form(reply, 401, 'Wrong address or password.', email);
    }
    const session = await createSession(app.db, referee.id);
    req.log.info({ referee: referee.email, ip: req.ip }, 'referee logged in');
    return reply.setCookie(SESSION_COOKIE, session.token, { ...settings.cookie, expires: session.expiresAt }).code(303).header('location', '/referee').send();
  });
}

/** POST /referee/logout: behind the session check and the CSRF token, like any other POST. */
export async function logoutRoute(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  app.post('/logout', async (req, reply) => {
    await endSession(app.db, req.cookies[SESSION_COOKIE]);
    return reply.clearCookie(SESSION_COOKIE, settings.cookie).code(303).header('location', '/referee/login').send();
  });
}
