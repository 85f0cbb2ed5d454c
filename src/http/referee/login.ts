// Logging in and out. The login form carries a CSRF token like every other form. A login first
// takes a place in the hashing queue (refused at once when it is full: 503) and is counted against
// its client and its (account, client) pair before the password is hashed (refused while either
// waits: 429); so guessing is slow, while the account's owner, from their own client, still gets in.
// Refusals cost as little as they can (D-REF-7, D-REF-8): a full queue, or a client known to wait,
// is refused before the form is read, a pair known to wait before the CSRF token is checked.
// Every checked login, good or bad, is written to the audit log (never the password).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordAudit } from '../../db/audit.ts';
import { admitAttempt, forgiveAttempt, pruneLoginThrottle } from '../../db/login-throttle.ts';
import { authenticate, normaliseEmail, type LoginOutcome } from '../../referee/accounts.ts';
import { createSession, endSession } from '../../referee/sessions.ts';
import { clientBucket, clientKey, KnownWaits, throttleKeys } from '../../referee/throttle.ts';
import { fromTemplate, html, layout } from './html.ts';
import { SESSION_COOKIE, type ConsoleSettings } from './settings.ts';

type Form = Record<string, string | undefined>;

/** Refused logins held at once before their answer; beyond these a refusal is answered at once. */
const HELD_MAX = 1000;

/** "12 seconds", "15 minutes": how long to wait, rounded up. */
export function waitWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s < 120 ? `${s} second${s === 1 ? '' : 's'}` : `${Math.ceil(s / 60)} minutes`;
}

/** The address as typed, for the audit log, if it is one (the log keeps no arbitrary text). */
function typedAddress(email: string): string | null {
  try {
    return normaliseEmail(email);
  } catch {
    return null;
  }
}

const REASONS: Record<Exclude<LoginOutcome['kind'], 'ok'>, string> = {
  wrong: 'Wrong address or password.',
  'one-time-used': 'That one-time password was used already. Ask for a new one (sf referee passwd).',
};

async function auditLogin(app: FastifyInstance, req: FastifyRequest, email: string, outcome: LoginOutcome): Promise<void> {
  const who = outcome.kind === 'wrong' ? typedAddress(email) : outcome.referee.email;
  await recordAudit(app.db, {
    actor: outcome.kind === 'ok' ? `referee:${outcome.referee.email}` : 'web',
    gameId: null,
    action: outcome.kind === 'ok' ? 'referee.login' : 'referee.login-failed',
    detail: { referee: who, client: clientBucket(req.ip), ip: req.ip, ...(outcome.kind === 'ok' ? {} : { reason: outcome.kind }) },
  });
}

