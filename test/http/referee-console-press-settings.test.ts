// The console's form for a game's press settings (docs/press.md §3): shown with the current values,
// behind the session and the CSRF token; a change is stored, logged and mailed to every player; a
// change that changes nothing is said so and mails nobody; a wrong value is a page saying why.
// Through app.inject on PGlite.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/db/audit.ts';
import { findGame } from '../../src/db/games.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { pressSettingsOf } from '../../src/games/index.ts';
import { buildApp } from '../../src/http/app.ts';
import { addReferee, assignReferee, setRefereePassword } from '../../src/referee/accounts.ts';
import { makeWorld, type World } from '../mail/intake/world.ts';
import { form, FORM, logIn, MAIL, type Browser } from '../referee/world.ts';

let world: World;
let app: Awaited<ReturnType<typeof buildApp>>;
let browser: Browser;
const PASSWORD = 'own password of the settings referee';
const gameId = 'andromeda';
const current = { mode: 'both', private: 'yes', open: 'always', observers: 'nothing', reveal: 'never', maxChars: '8000', perHour: '20' };

beforeAll(async () => {
  world = await makeWorld();
  const db = world.database.db;
  await addReferee(db, 'settings-ref@x.org', 'test');
  await setRefereePassword(db, 'settings-ref@x.org', 'test', PASSWORD);
  await assignReferee(db, gameId, 'settings-ref@x.org', 'test');
  app = await buildApp({ db, log: pino({ level: 'silent' }), referee: { mail: MAIL } });
  browser = await logIn(app, 'settings-ref@x.org', PASSWORD);
}, 120_000);
afterAll(async () => {
  await app?.close();
});

const post = (fields: Record<string, string>, withToken = true) =>
  app.inject({
    method: 'POST',
    url: `/referee/games/${gameId}/press-settings`,
    cookies: browser.cookies,
    headers: FORM,
    payload: form({ ...(withToken ? { _csrf: browser.token } : {}), ...fields }),
  });
const told = async () => (await listOutbox(world.database.db, { gameId })).filter((m) => m.kind === 'press-settings');

describe("the console's press settings form", () => {
  it('shows every setting with its label and current value', async () => {
    const page = await app.inject({ method: 'GET', url: `/referee/games/${gameId}`, cookies: browser.cookies });
    expect(page.body).toContain('<h2>Press settings</h2>');
    expect(page.body).toContain(`action="/referee/games/${gameId}/press-settings"`);
    expect(page.body).toContain('<label for="press-mode">Messages between players</label>');
    expect(page.body).toContain('<option value="both" selected>both</option>');
    expect(page.body).toContain('<label for="press-max-chars">');
    expect(page.body).toMatch(/id="press-per-hour" name="perHour" type="number" min="1" max="1000" value="20"/);
    expect(page.body).toContain('<li>Messages: signed, or anonymous when the message says ANONYMOUS</li>');
  });

  it('refuses a post without the CSRF token, changing nothing', async () => {
    const res = await post({ ...current, mode: 'off', reason: 'forged' }, false);
    expect(res.statusCode).toBe(403);
    expect(pressSettingsOf((await findGame(world.database.db, gameId))!.pressSettings).mode).toBe('both');
  });

  it('a wrong value is a page saying why, changing nothing', async () => {
    for (const fields of [
      { ...current, mode: '<b>grey</b>', reason: 'x' },
      { ...current, maxChars: '10', reason: 'x' },
      { ...current, private: 'maybe', reason: 'x' },
      { ...current, mode: 'off', reason: '' },
    ]) {
      const res = await post(fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain('class="error"');
      expect(res.body).not.toContain('<b>grey');
    }
    expect(await told()).toHaveLength(0);
  });

  it('a change is stored, logged and mailed to every player; the same again changes nothing and says so', async () => {
    const res = await post({ ...current, mode: 'signed', private: 'no', reason: 'signed <i>only</i>' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=press-settings`);
    expect(pressSettingsOf((await findGame(world.database.db, gameId))!.pressSettings)).toMatchObject({ mode: 'signed', private: false });
    const [audit] = await listAudit(world.database.db, { gameId, action: 'game.press' });
    expect(audit).toMatchObject({
      actor: 'referee:settings-ref@x.org',
      detail: { reason: 'signed <i>only</i>', changed: ['mode', 'private'], to: { mode: 'signed', private: false } },
    });
    expect(await told()).toHaveLength(4);
    const page = await app.inject({ method: 'GET', url: res.headers.location as string, cookies: browser.cookies });
    expect(page.body).toContain('The press settings are changed and every player will be told what changed.');
    expect(page.body).toContain('<option value="signed" selected>signed</option>');
    expect(page.body).toContain('signed &lt;i&gt;only&lt;/i&gt;'); // the audit log, escaped

    const again = await post({ ...current, mode: 'signed', private: 'no', reason: 'again' });
    expect(again.headers.location).toBe(`/referee/games/${gameId}?done=press-unchanged`);
    expect(await told()).toHaveLength(4);
    const said = await app.inject({ method: 'GET', url: again.headers.location as string, cookies: browser.cookies });
    expect(said.body).toContain('nothing changed and nobody was mailed');
  });

  it("a stale form changes only what this referee changed, never reverting another's change made since", async () => {
    const page = await app.inject({ method: 'GET', url: `/referee/games/${gameId}`, cookies: browser.cookies });
    const shown = Object.fromEntries(
      [...page.body.matchAll(/<input type="hidden" name="was_(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    );
    expect(shown).toEqual({ ...current, mode: 'signed', private: 'no' });
    // Another referee (or `sf referee press`) turns press off meanwhile.
    const other = await post({ ...current, mode: 'off', private: 'no', reason: 'quiet' });
    expect(other.headers.location).toBe(`/referee/games/${gameId}?done=press-settings`);
    // The stale form, every field as it was shown, only the hourly cap changed by this referee.
    const stale = Object.fromEntries(Object.entries(shown).map(([k, v]) => [`was_${k}`, v]));
    const res = await post({ ...shown, ...stale, perHour: '5', reason: 'fewer' });
    expect(res.headers.location).toBe(`/referee/games/${gameId}?done=press-settings`);
    expect(pressSettingsOf((await findGame(world.database.db, gameId))!.pressSettings)).toMatchObject({ mode: 'off', perHour: 5 });
    const [audit] = await listAudit(world.database.db, { gameId, action: 'game.press' });
    expect(audit!.detail).toMatchObject({ changed: ['perHour'] });
    // Nothing changed by this referee: nothing sent, nothing changes.
    const same = await post({ ...shown, ...stale, reason: 'nothing' });
    expect(same.headers.location).toBe(`/referee/games/${gameId}?done=press-unchanged`);
    expect(pressSettingsOf((await findGame(world.database.db, gameId))!.pressSettings)).toMatchObject({ mode: 'off', perHour: 5 });
  });
});
