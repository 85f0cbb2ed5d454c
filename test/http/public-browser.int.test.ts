// A player on a phone and on a desktop opens a game's page in a real browser (Debian's Chromium
// through playwright-core, offline): the map is there and fits, the deadline shows in the viewer's
// own zone too, the strict CSP blocks nothing of ours, and axe-core finds no serious or critical
// accessibility issue. Screenshots go to test-artifacts/ for CI to keep.
import { join } from 'node:path';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, browserWorld } from '../harness/browser.ts';
import { buildWorld } from './public-world.ts';

let game: string;

const w = browserWorld(
  async (db) => {
    game = (await buildWorld(db, { players: 8, turns: 2 })).gameId;
  },
  { publicCacheMs: 0 },
);

describe.each([
  { name: 'phone', width: 360, height: 740, lang: 'it-IT' },
  { name: 'desktop', width: 1280, height: 800, lang: 'en-GB' },
])('the game page on a $name ($width×$height)', ({ name, width, height, lang }) => {
  it('shows the map, the deadlines in both zones, and passes axe-core', async () => {
    const context = await w.browser.newContext({ viewport: { width, height }, locale: lang, timezoneId: 'America/New_York' });
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
    });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    const res = await page.goto(`${w.base}/games/${game}`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);

    // The map is inline; its box is no wider than the screen (on a phone the map is drawn wider, for
    // legible labels, pans inside the box and says so: D-WEB-8); the page does not scroll sideways.
    const map = page.locator('figure.map svg');
    await expect.poll(() => map.count()).toBe(1);
    const box = (await page.locator('figure.map .map-scroll').boundingBox())!;
    expect(box.width).toBeGreaterThan(Math.min(width - 48, 900)); // the screen, or 60rem on a desktop
    expect(box.width).toBeLessThanOrEqual(width);
    const drawn = (await map.boundingBox())!.width;
    expect(drawn).toBeGreaterThanOrEqual(name === 'phone' ? 600 : box.width - 1);
    if (name !== 'phone') expect(drawn).toBeLessThanOrEqual(box.width + 1);
    expect(await page.locator('.map-hint').isVisible()).toBe(name === 'phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Our stylesheet applied (a CSP or path mistake would leave the skip link on screen).
    expect(await page.locator('a.skip').evaluate((a) => a.getBoundingClientRect().left)).toBeLessThan(0);

    // local-time.js wrote each deadline in the viewer's zone, absolute.
    const local = page.locator('.local-time').first();
    await expect.poll(() => local.count()).toBeGreaterThan(0);
    expect(await local.textContent()).toContain('America/New_York');
    expect(await local.textContent()).toMatch(/2025/);

    await page.screenshot({ path: join(ARTIFACTS, `game-${name}-${width}x${height}.png`), fullPage: true });

    // axe-core through the DevTools protocol: the page's CSP stays as served.
    await page.evaluate(axe.source);
    const results = await page.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
    );
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);

    expect(blocked).toEqual([]);
    expect(failed).toEqual([]);
    await context.close();
  });
});

describe('the archive in a browser', () => {
  it('opens an amended edict and passes axe-core', async () => {
    const context = await w.browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${w.base}/games/${game}/turns/1`);
    expect(await page.locator('h1').textContent()).toContain('Imperial Edict, turn 1');
    expect(await page.locator('.amendment').textContent()).toContain('<img src=x onerror=alert(1)>');
    await page.evaluate(axe.source);
    const results = await page.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
    );
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await context.close();
  });
});
