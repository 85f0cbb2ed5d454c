// An observer's unsubscribe link: GET asks, POST (also RFC 8058's one-click) ends the subscription;
// an unknown token gets the same answer, and a GET never unsubscribes.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { activeObservers, addObserver } from '../../src/db/observers.ts';
import { createGame } from '../../src/games/index.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let gameId: string;
let token: string;

beforeAll(async () => {
  database = await openTestPglite();
  const { game } = await createGame(
    database.db,
    {
      name: 'Watched',
      players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@x.org` })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    { actor: 'test', mail: { domain: 'sf.test', ordersLocalPart: 'orders' } },
  );
  gameId = game.id;
  token = (await addObserver(database.db, gameId, 'fan@x.org', 'en')).token;
  app = await buildApp({ db: database.db, log: pino({ level: 'silent' }) });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('/unsubscribe/<token>', () => {
  it('asks on GET without unsubscribing, ends the subscription on a one-click POST', async () => {
    const get = await app.inject({ method: 'GET', url: `/unsubscribe/${token}` });
    expect(get.statusCode).toBe(200);
    expect(get.body).toContain(`<form method="post" action="/unsubscribe/${token}">`);
    expect(await activeObservers(database.db, gameId)).toHaveLength(1);
    const post = await app.inject({
      method: 'POST',
      url: `/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    expect(await activeObservers(database.db, gameId)).toEqual([]);
  });

  it('answers an unknown or malformed token the same way, and never with an internal error', async () => {
    const unknown = await app.inject({ method: 'POST', url: `/unsubscribe/${'x'.repeat(24)}` });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('no more edicts');
    const bad = await app.inject({ method: 'GET', url: '/unsubscribe/%3Cscript%3E' });
    expect(bad.statusCode).toBe(404);
    expect(bad.body).not.toContain('<script>');
  });
});
