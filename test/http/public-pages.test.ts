// The public pages, feeds and JSON API through app.inject on PGlite: a game built by the real
// services (created, turns closed, an edict amended), a hostile game name, and a secret sheet.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { listPlayers } from '../../src/db/players.ts';
import { absences } from '../../src/db/schema.ts';
import { buildApp } from '../../src/http/app.ts';
import { PAGE_CSP } from '../../src/http/web/respond.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { HOSTILE_NAME, HOSTILE_REASON, SECRET_WORD, buildWorld, type World } from './public-world.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let world: World;
let game: string;

beforeAll(async () => {
  database = await openTestPglite();
  world = await buildWorld(database.db, { players: 5, turns: 2 });
  game = world.gameId;
  // Absences (D-ABS-1): one to come, shown; one long over, not.
  const seat = (f: string) => listPlayers(database.db, game).then((ps) => ps.find((p) => p.faction === f)!.id);
  await database.db.insert(absences).values([
    { gameId: game, playerId: await seat('knights'), fromDay: '2099-01-01', toDay: '2099-01-05' },
    { gameId: game, playerId: await seat('sith'), fromDay: '2020-01-01', toDay: '2020-01-02' },
  ]);
  app = await buildApp({ db: database.db, log: pino({ level: 'silent' }), publicCacheMs: 0, publicUrl: 'https://sf.example.org/' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('public pages', () => {
  const pages = () => ['/', `/games/${game}`, `/games/${game}/turns/1`, `/games/${game}/turns/1/v/1`, `/games/${game}/turns/1/v/2`];

  it('shows every page, with a strict CSP (no inline script or style) and the security headers', async () => {
    for (const url of pages()) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(PAGE_CSP).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // No inline script, no style attribute or element anywhere (the map SVG included).
      expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(res.body).not.toMatch(/\sstyle=|<style/);
    }
  });

  it('escapes a hostile game name and amendment reason everywhere', async () => {
    const urls = [...pages(), `/games/${game}/edicts.atom`, `/api/games`, `/api/games/${game}`, `/games/${game}/status`];
    for (const url of urls) {
      const res = await get(url, { accept: 'text/html' });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('<script>alert');
      expect(res.body, url).not.toContain('<img src=x');
    }
    const page = await get(`/games/${game}`);
    expect(page.body).toContain('Orione &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
    const amended = await get(`/games/${game}/turns/1/v/2`);
    expect(amended.body).toContain('Contested advance &lt;img src=x onerror=alert(1)&gt; settled');
    expect((await get(`/api/games/${game}/turns/1/v/2`)).json().reason).toBe(HOSTILE_REASON);
    // The API carries the name as data; JSON.parse gives it back exactly.
    expect((await get(`/api/games/${game}`)).json().name).toBe(HOSTILE_NAME);
  });

  it('R-TURN-2: shows whose orders are in, never a word of a sheet before the deadline', async () => {
    for (const url of [
      ...pages(),
      `/api/games/${game}`,
      `/games/${game}/edicts.atom`,
      `/api/games/${game}/turns/1`,
      `/games/${game}/turns/2/edict.json`,
    ]) {
      const res = await get(url);
      expect(res.body, url).not.toContain(SECRET_WORD);
    }
    const api = (await get(`/api/games/${game}`)).json();
    expect(api.turn.number).toBe(3);
    expect(api.ordersReceived).toMatchObject({ hutt: 'valid', sith: 'problems', aristocrats: 'none' });
    // No addresses, no secrets.
    expect(JSON.stringify(api)).not.toMatch(/@example\.com|secret/i);
    expect(api.absences).toEqual([{ faction: 'knights', fromDay: '2099-01-01', toDay: '2099-01-05' }]);
    const page = await get(`/games/${game}`);
    expect(page.body).toContain('received, with problems');
    expect(page.body).toMatch(
      /<th scope="row">Knights<\/th><td><span class="state-none">no sheet<\/span><\/td><td>2099-01-01 to 2099-01-05<\/td>/,
    );
    expect(page.body).not.toContain('2020-01-02');
    expect(page.body).not.toContain('example.com');
  });

  it("R-TURN-3: shows the Chancellor's declaration once accepted, as parsed orders", async () => {
    const api = (await get(`/api/games/${game}`)).json();
    expect(api.turn.chancellor).toBe('hutt');
    expect(api.chancellorDeclaration).toMatchObject({ faction: 'hutt', hostility: ['sith'] });
    const page = await get(`/games/${game}`);
    expect(page.body).toMatch(/<dt>Hostility<\/dt><dd>Sith<\/dd>/);
  });

  it('shows the deadline in the game zone as an absolute time, marked for the viewer’s own zone', async () => {
    const res = await get(`/games/${game}`);
    expect(res.body).toMatch(
      /<time datetime="2025-04-06T18:00:00.000Z" data-local="in your time zone">Sunday, 6 April 2025 at 20:00 CEST \(Europe\/Rome\)<\/time>/,
    );
    expect(res.body).toContain('<script src="/static/local-time.js" defer></script>');
    const js = await get('/static/local-time.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
  });

  it('shows every schedule setting with the deadlines: weekly time, declaration, reminders, early processing, grace, absences', async () => {
    const res = await get(`/games/${game}`);
    expect(res.body).toContain('<summary>The schedule</summary>');
    for (const line of [
      'Deadline every Sunday at 20:00 (Europe/Rome); the Chancellor declares 2 hours before (R-TURN-3).',
      'Reminders 24 hours and 2 hours before the deadline.',
      'Early processing: off.',
      'No grace period after the deadline.',
      'Absences: a deadline moves at most 14 days per player and 28 per game (D-ABS-1).',
    ])
      expect(res.body).toContain(`<li>${line}</li>`);
    // In Italian, the weekday and the lengths in Italian words.
    const it = (await get(`/games/${game}?lang=it`)).body;
    expect(it).toContain('<li>Scadenza ogni domenica alle 20:00 (Europe/Rome); il Cancelliere dichiara 2 ore prima (R-TURN-3).</li>');
    expect(it).toContain('<li>Promemoria 24 ore e 2 ore prima della scadenza.</li>');
  });

  it('R-EDICT-3: the archive keeps every version, and an amendment shows its reason', async () => {
    const v1 = await get(`/games/${game}/turns/1/v/1`);
    expect(v1.body).toContain('Version 1 of 2');
    expect(v1.body).not.toContain('Reason for the amendment');
    const latest = await get(`/games/${game}/turns/1`);
    expect(latest.body).toContain('Version 2 (the latest)');
    expect(latest.body).toContain('Reason for the amendment');
    // The world amended turn 1 with the same outcome: the page says so.
    expect(latest.body).toContain('The units, planets and Chancellor are the same as in the previous version.');
    expect(latest.body).toContain(`href="/games/${game}/turns/1/v/2/edict.json"`);
    const json = await get(`/games/${game}/turns/1/v/2/edict.json`);
    expect(json.headers['content-type']).toContain('application/json');
    expect(json.json()).toMatchObject({ gameId: game, turn: 1, chancellor: 'hutt' });
    expect((await get(`/games/${game}/turns/1/v/3`)).statusCode).toBe(404);
    expect((await get(`/games/${game}/turns/3`)).statusCode).toBe(404); // open: no edict yet
  });

  it('speaks Italian from Accept-Language, ?lang= or the cookie', async () => {
    const it1 = await get(`/games/${game}`, { 'accept-language': 'it-IT,it;q=0.9,en;q=0.5' });
    expect(it1.body).toContain('<html lang="it">');
    expect(it1.body).toContain('Ordini ricevuti');
    expect(it1.headers.vary).toContain('Accept-Language');
    const switched = await get(`/games/${game}?lang=en`, { 'accept-language': 'it' });
    expect(switched.body).toContain('<html lang="en">');
    expect(String(switched.headers['set-cookie'])).toContain('sf_lang=en');
    const cookie = await get(`/games/${game}`, { 'accept-language': 'en', cookie: 'a=b; sf_lang=it' });
    expect(cookie.body).toContain('<html lang="it">');
  });

  it('answers 304 to a matching If-None-Match, and sends Last-Modified', async () => {
    for (const url of [`/games/${game}`, `/api/games/${game}`, '/static/site.css']) {
      const first = await get(url);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['last-modified']).toBeTruthy();
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
  });

  it('serves the map as inline SVG with a text alternative, and as PNG', async () => {
    const page = await get(`/games/${game}`);
    expect(page.body).toMatch(/<svg [^>]*role="img" [^>]*aria-labelledby="sf-map-title"/);
    expect(page.body).toContain('The map in words');
    const png = await get(`/games/${game}/map.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });

  it('D-EDICT-2: the map picture a page links to is in the page’s language', async () => {
    for (const [path, png] of [
      [`/games/${game}`, `/games/${game}/map.png`],
      [`/games/${game}/turns/1/v/2`, `/games/${game}/turns/1/v/2/map.png`],
    ] as const) {
      const it_ = await get(`${path}?lang=it`);
      expect(it_.body).toContain(`href="${png}?lang=it"`);
      expect((await get(`${path}?lang=en`)).body).toContain(`href="${png}?lang=en"`);
      const [pi, pe] = [await get(`${png}?lang=it`), await get(`${png}?lang=en`)];
      expect(pi.headers['content-type']).toBe('image/png');
      expect(pi.rawPayload.equals(pe.rawPayload)).toBe(false);
      // Without ?lang=, the reader's language (as for a page), and caches told that it varies.
      const byHeader = await get(png, { 'accept-language': 'it-IT,it;q=0.9' });
      expect(byHeader.rawPayload.equals(pi.rawPayload)).toBe(true);
      expect(byHeader.headers.vary).toContain('Accept-Language');
      expect(byHeader.headers['set-cookie']).toBeUndefined();
    }
  });

  it('serves an Atom feed of edicts and an iCalendar of deadlines', async () => {
    const atom = await get(`/games/${game}/edicts.atom`);
    expect(atom.headers['content-type']).toContain('application/atom+xml');
    expect(atom.body).toContain(`<id>https://sf.example.org/games/${game}/turns/1/v/2</id>`);
    expect(atom.body).toContain('Contested advance &lt;img src=x onerror=alert(1)&gt; settled');
    const ics = await get(`/games/${game}/deadlines.ics`);
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain('BEGIN:VCALENDAR');
    expect(ics.body).toContain('DTSTART:20250406T180000Z');
  });

  it('describes the API with OpenAPI, and answers 404 / 400 without internals', async () => {
    const spec = (await get('/api/openapi.json')).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/games', '/api/games/{game}', '/api/games/{game}/edicts', '/api/games/{game}/turns/{n}/v/{k}']),
    );
    expect((await get('/api/games/nope')).statusCode).toBe(404);
    expect((await get('/games/nope')).statusCode).toBe(404);
    expect((await get('/games/nope')).body).toContain('Page not found');
    const bad = await get('/api/games/%3Cx%3E');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toContain('<x>');
    expect((await get('/games/%3Cscript%3E')).body).not.toContain('<script>');
  });

  it('the home page lists the games with their turn and Chancellor', async () => {
    const res = await get('/');
    expect(res.body).toContain(`<a href="/games/${game}">Orione &lt;script&gt;`);
    expect(res.body).toContain('<td data-label="Turn">3</td>');
    expect(res.body).toContain('<td data-label="Chancellor">Hutt</td>');
  });
});

describe('compression', () => {
  it('gzips the page for a client that accepts it, with its own validator', async () => {
    const { gunzipSync } = await import('node:zlib');
    const res = await get(`/games/${game}`, { 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toContain('Accept-Encoding');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    const text = gunzipSync(res.rawPayload).toString();
    expect(text).toContain('<svg');
    expect(res.rawPayload.length).toBeLessThan(text.length / 2);
    expect((await get(`/games/${game}`, { 'accept-encoding': 'gzip', 'if-none-match': etag })).statusCode).toBe(304);
    expect((await get(`/games/${game}`)).headers['content-encoding']).toBeUndefined();
  });

  it('sends Brotli once it is made (off the request path), gzip until then', async () => {
    const { brotliDecompressSync } = await import('node:zlib');
    const ask = () => get(`/games/${game}`, { 'accept-encoding': 'br, gzip' });
    let res = await ask();
    expect(['br', 'gzip']).toContain(res.headers['content-encoding']);
    // The same body keeps its compressed copies: poll until the Brotli one is there (a hang guard
    // bounds the loop, not a time budget).
    for (let i = 0; i < 1000 && res.headers['content-encoding'] !== 'br'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      res = await ask();
    }
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<svg');
  });
});

describe('answers from the render cache', () => {
  it('a page or API answer made once is sent again the same way: body, validators, language, security headers, 304', async () => {
    const cached = await buildApp({ db: database.db, log: pino({ level: 'silent' }), publicCacheMs: 60_000 });
    const ask = (url: string, headers: Record<string, string> = {}) =>
      cached.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip', ...headers } });
    const comparable = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'date'));
    try {
      for (const [url, headers] of [
        [`/games/${game}`, {}],
        [`/games/${game}`, { 'accept-language': 'it' }],
        [`/games/${game}?lang=it`, {}],
        [`/api/games/${game}`, {}],
        ['/games/no-such-game', {}],
        [`/api/games/no-such-game`, {}],
      ] as const) {
        const first = await ask(url, headers);
        const again = await ask(url, headers); // made by the first: answered at once
        expect(again.statusCode, url).toBe(first.statusCode);
        expect(again.rawPayload.equals(first.rawPayload), url).toBe(true);
        expect(comparable(again.headers), url).toEqual(comparable(first.headers));
        expect(again.headers['x-content-type-options'], url).toBe('nosniff');
        if (first.statusCode === 200) {
          expect((await ask(url, { ...headers, 'if-none-match': String(first.headers.etag) })).statusCode, url).toBe(304);
        }
      }
      const switched = await ask(`/games/${game}?lang=it`);
      expect(String(switched.headers['set-cookie'])).toContain('sf_lang=it');
      expect(switched.headers['cache-control']).toBe('private, no-cache');
      expect((await ask(`/games/${game}`)).headers['cache-control']).toBe('public, max-age=60');
    } finally {
      await cached.close();
    }
  });
});

describe('a game that has just started', () => {
  it('shows the starting position, no planets yet, turn 1 as an election turn, and its PNG', async () => {
    const { createGame } = await import('../../src/games/index.ts');
    await createGame(
      database.db,
      {
        name: 'Fresh Start',
        players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@fresh.example` })),
        timeZone: 'America/New_York',
        weeklyDeadline: 'mon 18:00',
      },
      { ...world.ctx, now: () => new Date('2025-05-01T10:00:00Z') },
    );
    const page = await get('/games/fresh-start', { 'accept-language': 'it' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Turno 1 · Cancelliere: nessuno · turno di elezione');
    expect(page.body).toContain('La posizione all&#39;inizio del turno 1.');
    expect(page.body).toContain('(America/New_York)</time>');
    expect(page.body).toContain('Nessun editto ancora');
    const api = (await get('/api/games/fresh-start')).json();
    expect(api).toMatchObject({
      turn: { number: 1, election: true, chancellor: null },
      planets: null,
      edicts: [],
      chancellorDeclaration: null,
    });
    expect((await get('/games/fresh-start/map.png')).headers['content-type']).toBe('image/png');
    expect((await get('/api/games/fresh-start/edicts')).json()).toEqual([]);
    const home = await get('/');
    expect(home.body).toContain('<a href="/games/fresh-start">Fresh Start</a>');
  });
});
