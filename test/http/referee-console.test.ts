// The referee console through app.inject: one session check in front of every route,
// CSRF on every form, escaping of everything players and referees wrote, the login throttle,
// one-time passwords and changing a password.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { markProcessed, storeInbound } from '../../src/db/inbound.ts';
import { enqueue, listOutbox, markFailed } from '../../src/db/outbox.ts';
import { edicts, loginThrottle, turns } from '../../src/db/schema.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { buildApp } from '../../src/http/app.ts';
import { listAudit } from '../../src/db/audit.ts';
import { addressesOfGame, listPlayers, listSeats } from '../../src/db/players.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { addReferee } from '../../src/referee/accounts.ts';
import { csrfToken, FORM, form, gameWithReferee, logIn, loginForm, MAIL, postLogin, setCookies, type Browser } from '../referee/world.ts';

/** A login form's cookies and fields, for a request with headers of its own. */
async function loginBody(a: Awaited<ReturnType<typeof buildApp>>, email: string, pw: string) {
  const b = await loginForm(a);
  return { cookies: b.cookies, payload: form({ _csrf: b.token, email, password: pw }) };
}

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
const logs: string[] = [];
let gameId: string;
let password: string;
let browser: Browser;
let failedMailId: number;
let otherPassword: string;
let looseMailId: number;

const HOSTILE = '<script>alert(1)</script>';

beforeAll(async () => {
  database = await openTestPglite();
  const db = database.db;
  ({ gameId, password } = await gameWithReferee(db, `Orione ${HOSTILE}`, ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'ref@x.org'));
  ({ password: otherPassword } = await gameWithReferee(db, 'Other game', ['e@x.org', 'f@x.org', 'g@x.org', 'h@x.org'], 'other@x.org'));
  const raw = Buffer.from(
    `From: a@x.org\r\nTo: orders@sf.example\r\nSubject: orders <img src=x onerror=alert(2)>\r\nMessage-ID: <m1@x.org>\r\n\r\nV: Hutt\r\n${HOSTILE}\r\n`,
  );
  const inbound = await storeInbound(db, raw, { source: 'cli', sourceKey: 'cli:m1', receivedAt: new Date('2026-03-02T11:00:00Z') });
  await markProcessed(db, inbound.id, { status: 'processed', outcome: 'sheet', gameId });
  const loose = await storeInbound(db, Buffer.from('From: ?\r\nSubject: <marquee>\r\n\r\nbody'), { source: 'cli', sourceKey: 'cli:m2' });
  await markProcessed(db, loose.id, { status: 'rejected', outcome: 'unprocessable' });
  looseMailId = loose.id;
  await addSheetVersion(db, {
    gameId,
    turn: 1,
    faction: 'sith',
    text: `V: Hutt\n${HOSTILE}`,
    parsed: {},
    status: 'problems',
    receivedAt: new Date('2026-03-02T11:00:00Z'),
    inboundId: inbound.id,
  });
  const { mail } = await enqueue(db, {
    kind: 'ack',
    gameId,
    toAddress: `"<b>bold</b>"@x.org`,
    subject: `Re: ${HOSTILE}`,
    messageId: 'x1@sf.example',
    bodyText: 'hi',
    dedupeKey: 'test:1',
  });
  await markFailed(db, mail.id, `550 no such user ${HOSTILE}`, { permanent: true });
  failedMailId = mail.id;
  app = await buildApp({
    db,
    log: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }),
    referee: { mail: MAIL },
  });
  browser = await logIn(app, 'ref@x.org', password);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const pages = () => [
  '/referee',
  `/referee/games/${gameId}`,
  `/referee/games/${gameId}?turn=1`,
  `/referee/games/${gameId}/preview`,
  `/referee/games/${gameId}/mail/1`,
  '/referee/unassigned/mail/1',
];
const posts = () => [
  '/referee/logout',
  `/referee/games/${gameId}/deadline`,
  `/referee/games/${gameId}/players/1/welcome`,
  `/referee/games/${gameId}/edicts/resend`,
  `/referee/games/${gameId}/outbox/${failedMailId}/retry`,
  `/referee/games/${gameId}/outbox/${failedMailId}/drop`,
  `/referee/games/${gameId}/amend`,
  `/referee/games/${gameId}/rollback`,
  `/referee/games/${gameId}/pause`,
  `/referee/games/${gameId}/resume`,
  `/referee/games/${gameId}/players/4/remove`,
  `/referee/games/${gameId}/players/1/addresses`,
  `/referee/games/${gameId}/players/1/replace`,
];

