// Settling a dispute from the referee console: a contested advance amended with a
// reason (R-ADV-2, R-EDICT-3), a roll-back, a pause — through app.inject, the same session check
// and CSRF token as every other action, with what the engine refuses shown as the referee's page.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { listEdicts } from '../../src/db/edicts.ts';
import { findGame } from '../../src/db/games.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { findTurn } from '../../src/db/turns.ts';
import { seatHistoryOf } from '../../src/db/players.ts';
import { listPlayers } from '../../src/db/players.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { contestedGame, FORM, form, logIn, MAIL, type Browser } from '../referee/world.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let browser: Browser;
let gameId: string;

beforeAll(async () => {
  database = await openTestPglite();
  const db = database.db;
  let password: string;
  // Turn 1 closed just now on a contested advance: I8 falls, H8 advances; the dispute window is open.
  ({ gameId, password } = await contestedGame(db, 'Disputed <i>'));
  app = await buildApp({ db, log: pino({ level: 'silent' }), referee: { mail: MAIL } });
  browser = await logIn(app, 'ref@x.org', password);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (path: string, fields: Record<string, string>, token = browser.token) =>
  app.inject({
    method: 'POST',
    url: `/referee/games/${gameId}/${path}`,
    cookies: browser.cookies,
    headers: FORM,
    payload: form({ _csrf: token, ...fields }),
  });

describe('disputes from the console', () => {
  it('shows the contested advance with its candidates, and the roll-back and pause forms', async () => {
    const page = await app.inject({ method: 'GET', url: `/referee/games/${gameId}`, cookies: browser.cookies });
    expect(page.body).toContain('name="advance:I8"');
    expect(page.body).toMatch(/<option value="L8">L8<\/option>/);
    expect(page.body).toContain(`action="/referee/games/${gameId}/rollback"`);
    expect(page.body).toContain(`action="/referee/games/${gameId}/pause"`);
  });

  it('refuses without the CSRF token, and shows what the engine refuses as a page, changing nothing', async () => {
    expect((await post('amend', { turn: '1', 'advance:I8': 'L8', reason: 'x' }, 'forged')).statusCode).toBe(403);
    const wrong = await post('amend', { turn: '1', 'advance:I8': 'B2', reason: 'x' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('not one of that cell');
    expect(await listEdicts(database.db, gameId)).toHaveLength(1);
  });

  it('amends the contested advance with a reason: a new version, mailed to every player, the reason escaped on the page', async () => {
    const res = await post('amend', { turn: '1', 'advance:I8': 'L8', reason: 'the Chancellor chose <L8>' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=amended`);
    const versions = await listEdicts(database.db, gameId);
    expect(versions.map((v) => [v.version, v.reason, v.createdBy])).toEqual([
      [1, null, 'system'],
      [2, 'the Chancellor chose <L8>', 'referee:ref@x.org'],
    ]);
    expect(await listOutbox(database.db, { gameId, kind: 'edict-amended' })).toHaveLength(4);
    const page = await app.inject({ method: 'GET', url: res.headers.location as string, cookies: browser.cookies });
    expect(page.body).toContain('The amended edict is published');
    expect(page.body).toContain('the Chancellor chose &lt;L8&gt;');
  });

  it("gives a seat to a substitute: new code and welcome, the old player told, the seat's history kept", async () => {
    const db = database.db;
    const before = (await listPlayers(db, gameId)).find((p) => p.faction === 'sith')!;
    const res = await post(`players/${before.id}/replace`, { email: 'New.Sith@x.org', lang: 'it', reason: 'c@x.org has left' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=replaced`);
    const after = (await listPlayers(db, gameId)).find((p) => p.faction === 'sith')!;
    expect(after).toMatchObject({ id: before.id, email: 'new.sith@x.org', lang: 'it' });
    expect(after.secret).not.toBe(before.secret);
    expect((await listOutbox(db, { gameId, kind: 'welcome' })).filter((m) => m.toAddress === 'new.sith@x.org')).toHaveLength(1);
    expect((await listOutbox(db, { gameId, kind: 'seat-left' })).map((m) => m.toAddress)).toEqual([before.email]);
    expect((await seatHistoryOf(db, gameId)).map((h) => [h.faction, h.email, h.reason])).toEqual([
      ['sith', before.email, 'c@x.org has left'],
    ]);
    const again = await post(`players/${before.id}/replace`, { email: 'a@x.org', reason: 'x' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('already plays');
  });

  it('pauses and resumes, then rolls the turn back: it is open again, players told', async () => {
    expect((await post('pause', { reason: 'holiday' })).statusCode).toBe(303);
    expect((await findGame(database.db, gameId))!.status).toBe('paused');
    expect((await post('resume', { reason: 'back' })).statusCode).toBe(303);
    const tooLate = await post('rollback', { hours: '337', reason: 'wrong map' });
    expect(tooLate.statusCode).toBe(400);
    expect(tooLate.body).toContain('a re-opened turn is due within 336 hours');
    const res = await post('rollback', { hours: '48', reason: 'wrong map' });
    expect(res.statusCode).toBe(303);
    expect((await findTurn(database.db, gameId, 1))!.status).toBe('open');
    expect(await findTurn(database.db, gameId, 2)).toBeNull();
    expect(await listOutbox(database.db, { gameId, kind: 'rollback' })).toHaveLength(4);
  });
});
