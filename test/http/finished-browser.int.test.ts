// A finished game's page on a phone (360×740, Debian's Chromium): the winner is written in the
// page's own header, whole on screen (the map's header alone was cut after "VITTORIA:"), and the
// map's box fits the width (the map pans in it, D-WEB-8). R-WIN-2.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, browserWorld } from '../harness/browser.ts';
import { buildWorld } from './public-world.ts';

let game: string;
const w = browserWorld(
  async (db) => {
    game = (await buildWorld(db, { name: 'Nebula', players: 4, turns: 2, lastTurn: 2 })).gameId;
  },
  { publicCacheMs: 0 },
);

describe('a finished game on a phone (360×740)', () => {
  it('shows who won under the heading, whole, and the whole map, with no sideways scroll', async () => {
    const context = await w.browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'it-IT' });
    try {
      const page = await context.newPage();
      expect((await page.goto(`${w.base}/games/${game}`, { waitUntil: 'load' }))?.status()).toBe(200);
      const winner = page.locator('p.lead strong.winner');
      expect(await winner.textContent()).toMatch(/^VITTORIA[^:]*: \S+.*\(R-WIN-2/);
      const box = (await winner.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      // Above the fold: read before the map.
      expect(box.y + box.height).toBeLessThan(740);
      const map = (await page.locator('figure.map .map-scroll').boundingBox())!;
      expect(map.x + map.width).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBe(360);
      await page.screenshot({ path: join(ARTIFACTS, 'game-finished-phone-360x740.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
