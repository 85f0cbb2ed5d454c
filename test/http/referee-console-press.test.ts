// The console's press view (docs/press.md §5, D-PRESS-10): every message with its writer, the
// anonymous one's too, reported first, behind the referee's session; the text escaped. Press is
// written by mail through the real intake, as players write it. Through app.inject on PGlite.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportMessage } from '../../src/db/press.ts';
import { pressMessages } from '../../src/db/schema.ts';
import { buildApp } from '../../src/http/app.ts';
import { addReferee, assignReferee, setRefereePassword } from '../../src/referee/accounts.ts';
import { ADDRESSES, deliver, makeWorld, orderMail, privateTo, type World } from '../mail/intake/world.ts';
import { logIn, MAIL, type Browser } from '../referee/world.ts';

let world: World;
let app: Awaited<ReturnType<typeof buildApp>>;
let browser: Browser;
const PASSWORD = 'own password of the press referee';

beforeAll(async () => {
  world = await makeWorld();
  const db = world.database.db;
  // Hutt writes anonymously to the Sith; the Aristocrats broadcast, and the Sith report it.
  await deliver(
    world,
    orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'PRESS ANONYMOUS TO Sith\nThe <b>Knights</b> lie.\nENDPRESS\n' }),
  );
  await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'BROADCAST\nPeace for all.\n' }));
  const peace = (await db.select().from(pressMessages)).find((m) => m.text.includes('Peace'))!;
  const sith = world.created.players.find((p) => p.faction === 'sith')!;
  await reportMessage(db, { messageId: peace.id, playerId: sith.id, reason: 'spam <script>', inboundId: null });
  await addReferee(db, 'press-ref@x.org', 'test');
  await setRefereePassword(db, 'press-ref@x.org', 'test', PASSWORD);
  await assignReferee(db, world.created.game.id, 'press-ref@x.org', 'test');
  app = await buildApp({ db, log: pino({ level: 'silent' }), referee: { mail: MAIL } });
  browser = await logIn(app, 'press-ref@x.org', PASSWORD);
}, 120_000);
afterAll(async () => {
  await app?.close(); // the world's database is the file's, closed by its harness
});

describe("the console's press view", () => {
  it('lists every message with its writer, the anonymous one named for the referee, the reported one first, all escaped', async () => {
    const res = await app.inject({ method: 'GET', url: `/referee/games/${world.created.game.id}/press`, cookies: browser.cookies });
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain('2 messages, 1 reported (first)');
    // Reported first: the broadcast comes before the anonymous message, though it is newer only by a mail.
    expect(body.indexOf('Peace for all.')).toBeLessThan(body.indexOf('lie.'));
    expect(body).toContain('reported');
    expect(body).toContain('spam &lt;script&gt;');
    expect(body).toMatch(/from hutt \(anna@example\.org\), anonymous to players to sith/i);
    expect(body).toMatch(/from aristocrats \(bruno@example\.org\) to everyone/i);
    expect(body).toContain('The &lt;b&gt;Knights&lt;/b&gt; lie.');
    expect(body).not.toContain('<b>Knights</b>');
  });

  it('is behind the referee login, and linked from the game page', async () => {
    const anonymous = await app.inject({ method: 'GET', url: `/referee/games/${world.created.game.id}/press` });
    expect(anonymous.statusCode).not.toBe(200);
    expect(anonymous.body).not.toContain('anna@example.org');
    const page = await app.inject({ method: 'GET', url: `/referee/games/${world.created.game.id}`, cookies: browser.cookies });
    expect(page.body).toContain(`/referee/games/${world.created.game.id}/press`);
  });
});
