// Bad input at the web's door gets a clear answer: a NUL in a form is a 400 that says so (never a
// 500), a page nobody serves is the site's HTML 404 (JSON only under /api), a wrong method a 405
// with Allow, and https sites send HSTS. Through app.inject on PGlite.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { listEdicts } from '../../src/db/edicts.ts';
import { addObserver } from '../../src/db/observers.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { FORM, gameWithReferee, logIn, loginForm, MAIL, type Browser } from '../referee/world.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let httpsApp: Awaited<ReturnType<typeof buildApp>>;
let gameId: string;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  database = await openTestPglite();
  let password: string;
  ({ gameId, password } = await gameWithReferee(database.db, 'Orione', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'ref@x.org'));
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  app = await buildApp({ db: database.db, log, publicCacheMs: 0, referee: { mail: MAIL } });
  httpsApp = await buildApp({ db: database.db, log, publicUrl: 'https://sf.example.org/' });
  browser = await logIn(app, 'ref@x.org', password);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await httpsApp?.close();
  await database?.close();
});

/** A form body with a raw NUL in a field, as a hostile client sends it (%00 encoded). */
const withNul = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replaceAll('%EF%BF%BF', '%00')}`)
    .join('&');

describe('a NUL byte in a form', () => {
  it('is refused 400 with a message on the login, a deadline reason and an amendment; nothing logged as an error', async () => {
    errors.length = 0;
    const login = await loginForm(app);
    const posts = [
      {
        url: '/referee/login',
        cookies: login.cookies,
        payload: withNul({ _csrf: login.token, email: 'ref@x.org', password: 'pass\uFFFFword' }),
      },
      {
        url: `/referee/games/${gameId}/deadline`,
        cookies: browser.cookies,
        payload: withNul({ _csrf: browser.token, minutes: '30', reason: 'storm\uFFFF' }),
      },
      {
        url: `/referee/games/${gameId}/amend`,
        cookies: browser.cookies,
        payload: withNul({ _csrf: browser.token, turn: '1', reason: 'misread', faction: 'hutt', sheet: 'V: Hutt\uFFFF' }),
      },
    ];
    for (const p of posts) {
      expect(p.payload).toContain('%00');
      const res = await app.inject({ method: 'POST', url: p.url, cookies: p.cookies, headers: FORM, payload: p.payload });
      expect(res.statusCode, p.url).toBe(400);
      expect(res.json().error, p.url).toMatch(/holds a NUL character \(U\+0000\)/);
    }
    expect(errors).toEqual([]);
    expect(await listEdicts(database.db, gameId)).toEqual([]);
  });
});

describe('a path nobody serves', () => {
  it("is the site's HTML 404 page, in the reader's language; JSON under /api", async () => {
    for (const url of ['/games/x/', '/no/such/page', '/games/orione/turns/1/nope', '/referee/nope']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-language': 'it' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain('Pagina non trovata');
      expect(res.body, url).not.toContain('Route GET');
    }
    const api = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'not found' });
  });

  it('a wrong method on a page is 405 with Allow', async () => {
    const post = await app.inject({ method: 'POST', url: '/games/orione', headers: FORM, payload: 'a=b' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const get = await app.inject({ method: 'GET', url: `/referee/games/${gameId}/deadline`, cookies: browser.cookies });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const del = await app.inject({ method: 'DELETE', url: '/api/games' });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
    expect(del.json()).toEqual({ error: 'method not allowed' });
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent when PUBLIC_URL is https, and not otherwise', async () => {
    for (const url of ['/', '/games/nope', '/health']) {
      expect((await httpsApp.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBe('max-age=31536000');
      expect((await app.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});

describe('the unsubscribe page', () => {
  it("is the site's page, in the observer's language, naming the game", async () => {
    const it_ = await addObserver(database.db, gameId, 'fan@x.org', 'it');
    const en = await addObserver(database.db, gameId, 'fan2@x.org', 'en');
    const pageIt = await app.inject({ method: 'GET', url: `/unsubscribe/${it_.token}` });
    expect(pageIt.statusCode).toBe(200);
    expect(pageIt.body).toContain('<html lang="it"');
    expect(pageIt.body).toContain('rel="stylesheet"');
    expect(pageIt.body).toContain('Non ricevere più gli editti della partita Orione?');
    const pageEn = await app.inject({ method: 'GET', url: `/unsubscribe/${en.token}` });
    expect(pageEn.body).toContain('Stop receiving the edicts of the game Orione?');
    const done = await app.inject({
      method: 'POST',
      url: `/unsubscribe/${en.token}`,
      headers: FORM,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.body).toContain('You will receive no more edicts of the game Orione.');
    const unknown = await app.inject({ method: 'GET', url: `/unsubscribe/${'x'.repeat(24)}`, headers: { 'accept-language': 'it' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Questo link non è valido.');
  });
});
