// The referee changes their own password (GET/POST /referee/password), behind the session check
// and the CSRF token like every console form. After a login with a one-time password this is the
// only page the console opens until a new password is set (plugin.ts). The current password is
// checked as a login is: through the hashing queue, counted against the (account, client) pair.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { admitAttempt, forgiveAttempt } from '../../db/login-throttle.ts';
import { changePassword, type PasswordChange } from '../../referee/accounts.ts';
import { passwordProblem } from '../../referee/passwords.ts';
import { sessionDigest } from '../../referee/sessions.ts';
import { throttleKeys } from '../../referee/throttle.ts';
import { html, type Html } from './html.ts';
import { waitWords } from './login.ts';
import { sendPage } from './pages.ts';
import { SESSION_COOKIE, type ConsoleSettings } from './settings.ts';

type Form = Record<string, string | undefined>;

export const MIN_PASSWORD_LENGTH = 12;

function passwordForm(req: FastifyRequest, csrf: string, message: Html): Html {
  const lead = req.referee?.mustChangePassword
    ? html`<p class="notice" role="status">You logged in with a one-time password: set your own before anything else. The one-time password no longer works.</p>`
    : html``;
  return html`${lead}${message}<form method="post" action="/referee/password">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="current-password">Current password</label>
<input id="current-password" name="current" type="password" autocomplete="current-password" required>
<label for="new-password">New password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="256" required>
<label for="new-password-again">New password again</label>
<input id="new-password-again" name="again" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" maxlength="256" required>
<p><button type="submit">Change the password</button></p>
</form>`;
}

const error = (m: string) => html`<p class="error" role="alert">${m}</p>`;

const FAILED: Record<Exclude<PasswordChange['kind'], 'changed'>, (c: PasswordChange) => string> = {
  'wrong-current': () => 'The current password is wrong.',
  refused: (c) => `Not changed: ${c.kind === 'refused' ? c.problem : ''}.`,
};

export async function passwordRoutes(app: FastifyInstance, settings: ConsoleSettings): Promise<void> {
  app.get<{ Querystring: { done?: string } }>('/password', async (req, reply) => {
    const done =
      req.query.done === 'changed'
        ? html`<p class="notice" role="status">Your password is changed; every other browser you were logged in with is logged out. <a href="/referee">To your games</a></p>`
        : html``;
    return sendPage(
      req,
      reply,
      'Change your password',
      req.query.done === 'changed' ? done : passwordForm(req, reply.generateCsrf(), html``),
    );
  });

  app.post('/password', async (req, reply) => {
    const body = (req.body ?? {}) as Form;
    const current = String(body.current ?? '');
    const chosen = String(body.password ?? '');
    const again = (m: string, code: number) =>
      sendPage(req, reply, 'Change your password', passwordForm(req, reply.generateCsrf(), error(m)), code);
    if (chosen !== String(body.again ?? '')) return again('Not changed: the two new passwords differ.', 400);
    const problem = passwordProblem(chosen);
    if (problem) return again(`Not changed: ${problem}.`, 400);
    const place = settings.hashing.enter();
    if (!place) return again('Too many logins at once: try again in a moment.', 503);
    let result: PasswordChange;
    try {
      const pair = throttleKeys(req.referee!.email, req.ip, settings.throttle)[0];
      const admission = await admitAttempt(app.db, [pair]);
      if (!admission.admitted) return again(`Too many attempts from here: try again in ${waitWords(admission.retryAfterMs)}.`, 429);
      const token = req.cookies[SESSION_COOKIE] ?? '';
      result = await place.run(() => changePassword(app.db, req.referee!.id, current, chosen, sessionDigest(token)));
      if (result.kind === 'changed') await forgiveAttempt(app.db, [pair], [pair.key]);
    } finally {
      place.leave();
    }
    if (result.kind !== 'changed') {
      req.log.warn({ referee: req.referee!.email, ip: req.ip, reason: result.kind }, 'referee password not changed');
      return again(FAILED[result.kind](result), result.kind === 'wrong-current' ? 403 : 400);
    }
    req.log.info({ referee: req.referee!.email, ip: req.ip }, 'referee changed their password');
    return reply.code(303).header('location', '/referee/password?done=changed').send();
  });
}