describe('the session check', () => {
  it('sends every page to the login form without a session, or with a forged one', async () => {
    for (const url of pages()) {
      for (const cookies of [{}, { sf_referee: 'A'.repeat(43) }, { sf_referee: '<x>' }] as Array<Record<string, string>>) {
        const res = await app.inject({ method: 'GET', url, cookies });
        expect([url, res.statusCode, res.headers.location]).toEqual([url, 302, '/referee/login']);
      }
    }
  });

  it('refuses every POST without a session with 401, before looking at the form', async () => {
    for (const url of posts()) {
      const res = await app.inject({
        method: 'POST',
        url,
        cookies: { sf_csrf: browser.cookies.sf_csrf! },
        headers: FORM,
        payload: form({ _csrf: browser.token, reason: 'x', minutes: '10' }),
      });
      expect([url, res.statusCode]).toEqual([url, 401]);
    }
    expect((await listAudit(database.db, { gameId })).filter((e) => e.action !== 'referee.assign' && e.action !== 'game.create')).toEqual(
      [],
    );
  });

  it('refuses every POST with a session but a missing or wrong CSRF token (403), changing nothing', async () => {
    for (const url of [...posts(), '/referee/login']) {
      for (const token of [undefined, 'wrong', browser.token.slice(0, -2) + 'xx']) {
        const fields: Record<string, string> = { reason: 'x', minutes: '10', email: 'ref@x.org', password };
        if (token !== undefined) fields._csrf = token;
        const res = await app.inject({ method: 'POST', url, cookies: browser.cookies, headers: FORM, payload: form(fields) });
        expect([url, token, res.statusCode]).toEqual([url, token, 403]);
      }
    }
    // Without the CSRF cookie, the right token is no good either.
    const res = await app.inject({
      method: 'POST',
      url: posts()[1]!,
      cookies: { sf_referee: browser.cookies.sf_referee! },
      headers: FORM,
      payload: form({ _csrf: browser.token, reason: 'x', minutes: '10' }),
    });
    expect(res.statusCode).toBe(403);
    const [turn] = await database.db.select().from(turns).where(eq(turns.gameId, gameId));
    expect(turn!.deadline.toISOString()).toBe('2026-03-08T19:00:00.000Z');
  });

  it('shows a referee only the games they run', async () => {
    const res = await app.inject({ method: 'GET', url: '/referee/games/other-game', cookies: browser.cookies });
    expect(res.statusCode).toBe(404);
    const home = await app.inject({ method: 'GET', url: '/referee', cookies: browser.cookies });
    expect(home.body).toContain(`/referee/games/${gameId}`);
    expect(home.body).not.toContain('other-game');
  });
});

