// The web app through app.inject on an in-process PostgreSQL (PGlite): health, and the public
// status of a game that shows who has sent orders but never what they sent.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { createGame } from '../../src/games/index.ts';
import { buildApp } from '../../src/http/app.ts';
import { escapeHtml } from '../../src/http/html.ts';
import { openTestPglite } from '../harness/pglite.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  database = await openTestPglite();
  await createGame(
    database.db,
    {
      name: 'Orione <b>',
      players: ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'].map((email) => ({ email })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    { actor: 'test', mail: { domain: 'sf.example', ordersLocalPart: 'orders' }, now: () => new Date('2026-03-02T10:00:00Z') },
  );
  await addSheetVersion(database.db, {
    gameId: 'orione-b',
    turn: 1,
    faction: 'sith',
    text: 'V: Hutt\nB2-C3 secret plan',
    parsed: {},
    status: 'problems',
    receivedAt: new Date('2026-03-02T11:00:00Z'),
    inboundId: null,
  });
  app = await buildApp({ db: database.db, log: pino({ level: 'silent' }) });
}, 60_000);
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('web app', () => {
  it('answers /health 503 naming the loops that stopped moving (intake, sending, the turn job)', async () => {
    const stuckApp = await buildApp({ db: database.db, log: pino({ level: 'silent' }), stuck: () => ['turn job'] });
    try {
      const res = await stuckApp.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ok: false, stuck: ['turn job'] });
    } finally {
      await stuckApp.close();
    }
  });

  it('says once an outage that the database does not answer, however often /health is asked', async () => {
    const lines: string[] = [];
    let up = false;
    const flaky = new Proxy(database.db, {
      get: (target, key, receiver) =>
        key === 'execute' && !up
          ? () => Promise.reject(new Error('Connection terminated unexpectedly'))
          : Reflect.get(target, key, receiver),
    });
    const probed = await buildApp({ db: flaky, log: pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) }) });
    try {
      const said = () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg).filter((m) => m.startsWith('health:'));
      for (let i = 0; i < 5; i++) expect((await probed.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
      expect(said()).toEqual(['health: the database does not answer']);
      up = true;
      for (let i = 0; i < 3; i++) expect((await probed.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      up = false;
      for (let i = 0; i < 3; i++) expect((await probed.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
      expect(said()).toEqual([
        'health: the database does not answer',
        'health: the database answers again',
        'health: the database does not answer',
      ]);
    } finally {
      await probed.close();
    }
  });

  it('answers /health once the database answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('R-TURN-2: shows whose orders are in (none / problems / valid) and never the orders themselves', async () => {
    const res = await app.inject({ method: 'GET', url: '/games/orione-b/status' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ game: 'orione-b', turn: 1, election: true, chancellor: null });
    expect(body.ordersReceived).toEqual({ hutt: 'none', aristocrats: 'none', sith: 'problems', knights: 'none' });
    expect(res.body).not.toContain('B2-C3');
    expect(res.body).not.toContain('secret plan');
  });

  it('escapes what users wrote when it renders HTML', async () => {
    const res = await app.inject({ method: 'GET', url: '/games/orione-b/status', headers: { accept: 'text/html' } });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Orione &lt;b&gt;');
    expect(res.body).not.toContain('Orione <b>');
    expect(escapeHtml(`<script>"x"&'y'</script>`)).toBe('&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;');
  });

  it('answers 404 for a game that does not exist, without internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/games/nope/status' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'no such game' });
  });
});
