// Settling a dispute end to end in a real browser (Debian's Chromium through playwright-core,
// offline): a referee logs in at /referee, previews the open turn, amends the closed one
// — the other unit advances into the contested cell (R-ADV-2) — with a reason, and the public game
// page, the archive (permanent links to both versions, what changed and why, R-EDICT-3) and the
// Atom feed all show the new version at once, through the public pages' cache as served. Then a
// player on a phone opens the game and reads the map.
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listEdicts } from '../../src/db/edicts.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { ARTIFACTS, browserWorld } from '../harness/browser.ts';
import { contestedGame, MAIL } from '../referee/world.ts';

const REASON = 'the Chancellor chose <L8> & told us';
let gameId: string;
let password: string;

const w = browserWorld(
  async (db) => {
    // Turn 1 closed now on a contested advance: the dispute window is open and turn 2 is open to preview.
    ({ gameId, password } = await contestedGame(db, 'Disputa <b>'));
    // The public pages keep their default cache: what the amendment must get through.
  },
  { referee: { mail: MAIL } },
);

function watchCsp(page: Page): string[] {
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
  });
  return blocked;
}

/** The Atom feed's entries as the browser parses the XML: [title, link]. */
async function feedEntries(page: Page): Promise<Array<[string, string]>> {
  const res = await page.request.get(`${w.base}/games/${gameId}/edicts.atom`);
  expect(res.status()).toBe(200);
  const xml = await res.text();
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    return [...doc.querySelectorAll('entry')].map(
      (e) => [e.querySelector('title')!.textContent!, e.querySelector('link')!.getAttribute('href')!] as [string, string],
    );
  }, xml);
}

