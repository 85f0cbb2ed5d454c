// Press on the public pages (docs/press.md §3, §4.7): the game page and its JSON list the messages
// to everyone when observers = broadcasts, and nothing otherwise; a finished game with reveal =
// at-end publishes its messages between players on /games/<id>/press (D-PRESS-18). Hostile text
// stays text; an anonymous writer is named nowhere (D-PRESS-10); messages to the referees, refused
// ones and those not yet visible are never published. Through app.inject on PGlite.
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { sideName } from '../../src/adjudicator/render/vocabulary.ts';
import type { Database } from '../../src/db/client.ts';
import { listPressForReferee } from '../../src/db/press.ts';
import { games } from '../../src/db/schema.ts';
import { createGame } from '../../src/games/index.ts';
import { buildApp } from '../../src/http/app.ts';
import { pressList } from '../../src/http/referee/press-list.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { eq } from 'drizzle-orm';
import { ANONYMOUS_BROADCAST, ANONYMOUS_WRITER, seedPress, setPress, UNPUBLISHED } from './press-world.ts';

const MAIL = { domain: 'sf.example', ordersLocalPart: 'orders' };
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let gameId: string;
const board = classicMap();
const hidden = [sideName(board, ANONYMOUS_WRITER, 'en'), sideName(board, ANONYMOUS_WRITER, 'it'), ANONYMOUS_WRITER];