export async function loginRoutes(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  const form = (reply: FastifyReply, code: number, message: string | null, email = '') =>
    reply
      .code(code)
      .type('text/html; charset=utf-8')
      .send(
        layout(
          'Log in',
          null,
          fromTemplate('login', {
            message: message ? html`<p class="error" role="alert">${message}</p>` : html``,
            csrf: html`${reply.generateCsrf()}`,
            email: html`${email}`,
          }),
          null,
        ),
      );

  app.get('/login', async (_req, reply) => form(reply, 200, null));

  // A flood is refused by the thousand: one warning a minute with the count, beside the request log's line each.
  const everyMinute = (message: string) => {
    let refused = 0;
    let warnedAt = Number.NEGATIVE_INFINITY;
    return (req: FastifyRequest) => {
      refused++;
      if (Date.now() - warnedAt < 60_000) return;
      req.log.warn({ refused, ip: req.ip }, message);
      refused = 0;
      warnedAt = Date.now();
    };
  };
  const noteBusy = everyMinute('referee logins refused: too many at once');
  const noteWaiting = everyMinute('referee logins refused: the client is waiting');

  /**
   * A refused login is answered after a moment (D-REF-10): a client that posts again as soon as it
   * is answered then costs the thread the pages share one refusal per connection per moment, not
   * thousands a second. At most HELD_MAX are held at once; beyond that they are answered at once.
   */
  let held = 0;
  const hold = (answer: () => void) => {
    if (settings.refusalDelayMs <= 0 || held >= HELD_MAX) return answer();
    held++;
    setTimeout(() => {
      held--;
      answer();
    }, settings.refusalDelayMs);
  };
  const holdAwhile = () => new Promise<void>((resolve) => hold(resolve));

  const waits = new KnownWaits();
  const tooMany = (reply: FastifyReply, ms: number, email: string) =>
    form(
      reply.header('retry-after', String(Math.ceil(ms / 1000))),
      429,
      `Too many attempts from here: try again in ${waitWords(ms)}.`,
      email,
    );
  const refusedPage = (message: string) =>
    layout(
      'Log in',
      null,
      html`<p class="error" role="alert">${message}</p><p><a href="/referee/login">Back to the login form</a></p>`,
      null,
    );
  const busyPage = refusedPage('Too many logins at once: try again in a moment.');

  /**
   * A login that would be refused anyway is refused before its body is read, its CSRF token
   * checked or a form drawn: a flood costs the thread the public pages share as little as it can
   * (bench:http). The client's wait is known here when this process has read it; the pair's needs
   * the address typed, in the handler.
   */
  const refuseWaiting = (req: FastifyRequest, reply: FastifyReply, waiting: number) => {
    noteWaiting(req);
    hold(
      () =>
        void reply
          .code(429)
          .header('retry-after', String(Math.ceil(waiting / 1000)))
          .type('text/html; charset=utf-8')
          .send(refusedPage(`Too many attempts from here: try again in ${waitWords(waiting)}.`)),
    );
  };
  const refuseEarly = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const waiting = waits.remaining([clientKey(req.ip)]);
    if (waiting > 0) return refuseWaiting(req, reply, waiting);
    if (settings.hashing.full) {
      noteBusy(req);
      hold(() => void reply.code(503).header('retry-after', '1').type('text/html; charset=utf-8').send(busyPage));
      return;
    }
    done();
  };
  /** The pair's wait, once the address typed is read: still before the CSRF token is checked. */
  const refusePairWaiting = (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const email = String((req.body as Form | undefined)?.email ?? '').slice(0, 254);
    const waiting = waits.remaining(throttleKeys(email, req.ip, settings.throttle).map((k) => k.key));
    if (waiting > 0) return refuseWaiting(req, reply, waiting);
    done();
  };

  // Counts a policy forgets are deleted now and then (every client and pair ever seen leaves a row).
  const forgetMs = Math.max(settings.throttle.pair.forgetMs, settings.throttle.client.forgetMs);
  let prunedAt = 0;
  const pruneNowAndThen = async (req: FastifyRequest) => {
    const now = Date.now();
    if (now - prunedAt < 10 * 60_000 || !Number.isFinite(forgetMs)) return;
    prunedAt = now;
    const n = await pruneLoginThrottle(app.db, new Date(now - forgetMs));
    if (n > 0) req.log.info({ rows: n }, 'forgotten login counts deleted');
  };

  app.post('/login', { onRequest: refuseEarly, preValidation: refusePairWaiting, preHandler: app.csrfProtection }, async (req, reply) => {
    const body = (req.body ?? {}) as Form;
    const email = String(body.email ?? '').slice(0, 254);
    const password = String(body.password ?? '');
    const keys = throttleKeys(email, req.ip, settings.throttle);
    const place = settings.hashing.enter();
    if (!place) {
      noteBusy(req);
      await holdAwhile();
      return form(reply.header('retry-after', '1'), 503, 'Too many logins at once: try again in a moment.', email);
    }
    let outcome: LoginOutcome;
    try {
      await pruneNowAndThen(req);
      const admission = await admitAttempt(app.db, keys);
      if (!admission.admitted) {
        // Until these waits run out, this process refuses the client without asking the database.
        for (const w of admission.waiting) waits.note(w.key, w.until.getTime());
        req.log.warn({ email, ip: req.ip }, 'referee login refused: too many attempts');
        place.leave(); // the place is for hashing: not held while the answer is
        await holdAwhile();
        return tooMany(reply, admission.retryAfterMs, email);
      }
      outcome = await place.run(() => authenticate(app.db, email, password));
    } finally {
      place.leave(); // when refused before running (run gives its place up itself)
    }
    await auditLogin(app, req, email, outcome);
    if (outcome.kind !== 'ok') {
      req.log.warn({ email, ip: req.ip, reason: outcome.kind }, 'referee login failed');
      return form(reply, 401, REASONS[outcome.kind], email);
    }
    await forgiveAttempt(app.db, keys, [keys[0].key]);
    waits.forget(keys.map((k) => k.key)); // forgiving may shorten a wait read before
    const session = await createSession(app.db, outcome.referee.id);
    req.log.info({ referee: outcome.referee.email, ip: req.ip }, 'referee logged in');
    return reply
      .setCookie(SESSION_COOKIE, session.token, { ...settings.cookie, expires: session.expiresAt })
      .code(303)
      .header('location', outcome.mustChangePassword ? '/referee/password' : '/referee')
      .send();
  });
}

/** POST /referee/logout: behind the session check and the CSRF token, like any other POST. */
export async function logoutRoute(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  app.post('/logout', async (req, reply) => {
    await endSession(app.db, req.cookies[SESSION_COOKIE]);
    return reply.clearCookie(SESSION_COOKIE, settings.cookie).code(303).header('location', '/referee/login').send();
  });
}