describe('a dispute settled in the browser', () => {
  it('logs in, previews, amends the contested advance with a reason; the game page, the archive and the feed show version 2', async () => {
    const edict1 = (await listEdicts(w.db, gameId))[0]!;
    const contested = edict1.json.advances.find((a) => a.to === 'I8')!;
    expect(contested.contested).toBe(true);
    const other = contested.candidates.find((c) => c !== contested.from)!;
    expect(other).toMatch(/^[HL]8$/);

    const context = await w.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const blocked = watchCsp(page);

    // Before, in Italian: the public pages know one version. They are now in the pages' cache,
    // which keeps a page up to its time-to-live (1 s, stated as max-age); the English pages read
    // after the amendment are not among them.
    const before = await page.goto(`${w.base}/games/${gameId}?lang=it`);
    expect(before?.headers()['cache-control']).toBe('private, no-cache'); // it sets the language cookie
    expect(await page.locator('#archive-h + ul').textContent()).not.toContain('versione 2');
    expect((await page.goto(`${w.base}/games/${gameId}/turns/1`))?.headers()['cache-control']).toBe('public, max-age=1');
    expect(await page.locator('.amendment').count()).toBe(0);
    expect(await listEdicts(w.db, gameId)).toHaveLength(1);

    // The referee logs in and previews the open turn 2: a map, nothing published.
    await page.goto(`${w.base}/referee`);
    expect(new URL(page.url()).pathname).toBe('/referee/login');
    await page.fill('#email', 'ref@x.org');
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${w.base}/referee`), page.click('button[type=submit]')]);
    await Promise.all([page.waitForURL(`${w.base}/referee/games/${gameId}`), page.click(`a[href="/referee/games/${gameId}"]`)]);
    await Promise.all([page.waitForURL(`${w.base}/referee/games/${gameId}/preview`), page.click('text=Preview')]);
    expect(await page.locator('.map svg').count()).toBe(1);
    expect(await page.locator('.notice').textContent()).toContain('Nothing is stored, mailed or published');
    await page.goBack();

    // The amendment: the other candidate into I8, with a reason holding markup.
    await page.selectOption('#adv-I8', other);
    await page.fill('#amend-reason', REASON);
    await Promise.all([page.waitForURL(/done=amended/), page.click('text=Publish the amended edict')]);
    expect(await page.locator('.notice').textContent()).toContain('The amended edict is published');
    const versions = await listEdicts(w.db, gameId);
    expect(versions.map((v) => [v.version, v.reason])).toEqual([
      [1, null],
      [2, REASON],
    ]);
    expect(versions[1]!.json.advances.find((a) => a.to === 'I8')!.from).toBe(other);
    expect(await listOutbox(w.db, { gameId, kind: 'edict-amended' })).toHaveLength(4);

    // The game page: the archive lists both versions, the map is the amended position.
    await page.goto(`${w.base}/games/${gameId}?lang=en`);
    const archive = page.locator('#archive-h + ul');
    expect(await archive.textContent()).toContain('version 2');
    expect(await archive.locator(`a[href="/games/${gameId}/turns/1/v/2"]`).count()).toBe(1);
    const desc = await page.locator('figure.map svg desc').textContent();
    expect(desc).toContain('I8');

    // The archive: the newest version, what changed and why (escaped), links to both versions.
    await page.goto(`${w.base}/games/${gameId}/turns/1`);
    expect(await page.locator('.lead').textContent()).toContain('Version 2 (the latest)');
    expect(await page.locator('.amendment').textContent()).toContain(REASON);
    expect(await page.locator('.amendment b').count()).toBe(0);
    const changes = await page.locator('.amendment li').allTextContents();
    // The chosen unit left its cell for I8; the one the engine had moved stays home.
    expect(changes).toEqual(
      expect.arrayContaining([expect.stringContaining(`no longer in ${other}`), expect.stringContaining(`now in ${contested.from}`)]),
    );
    expect(await page.locator('[aria-current="page"]').textContent()).toBe('version 2');
    // The permanent link of the first version still shows it, unamended.
    await Promise.all([page.waitForURL(`${w.base}/games/${gameId}/turns/1/v/1`), page.click(`a[href="/games/${gameId}/turns/1/v/1"]`)]);
    expect(await page.locator('.lead').textContent()).toContain('Version 1 of 2');
    expect(await page.locator('.amendment').count()).toBe(0);
    expect((await page.goto(`${w.base}/games/${gameId}/turns/1/v/2`))?.status()).toBe(200);
    expect(await page.locator('.amendment').textContent()).toContain(REASON);

    // The feed: a new entry for version 2, at its permanent link, newest first.
    const entries = await feedEntries(page);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual(['Turn 1: the edict amended (version 2)', `${w.base}/games/${gameId}/turns/1/v/2`]);
    const atom = await (await page.request.get(`${w.base}/games/${gameId}/edicts.atom`)).text();
    expect(atom).not.toContain('<L8>');

    // The Italian pages read before the amendment show it too once their second is up.
    await expect
      .poll(
        async () => {
          await page.goto(`${w.base}/games/${gameId}/turns/1?lang=it`);
          return page.locator('.lead').textContent();
        },
        { timeout: 60_000, interval: 250 },
      )
      .toContain('Versione 2');
    expect(await page.locator('.amendment').textContent()).toContain(REASON);

    expect(blocked).toEqual([]);
    await context.close();
  });

  it('a player on a phone opens the game and reads the map: visible, titled, described, no sideways scroll', async () => {
    const context = await w.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'it-IT' });
    const page = await context.newPage();
    const blocked = watchCsp(page);
    expect((await page.goto(`${w.base}/games/${gameId}`))?.status()).toBe(200);
    const map = page.locator('figure.map svg');
    await map.scrollIntoViewIfNeeded();
    expect(await map.isVisible()).toBe(true);
    // Drawn wider than the phone for legible labels, panning inside a box that fits the screen (D-WEB-8).
    const box = (await page.locator('figure.map .map-scroll').boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(box.width).toBeLessThanOrEqual(360);
    expect((await map.boundingBox())!.width).toBeGreaterThan(600);
    // Its accessible name and description are the <title> and <desc> it points at, in Italian.
    const named = await map.evaluate((svg) => ({
      role: svg.getAttribute('role'),
      title: document.getElementById(svg.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
      desc: document.getElementById(svg.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
    }));
    expect(named.role).toBe('img');
    expect(named.title).toContain('Disputa <b>');
    expect(named.desc.length).toBeGreaterThan(40);
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(ARTIFACTS, 'amended-game-360x740.png'), fullPage: true });
    expect(blocked).toEqual([]);
    await context.close();
  });
});