beforeAll(async () => {
  database = await openTestPglite();
  const { game } = await createGame(
    database.db,
    {
      name: 'Loose Lips',
      players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@x.org` })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    { actor: 'test', mail: MAIL },
  );
  gameId = game.id;
  await seedPress(database.db, gameId);
  app = await buildApp({ db: database.db, log: pino({ level: 'silent' }), publicCacheMs: 0 });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});
beforeEach(async () => {
  await setPress(database.db, gameId, {});
  await database.db.update(games).set({ status: 'active' }).where(eq(games.id, gameId));
});

const get = (url: string) => app.inject({ method: 'GET', url });
/** The game page's broadcasts section, or '' when it has none. */
const section = (body: string) => /<section aria-labelledby="press-h">[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';

describe('the game page and its JSON: messages to everyone', () => {
  it('lists nothing when observers = nothing (the default)', async () => {
    const page = (await get(`/games/${gameId}?lang=en`)).body;
    expect(section(page)).toBe('');
    expect(page).not.toContain('Peace to all');
    expect(page).not.toContain(ANONYMOUS_BROADCAST);
    const json = (await get(`/api/games/${gameId}`)).json();
    expect(json.broadcasts).toBeNull();
  });

  it('lists the visible ones newest first, escaped, line breaks kept, the anonymous writer unnamed', async () => {
    await setPress(database.db, gameId, { observers: 'broadcasts' });
    for (const lang of ['en', 'it'] as const) {
      const page = (await get(`/games/${gameId}?lang=${lang}`)).body;
      const s = section(page);
      expect(s).toContain(lang === 'en' ? 'Messages to everyone' : 'Messaggi a tutti');
      // Newest first: the anonymous one came after the Hutt's.
      expect(s.indexOf(ANONYMOUS_BROADCAST)).toBeGreaterThan(-1);
      expect(s.indexOf(ANONYMOUS_BROADCAST)).toBeLessThan(s.indexOf('Peace to all.'));
      expect(s).toContain(lang === 'en' ? '<strong>Anonymous</strong>' : '<strong>Anonimo</strong>');
      expect(s).toContain('<strong>Hutt</strong>');
      expect(s).toContain('Peace to all.\nSecond line');
      expect(s).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page).not.toContain('<script>alert(1)');
      for (const name of hidden) expect(s.toLowerCase()).not.toContain(name.toLowerCase());
      for (const word of UNPUBLISHED) expect(page).not.toContain(word);
      expect(page).not.toContain('A private deal');
    }
    const json = (await get(`/api/games/${gameId}`)).json();
    expect(json.broadcasts.total).toBe(2);
    expect(json.broadcasts.newest.map((b: { writer: string | null }) => b.writer)).toEqual([null, 'hutt']);
    expect(json.broadcasts.newest[1].text).toContain('<script>alert(1)</script>');
    const raw = JSON.stringify(json.broadcasts).toLowerCase();
    for (const name of hidden) expect(raw).not.toContain(name.toLowerCase());
    for (const word of UNPUBLISHED) expect(raw).not.toContain(word.toLowerCase());
    expect(raw).not.toMatch(/"id"|receivedat/);
  });
});

describe('D-PRESS-18: /games/<id>/press', () => {
  it('is not published while the game goes on, nor after it with reveal = never', async () => {
    await setPress(database.db, gameId, { reveal: 'at-end' });
    let res = await get(`/games/${gameId}/press?lang=en`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This game&#39;s messages are not published');
    expect(res.body).not.toContain('A private deal');
    await database.db.update(games).set({ status: 'finished' }).where(eq(games.id, gameId));
    await setPress(database.db, gameId, { reveal: 'never' });
    res = await get(`/games/${gameId}/press?lang=it`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('I messaggi di questa partita non sono pubblicati');
    expect(res.body).not.toContain('A private deal');
    expect((await get(`/games/${gameId}?lang=en`)).body).not.toContain(`/games/${gameId}/press`);
    expect((await get('/games/no-such-game/press')).statusCode).toBe(404);
  });

  it('is looked up within the cached answer: a crowd asking costs one lookup per TTL, the "not published" page kept as a 404', async () => {
    // A TTL no test outlasts: whatever changes in the database, the answer is the cached one.
    const cached = await buildApp({ db: database.db, log: pino({ level: 'silent' }), publicCacheMs: 3_600_000 });
    try {
      const first = await cached.inject({ method: 'GET', url: `/games/${gameId}/press?lang=en` });
      expect(first.statusCode).toBe(404);
      expect(first.body).toContain('This game&#39;s messages are not published');
      // Were the game looked up on each request, the next one would see it finished and published.
      await database.db.update(games).set({ status: 'finished' }).where(eq(games.id, gameId));
      await setPress(database.db, gameId, { reveal: 'at-end' });
      // Its ETag asked again: still the whole 404, never a 304 (that answers only a 200).
      const etag = first.headers.etag as string | undefined;
      const again = await cached.inject({
        method: 'GET',
        url: `/games/${gameId}/press?lang=en`,
        headers: etag ? { 'if-none-match': etag } : {},
      });
      expect(again.statusCode).toBe(404);
      expect(again.body).toBe(first.body);
      expect(etag).toBeDefined();
      expect((await cached.inject({ method: 'GET', url: '/games/no-such-game/press' })).statusCode).toBe(404);
    } finally {
      await cached.close();
    }
  });

  it('once finished with reveal = at-end: every message between players by turn and conversation, writers and audiences, the anonymous writer unnamed, nothing to the referees', async () => {
    await database.db.update(games).set({ status: 'finished' }).where(eq(games.id, gameId));
    await setPress(database.db, gameId, { reveal: 'at-end' });
    const res = await get(`/games/${gameId}/press?lang=en`);
    expect(res.statusCode).toBe(200);
    const body = res.body;
    // Turn 1 then turn 2; the Hutt–Aristocrats conversation is in both.
    expect(body.indexOf('<h2 id="press-t1">Turn 1</h2>')).toBeGreaterThan(-1);
    expect(body.indexOf('<h2 id="press-t2">Turn 2</h2>')).toBeGreaterThan(body.indexOf('press-t1'));
    expect(body).toContain('Conversation 1: everyone');
    expect(body).toMatch(/Conversation 3: Hutt and Aristocrats<\/h3>/);
    expect(body).toContain('<strong>Hutt → Aristocrats</strong>');
    expect(body).toContain('<strong>Aristocrats → Hutt</strong>');
    expect(body).toContain('<strong>Anonymous → Aristocrats and Sith</strong>');
    // A reply to the anonymous writer names them as they wrote: "Anonymous", never "Sith → ·".
    expect(body).toContain('<strong>Sith → Aristocrats and Anonymous</strong>');
    expect(body).toContain('<strong>Anonymous → everyone</strong>');
    expect(body).toContain('Conversation 4: Anonymous, Aristocrats and Sith');
    // A conversation keeps its heading in every turn it spoke in.
    expect(body.match(/Conversation 3: Hutt and Aristocrats<\/h3>/g)).toHaveLength(2);
    expect(body).toContain('A group whisper.');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>alert(1)');
    for (const word of UNPUBLISHED) expect(body).not.toContain(word);
    for (const name of hidden) expect(body.toLowerCase()).not.toContain(name.toLowerCase());
    const it_ = (await get(`/games/${gameId}/press?lang=it`)).body;
    expect(it_).toContain('<strong>Anonimo → gli Aristocratici e i Sith</strong>');
    expect(it_).toContain('<strong>Sith → gli Aristocratici e Anonimo</strong>');
    // Visitors are told what is published, never a decision's id they cannot look up.
    expect(body).toContain('The game is over and its messages are published: to everyone');
    expect(it_).toContain('La partita è finita e i suoi messaggi sono pubblicati: a tutti');
    for (const page of [body, it_]) expect(page).not.toMatch(/\bD-[A-Z]+-\d/);
    // The game page links it.
    expect((await get(`/games/${gameId}?lang=en`)).body).toContain(`<a href="/games/${gameId}/press">The game&#39;s messages</a>`);
  });
});

describe("the console's view of the same press", () => {
  it('names the real reader of a reply to an anonymous writer, and a refusal in the words its writer got', async () => {
    const list = await listPressForReferee(database.db, gameId);
    const reply = list.find((m) => m.text === 'A reply to the whisperer.')!;
    expect(reply.audienceFactions).toEqual(['aristocrats']);
    expect(reply.hiddenReader).toEqual({ faction: 'knights', email: 'd@x.org' });
    // The anonymous writer's own message reaches no hidden reader: they wrote it.
    expect(list.find((m) => m.text === 'A group whisper.')!.hiddenReader).toBeNull();
    const body = pressList(list, board, 'Europe/Rome').value;
    expect(body).toContain('to Aristocrats, Knights (d@x.org), the conversation&#39;s anonymous writer</p>');
    expect(body).not.toContain('(nobody)');
    expect(body).toContain('<strong>Refused:</strong> nobody plays Merchants');
    expect(body).not.toContain('{&quot;reason');
    expect(body).toMatch(/from Sith \(c@x\.org\)/);
  });
});
