// The console's list of disputes (R-TURN-2 step 5): open first with who, turn, when and why, each
// with a reject form behind the session and the CSRF token; rejecting tells the disputer; an
// amendment of the turn settles the rest. Through app.inject on PGlite, as a browser would.
import pino from 'pino';
import { classicMap } from '../../src/adjudicator/map.ts';
import { sideName } from '../../src/adjudicator/render/vocabulary.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { findDispute } from '../../src/db/disputes.ts';
import { findGame } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { listPlayers, type Player } from '../../src/db/players.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { fileDispute } from '../../src/games/disputes.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { FORM, form, gameWithReferee, logIn, MAIL, type Browser } from '../referee/world.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let browser: Browser;
let gameId: string;
let otherGame: string;
let players: Player[];
const ids: number[] = [];

beforeAll(async () => {
  database = await openTestPglite();
  const db = database.db;
  let password: string;
  ({ gameId, password } = await gameWithReferee(db, 'Quarrel', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'ref@x.org'));
  ({ gameId: otherGame } = await gameWithReferee(db, 'Elsewhere', ['e@x.org', 'f@x.org', 'g@x.org', 'h@x.org'], 'two@x.org'));
  // Closed just now, by the real clock: the dispute window is open.
  await closeTurn(db, gameId, 1, { actor: 'system', mail: MAIL }, { force: true });
  const game = (await findGame(db, gameId))!;
  players = await listPlayers(db, gameId);
  for (const [i, reason] of ['I8 was <b>ours</b>', 'The sheet said L8'].entries()) {
    const raw = new TextEncoder().encode(`Message-ID: <c${i}@x>\r\n\r\nDISPUTE\r\n`);
    const { id } = await storeInbound(db, raw, { source: 'imap', sourceKey: `console:${i}` });
    const r = await fileDispute(
      db,
      { actor: 'system', mail: MAIL },
      { game, player: players[i]!, inboundId: id, block: 0, reason, receivedAt: new Date() },
    );
    ids.push((r as { disputeId: number }).disputeId);
  }
  app = await buildApp({ db, log: pino({ level: 'silent' }), referee: { mail: MAIL } });
  browser = await logIn(app, 'ref@x.org', password);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const get = (url: string) => app.inject({ method: 'GET', url, cookies: browser.cookies });
const reject = (game: string, id: number | string, reason: string, token = browser.token) =>
  app.inject({
    method: 'POST',
    url: `/referee/games/${game}/disputes/${id}/reject`,
    cookies: browser.cookies,
    headers: FORM,
    payload: form({ _csrf: token, reason }),
  });

describe('the console’s disputes', () => {
  it('lists the open disputes with faction, address, turn and the reason escaped, each with a reject form', async () => {
    for (const url of [`/referee/games/${gameId}`, `/referee/games/${gameId}/disputes`]) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<h2>Open disputes</h2>');
      expect(page.body).toContain('I8 was &lt;b&gt;ours&lt;/b&gt;');
      expect(page.body).not.toContain('<b>ours</b>');
      // The faction by its name, as players read it, not its id.
      expect(page.body).toContain(`${sideName(classicMap(), players[0]!.faction, 'en')} (${players[0]!.email})`);
      // Upholding is done on the game page, where the amend form is.
      expect(page.body).toContain(`<a href="/referee/games/${gameId}#amend">amend its turn</a> on the game's page`);
      expect(page.body).toMatch(new RegExp(`<strong>#${ids[0]}</strong> turn 1 \\(edict version 1\\)`));
      expect(page.body).toContain(`action="/referee/games/${gameId}/disputes/${ids[1]}/reject"`);
      expect(page.body.indexOf(`#${ids[0]}`)).toBeLessThan(page.body.indexOf(`#${ids[1]}`));
    }
    // The game page names factions as players read them, in its players' table and its forms too.
    const name = sideName(classicMap(), players[0]!.faction, 'en');
    const page = (await get(`/referee/games/${gameId}`)).body;
    expect(page).toContain(`<option value="${players[0]!.faction}">${name}</option>`);
    expect(page).toContain(`<tr><td>${name}</td>`);
    expect(page).not.toMatch(/<td>(hutt|aristocrats|sith|knights)<\/td>/);
    expect((await get(`/referee/games/${otherGame}/disputes`)).statusCode).toBe(404);
  });

  it('refuses a reject without the CSRF token, without a reason, or of another game, changing nothing', async () => {
    expect((await reject(gameId, ids[0]!, 'x', 'forged')).statusCode).toBe(403);
    expect((await reject(gameId, ids[0]!, '   ')).statusCode).toBe(400);
    expect((await reject(otherGame, ids[0]!, 'x')).statusCode).toBe(404);
    expect((await reject(gameId, 'abc', 'x')).statusCode).toBe(400);
    expect(await findDispute(database.db, ids[0]!)).toMatchObject({ status: 'open' });
    expect(await listOutbox(database.db, { gameId, kind: 'dispute-rejected' })).toEqual([]);
  });

  it('rejects with a reason: the disputer told, the list shows it settled after the open one', async () => {
    const res = await reject(gameId, ids[0]!, 'the <advance> stands');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=dispute-rejected`);
    expect(await findDispute(database.db, ids[0]!)).toMatchObject({
      status: 'rejected',
      settledBy: 'referee:ref@x.org',
      settlementReason: 'the <advance> stands',
    });
    const told = await listOutbox(database.db, { gameId, kind: 'dispute-rejected' });
    expect(told.map((m) => m.toAddress)).toEqual([players[0]!.email]);
    const page = await get(res.headers.location as string);
    expect(page.body).toContain('The dispute is rejected');
    expect(page.body).toContain('the &lt;advance&gt; stands');
    expect(page.body).not.toContain(`disputes/${ids[0]}/reject`);
    expect(page.body.indexOf(`<strong>#${ids[1]}</strong>`)).toBeLessThan(page.body.indexOf('<h3>Settled disputes</h3>'));
    // A list, not a seven-column table that a phone squeezed to one letter a line.
    const settledPart = page.body.slice(page.body.indexOf('<h3>Settled disputes</h3>'));
    expect(settledPart).toMatch(/^<h3>Settled disputes<\/h3><ol class="settled"><li id="dispute-\d+"><p><strong>#\d+<\/strong> turn 1, /);
    expect(settledPart).toContain(': rejected (the &lt;advance&gt; stands)</p>');
    const again = await reject(gameId, ids[0]!, 'again');
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('is rejected, not open');
  });
});