describe('logging in', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie limited to /referee', async () => {
    const b = await loginForm(app);
    const res = await postLogin(app, b, 'REF@x.org', password);
    expect(res.statusCode).toBe(303);
    const session = res.cookies.find((c) => c.name === 'sf_referee')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/referee' });
    expect(session.secure).toBeFalsy(); // plain HTTP here; see the https case below
    const csrf = (await app.inject({ method: 'GET', url: '/referee/login' })).cookies.find((c) => c.name === 'sf_csrf')!;
    expect(csrf).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/referee' });
  });

  it('marks cookies Secure when PUBLIC_URL is https', async () => {
    const secure = await buildApp({ db: database.db, log: pino({ level: 'silent' }), referee: { secureCookies: true } });
    try {
      const b = await loginForm(secure);
      const res = await postLogin(secure, b, 'ref@x.org', password);
      expect(res.cookies.find((c) => c.name === 'sf_referee')!.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('refuses a wrong password, logs the failure without the password, and sets no session', async () => {
    logs.length = 0;
    const b = await loginForm(app);
    const res = await postLogin(app, b, 'ref@x.org', 'not-the-password-123');
    expect(res.statusCode).toBe(401);
    expect(res.cookies.find((c) => c.name === 'sf_referee')).toBeUndefined();
    expect(res.body).toContain('Wrong address or password');
    const warn = logs.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);
    expect(warn.map((l) => l.msg)).toContain('referee login failed');
    expect(logs.join('\n')).not.toContain('not-the-password-123');
    expect(logs.join('\n')).not.toContain(password);
  });

  it('escapes the address typed into the form when it shows it again', async () => {
    const b = await loginForm(app);
    const res = await postLogin(app, b, `"><script>x</script>@x.org`, 'whatever-password');
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('<script>x</script>');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('logs out: the session no longer opens a page', async () => {
    const b = await logIn(app, 'ref@x.org', password);
    const out = await app.inject({
      method: 'POST',
      url: '/referee/logout',
      cookies: b.cookies,
      headers: FORM,
      payload: form({ _csrf: b.token }),
    });
    expect(out.statusCode).toBe(303);
    const res = await app.inject({ method: 'GET', url: '/referee', cookies: b.cookies });
    expect(res.statusCode).toBe(302);
  });
});

describe('login throttle: guessing is slow, the referee still gets in', () => {
  // Waits long enough that no test outruns them: the counts, not the clock, are under test.
  const SLOW = {
    pair: { free: 3, baseMs: 600_000, capMs: 900_000, forgetMs: 86_400_000 },
    client: { free: 6, baseMs: 600_000, capMs: 900_000, forgetMs: 86_400_000 },
  };
  const throttled = (extra: Parameters<typeof buildApp>[0] extends infer O ? Partial<O> : never = {}) =>
    buildApp({
      db: database.db,
      log: pino({ level: 'silent' }),
      referee: { mail: MAIL, loginThrottle: SLOW, refusalDelayMs: 0 },
      ...extra,
    });
  const codes = async (
    a: Awaited<ReturnType<typeof buildApp>>,
    n: number,
    email: string,
    ip: string,
    headers: Record<string, string> = {},
  ) => {
    const b = await loginForm(a);
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await a.inject({
        method: 'POST',
        url: '/referee/login',
        remoteAddress: ip,
        cookies: b.cookies,
        headers: { ...FORM, ...headers },
        payload: form({ _csrf: b.token, email, password: `wrong-password-${i}` }),
      });
      out.push(res.statusCode);
    }
    return out;
  };

  it('lets the right password in after 12 wrong ones from another client, and slows the guesser', async () => {
    const a = await throttled();
    try {
      expect(await codes(a, 12, 'other@x.org', '10.0.0.1')).toEqual([401, 401, 401, 401, ...Array<number>(8).fill(429)]);
      const refused = await postLogin(a, await loginForm(a), 'other@x.org', otherPassword, '10.0.0.1');
      expect(refused.statusCode).toBe(429); // the guesser's client waits, even with the right password
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.body).toContain('Too many attempts from here');
      expect((await postLogin(a, await loginForm(a), 'other@x.org', otherPassword, '10.0.1.1')).statusCode).toBe(303);
    } finally {
      await a.close();
    }
  });

  it('counts one client over every account it tries', async () => {
    const a = await throttled();
    try {
      const b = await loginForm(a);
      const out: number[] = [];
      for (let i = 0; i < 8; i++) out.push((await postLogin(a, b, `nobody${i}@x.org`, 'some-password-here', '10.9.9.9')).statusCode);
      expect(out).toEqual([...Array<number>(7).fill(401), 429]);
      expect((await postLogin(a, b, 'ref@x.org', password, '10.9.9.10')).statusCode).toBe(303);
    } finally {
      await a.close();
    }
  });

  it('counts an IPv6 client by its /64: new addresses inside it change nothing', async () => {
    const a = await throttled();
    try {
      const b = await loginForm(a);
      const out: number[] = [];
      for (let i = 1; i <= 6; i++)
        out.push((await postLogin(a, b, 'other@x.org', `wrong-password-${i}`, `2001:db8:1:2::${i.toString(16)}`)).statusCode);
      expect(out).toEqual([401, 401, 401, 401, 429, 429]);
      expect((await postLogin(a, b, 'other@x.org', otherPassword, '2001:db8:1:2:ffff:1:2:3')).statusCode).toBe(429);
      expect((await postLogin(a, b, 'other@x.org', otherPassword, '2001:db8:1:3::1')).statusCode).toBe(303);
    } finally {
      await a.close();
    }
  });

  it('believes X-Forwarded-For only with TRUST_PROXY', async () => {
    const proxy = '10.77.0.1';
    const direct = await throttled();
    try {
      // Without it every client of the proxy is the proxy: what one of them does, all of them suffer.
      expect(await codes(direct, 5, 'other@x.org', proxy, { 'x-forwarded-for': '198.51.100.7' })).toEqual([401, 401, 401, 401, 429]);
      const res = await direct.inject({
        method: 'POST',
        url: '/referee/login',
        remoteAddress: proxy,
        headers: { ...FORM, 'x-forwarded-for': '198.51.100.8' },
        ...(await loginBody(direct, 'other@x.org', otherPassword)),
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await direct.close();
    }
    const behind = await throttled({ trustProxy: [proxy] });
    try {
      expect(await codes(behind, 5, 'other@x.org', proxy, { 'x-forwarded-for': '198.51.100.17' })).toEqual([401, 401, 401, 401, 429]);
      const res = await behind.inject({
        method: 'POST',
        url: '/referee/login',
        remoteAddress: proxy,
        headers: { ...FORM, 'x-forwarded-for': '198.51.100.18' },
        ...(await loginBody(behind, 'other@x.org', otherPassword)),
      });
      expect(res.statusCode).toBe(303);
    } finally {
      await behind.close();
    }
  });

  it('keeps its counts in the database: another instance, or the service restarted, still waits', async () => {
    const first = await throttled();
    try {
      expect(await codes(first, 4, 'other@x.org', '10.0.5.5')).toEqual([401, 401, 401, 401]);
    } finally {
      await first.close();
    }
    const restarted = await throttled();
    try {
      expect((await postLogin(restarted, await loginForm(restarted), 'other@x.org', otherPassword, '10.0.5.5')).statusCode).toBe(429);
    } finally {
      await restarted.close();
    }
  });

  it('writes every checked login, good or bad, to the audit log (never the password)', async () => {
    const a = await throttled();
    try {
      const before = (await listAudit(database.db, { limit: 1 }))[0]?.id ?? 0;
      await postLogin(a, await loginForm(a), 'ref@x.org', 'wrong-password-audit', '10.0.6.6');
      await postLogin(a, await loginForm(a), 'ref@x.org', password, '10.0.6.6');
      await postLogin(a, await loginForm(a), '<b>not an address', 'wrong-password-audit', '10.0.6.6');
      const rows = (await listAudit(database.db, { limit: 10 })).filter((e) => e.id > before).reverse();
      expect(rows.map((e) => [e.action, e.actor, e.detail])).toEqual([
        ['referee.login-failed', 'web', { referee: 'ref@x.org', client: '10.0.6.6', ip: '10.0.6.6', reason: 'wrong' }],
        ['referee.login', 'referee:ref@x.org', { referee: 'ref@x.org', client: '10.0.6.6', ip: '10.0.6.6' }],
        ['referee.login-failed', 'web', { referee: null, client: '10.0.6.6', ip: '10.0.6.6', reason: 'wrong' }],
      ]);
      expect(JSON.stringify(rows)).not.toContain('wrong-password-audit');
    } finally {
      await a.close();
    }
  });

  it('refuses a client it has seen waiting without asking the database again, the client over every account before its form is read', async () => {
    const a = await throttled();
    try {
      const b = await loginForm(a);
      const ip = '10.0.9.9';
      // The pair waits after its 4th failure, the client after its 7th (SLOW: 3 and 6 free).
      expect(await codes(a, 5, 'other@x.org', ip)).toEqual([401, 401, 401, 401, 429]);
      // The counts vanish from the database (as if another instance forgave them): this process still knows the pair waits.
      await database.db.delete(loginThrottle);
      expect((await postLogin(a, b, 'other@x.org', otherPassword, ip)).statusCode).toBe(429);
      // Known before the CSRF token is checked: a wrong one changes nothing.
      const pairEarly = await a.inject({
        method: 'POST',
        url: '/referee/login',
        remoteAddress: ip,
        headers: FORM,
        payload: form({ _csrf: 'wrong', email: 'other@x.org', password: 'x' }),
      });
      expect(pairEarly.statusCode).toBe(429);
      expect((await postLogin(a, b, 'someone@x.org', 'some-password-here', ip)).statusCode).toBe(401); // another pair does not wait
      for (let i = 0; i < 6; i++) await postLogin(a, b, `nobody${i}@x.org`, 'some-password-here', ip);
      expect((await postLogin(a, b, 'nobody-else@x.org', 'some-password-here', ip)).statusCode).toBe(429);
      await database.db.delete(loginThrottle);
      // The client's wait is known before the body: no CSRF token, no fields, still 429 (not 403).
      const early = await a.inject({ method: 'POST', url: '/referee/login', remoteAddress: ip, headers: FORM, payload: 'x=1' });
      expect([early.statusCode, early.headers['retry-after']]).toEqual([429, expect.stringMatching(/^\d+$/)]);
      expect(early.body).toContain('Too many attempts from here');
      expect((await postLogin(a, b, 'other@x.org', otherPassword, '10.0.9.10')).statusCode).toBe(303); // other clients are not slowed
    } finally {
      await a.close();
    }
  });

  it('refuses before reading the form when the hashing queue is full', async () => {
    const a = await buildApp({
      db: database.db,
      log: pino({ level: 'silent' }),
      referee: { mail: MAIL, hashing: { concurrency: 0, maxWaiting: 0 } },
    });
    try {
      const t0 = performance.now();
      const res = await a.inject({ method: 'POST', url: '/referee/login', remoteAddress: '10.0.7.9', headers: FORM, payload: 'x=1' });
      expect([res.statusCode, res.headers['retry-after']]).toEqual([503, '1']);
      expect(res.body).toContain('Too many logins at once');
      // Held a moment before the answer (D-REF-10): a client posting again at once is slowed to one a second per connection.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(950);
    } finally {
      await a.close();
    }
  });

  it('refuses at once, before hashing, when the hashing queue is full', async () => {
    const a = await buildApp({
      db: database.db,
      log: pino({ level: 'silent' }),
      referee: { mail: MAIL, hashing: { concurrency: 1, maxWaiting: 0 } },
    });
    try {
      const b = await loginForm(a);
      const both = await Promise.all([
        postLogin(a, b, 'nobody-q1@x.org', 'some-password-here', '10.0.7.1'),
        postLogin(a, b, 'nobody-q2@x.org', 'some-password-here', '10.0.7.2'),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([401, 503]);
      expect(both.find((r) => r.statusCode === 503)!.headers['retry-after']).toBe('1');
    } finally {
      await a.close();
    }
  });
});

describe('one-time passwords and changing a password', () => {
  const change = (b: Browser, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/referee/password',
      cookies: b.cookies,
      headers: FORM,
      payload: form({ _csrf: b.token, ...fields }),
    });

  it('lets a one-time password in once, to the password form only; a second login with it is refused', async () => {
    const { password: once } = await addReferee(database.db, 'fresh@x.org', 'test');
    const b = await loginForm(app, '10.0.8.1');
    const first = await postLogin(app, b, 'fresh@x.org', once, '10.0.8.1');
    expect([first.statusCode, first.headers.location]).toEqual([303, '/referee/password']);
    const cookies = { ...b.cookies, ...setCookies(first) };
    const home = await app.inject({ method: 'GET', url: '/referee', cookies });
    expect([home.statusCode, home.headers.location]).toEqual([302, '/referee/password']);
    const page = await app.inject({ method: 'GET', url: '/referee/password', cookies });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('one-time password');
    const action = await app.inject({
      method: 'POST',
      url: `/referee/games/${gameId}/pause`,
      cookies,
      headers: FORM,
      payload: form({ _csrf: csrfToken(page.body), reason: 'x' }),
    });
    expect(action.statusCode).toBe(403);
    const second = await postLogin(app, await loginForm(app), 'fresh@x.org', once, '10.0.8.2');
    expect(second.statusCode).toBe(401);
    expect(second.body).toContain('was used already');
    // Setting a password opens the console.
    const set = await change(
      { cookies, token: csrfToken(page.body) },
      { current: once, password: 'my own long password', again: 'my own long password' },
    );
    expect([set.statusCode, set.headers.location]).toEqual([303, '/referee/password?done=changed']);
    expect((await app.inject({ method: 'GET', url: '/referee', cookies })).statusCode).toBe(200);
  });

  it('changes a password: CSRF, both new ones alike, long enough, the current one right; other browsers logged out', async () => {
    await gameWithReferee(database.db, 'Changing game', ['p1@x.org', 'p2@x.org', 'p3@x.org', 'p4@x.org'], 'changer@x.org');
    const old = 'own password of changer@x.org';
    const mine = await logIn(app, 'changer@x.org', old);
    const other = await logIn(app, 'changer@x.org', old);
    const noToken = await app.inject({
      method: 'POST',
      url: '/referee/password',
      cookies: mine.cookies,
      headers: FORM,
      payload: form({ current: old, password: 'a new long password', again: 'a new long password' }),
    });
    expect(noToken.statusCode).toBe(403);
    expect((await change(mine, { current: old, password: 'a new long password', again: 'a new long passwordX' })).statusCode).toBe(400);
    const short = await change(mine, { current: old, password: 'short', again: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('at least 12 characters');
    expect(
      (await change(mine, { current: 'not the password', password: 'a new long password', again: 'a new long password' })).statusCode,
    ).toBe(403);
    expect((await change(mine, { current: old, password: 'a new long password', again: 'a new long password' })).statusCode).toBe(303);
    expect((await app.inject({ method: 'GET', url: '/referee', cookies: mine.cookies })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/referee', cookies: other.cookies })).statusCode).toBe(302);
    expect((await postLogin(app, await loginForm(app), 'changer@x.org', old)).statusCode).toBe(401);
    expect((await postLogin(app, await loginForm(app), 'changer@x.org', 'a new long password')).statusCode).toBe(303);
  });
});

describe('seeing everything, escaped', () => {
  it('shows every sheet version and the raw mail behind it as escaped text', async () => {
    const res = await app.inject({ method: 'GET', url: `/referee/games/${gameId}`, cookies: browser.cookies });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('Version 1: with problems');
    expect(res.body).toContain('V: Hutt\n&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toContain('Subject: orders &lt;img src=x onerror=alert(2)&gt;');
    expect(res.body).toContain('Orione &lt;script&gt;');
    expect(res.body).not.toContain(HOSTILE);
    expect(res.body).not.toContain('<img');
  });

  it('shows outbox failures and bouncing addresses, escaped', async () => {
    const res = await app.inject({ method: 'GET', url: `/referee/games/${gameId}`, cookies: browser.cookies });
    expect(res.body).toContain('&quot;&lt;b&gt;bold&lt;/b&gt;&quot;@x.org');
    expect(res.body).toContain('550 no such user &lt;script&gt;');
    expect(res.body).toMatch(/<h2>Bouncing addresses<\/h2><table>/);
  });

  it('shows a stored mail of the game in full, and no mail to a referee of another game', async () => {
    const res = await app.inject({ method: 'GET', url: `/referee/games/${gameId}/mail/1`, cookies: browser.cookies });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Message-ID: &lt;m1@x.org&gt;');
    expect(res.body).not.toContain(HOSTILE);
    const other = await logIn(app, 'other@x.org', otherPassword);
    expect((await app.inject({ method: 'GET', url: `/referee/games/${gameId}/mail/1`, cookies: other.cookies })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/referee/games/other-game/mail/1', cookies: other.cookies })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/referee/unassigned/mail/1', cookies: other.cookies })).statusCode).toBe(404);
  });

  it('lists mail set aside as unprocessable: with no game, for every referee', async () => {
    const home = await app.inject({ method: 'GET', url: '/referee', cookies: browser.cookies });
    expect(home.body).toContain(`href="/referee/unassigned/mail/${looseMailId}"`);
    const res = await app.inject({ method: 'GET', url: `/referee/unassigned/mail/${looseMailId}`, cookies: browser.cookies });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('&lt;marquee&gt;');
    expect(res.body).not.toContain('<marquee>');
  });
});

describe('actions and preview from the console', () => {
  it('previews the open turn without storing it', async () => {
    const res = await app.inject({ method: 'GET', url: `/referee/games/${gameId}/preview`, cookies: browser.cookies });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Nothing is stored, mailed or published');
    expect(res.body).toContain('<svg');
    expect(res.body).toContain('sith: version 1');
    expect(res.body).not.toContain(HOSTILE);
    expect(await database.db.select().from(edicts).where(eq(edicts.gameId, gameId))).toEqual([]);
  });

  it('extends the deadline with a reason: audited, mailed, and the reason shown escaped', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/referee/games/${gameId}/deadline`,
      cookies: browser.cookies,
      headers: FORM,
      payload: form({ _csrf: browser.token, minutes: '60', reason: `server down ${HOSTILE}` }),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=extended`);
    const [audit] = await listAudit(database.db, { gameId, action: 'turn.extend' });
    expect(audit).toMatchObject({ actor: 'referee:ref@x.org', detail: { minutes: 60, reason: `server down ${HOSTILE}` } });
    expect((await listOutbox(database.db, { gameId, kind: 'deadline-extended' })).length).toBe(4);
    const page = await app.inject({ method: 'GET', url: res.headers.location as string, cookies: browser.cookies });
    expect(page.body).toContain('The deadline was moved');
    expect(page.body).toContain('server down &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain(HOSTILE);
  });

  it('refuses an action without a reason or beyond the cap with a page saying why, changing nothing', async () => {
    const before = await listAudit(database.db, { gameId });
    for (const fields of [
      { minutes: '60', reason: '' },
      { minutes: '999999', reason: 'x' },
      { minutes: '<b>', reason: 'x' },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/referee/games/${gameId}/deadline`,
        cookies: browser.cookies,
        headers: FORM,
        payload: form({ _csrf: browser.token, ...fields }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('class="error"');
      expect(res.body).not.toContain('<b>');
    }
    expect(await listAudit(database.db, { gameId })).toEqual(before);
  });

  it('retries a failed mail from the console', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/referee/games/${gameId}/outbox/${failedMailId}/retry`,
      cookies: browser.cookies,
      headers: FORM,
      payload: form({ _csrf: browser.token, reason: 'address fixed' }),
    });
    expect(res.statusCode).toBe(303);
    expect((await listOutbox(database.db, { gameId })).find((m) => m.id === failedMailId)!.status).toBe('pending');
  });
});

describe('players from the console: addresses and removal', () => {
  const post = (path: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `/referee/games/${gameId}/${path}`,
      cookies: browser.cookies,
      headers: FORM,
      payload: form({ _csrf: browser.token, ...fields }),
    });
  const page = async (done: string) =>
    (await app.inject({ method: 'GET', url: `/referee/games/${gameId}?done=${done}`, cookies: browser.cookies })).body;

  it('adds an address, makes it primary and removes the old one, each audited and shown escaped', async () => {
    const hutt = (await listPlayers(database.db, gameId))[0]!;
    const add = await post(`players/${hutt.id}/addresses`, { change: 'add', email: 'a.work@x.org', reason: `at work ${HOSTILE}` });
    expect(add.statusCode).toBe(303);
    expect(add.headers.location).toBe(`/referee/games/${gameId}?done=address-add`);
    const body = await page('address-add');
    expect(body).toContain('The address is added');
    expect(body).toContain('a.work@x.org');
    expect(body).toContain('at work &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain(HOSTILE);
    expect((await post(`players/${hutt.id}/addresses`, { change: 'primary', email: 'a.work@x.org', reason: 'moved' })).statusCode).toBe(
      303,
    );
    expect((await post(`players/${hutt.id}/addresses`, { change: 'remove', email: 'a@x.org', reason: 'old' })).statusCode).toBe(303);
    expect((await addressesOfGame(database.db, gameId)).get(hutt.id)).toEqual(['a.work@x.org']);
    expect((await listAudit(database.db, { gameId })).slice(0, 3).map((e) => e.action)).toEqual([
      'player.address-remove',
      'player.address-primary',
      'player.address-add',
    ]);
  });

  it('refuses a hostile address, an unknown change and a player of another game with a page, changing nothing', async () => {
    const before = await listAudit(database.db, { gameId });
    const hostile = await post('players/1/addresses', { change: 'add', email: `${HOSTILE}@x.org`, reason: 'x' });
    expect(hostile.statusCode).toBe(400);
    expect(hostile.body).not.toContain(HOSTILE);
    expect((await post('players/1/addresses', { change: 'steal', email: 'z@x.org', reason: 'x' })).statusCode).toBe(400);
    const other = (await listPlayers(database.db, 'other-game'))[0]!;
    expect((await post(`players/${other.id}/remove`, { reason: 'x' })).statusCode).toBe(404);
    expect((await post(`players/${other.id}/addresses`, { change: 'add', email: 'z@x.org', reason: 'x' })).statusCode).toBe(404);
    expect(await listAudit(database.db, { gameId })).toEqual(before);
    expect((await listSeats(database.db, 'other-game')).every((p) => p.removedAt === null)).toBe(true);
  });

  it('removes a player with a reason: the seat shows as empty with the form that fills it; everyone told', async () => {
    const knights = (await listPlayers(database.db, gameId)).find((p) => p.faction === 'knights')!;
    const res = await post(`players/${knights.id}/remove`, { reason: `vanished ${HOSTILE}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=removed`);
    expect((await listPlayers(database.db, gameId)).map((p) => p.faction)).not.toContain('knights');
    expect((await listOutbox(database.db, { gameId, kind: 'seat-vacant' })).map((m) => m.toAddress).sort()).toEqual([
      'a.work@x.org',
      'b@x.org',
      'c@x.org',
    ]);
    const body = await page('removed');
    expect(body).toContain('The player is removed');
    expect(body).toContain('Empty seats');
    expect(body).toContain(`action="/referee/games/${gameId}/players/${knights.id}/replace"`);
    expect(body).not.toContain(`action="/referee/games/${gameId}/players/${knights.id}/remove"`);
    expect(body).toContain('vanished &lt;script&gt;');
    expect(body).not.toContain(HOSTILE);
    // Removing it again, or resending its welcome, finds no player.
    expect((await post(`players/${knights.id}/remove`, { reason: 'x' })).statusCode).toBe(404);
    expect((await post(`players/${knights.id}/welcome`, { reason: 'x' })).statusCode).toBe(404);
    // The empty seat is given to someone.
    expect((await post(`players/${knights.id}/replace`, { email: 'new.knight@x.org', lang: 'it', reason: 'welcome' })).statusCode).toBe(
      303,
    );
    expect((await listPlayers(database.db, gameId)).find((p) => p.faction === 'knights')).toMatchObject({
      email: 'new.knight@x.org',
      removedAt: null,
    });
  });
});
