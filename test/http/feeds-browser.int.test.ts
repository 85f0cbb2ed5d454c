// The Atom feed read by Chromium's own XML parser (the one a browser-based feed reader uses): with
// a hostile game name, amendment reason and edict text stored, it parses without a parsererror and
// keeps the hostile text as text.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertEdictVersion, latestEdict } from '../../src/db/edicts.ts';
import { games } from '../../src/db/schema.ts';
import { browserWorld } from '../harness/browser.ts';
import { HOSTILE_TEXT } from './hostile-text.ts';
import { buildWorld } from './public-world.ts';

let game: string;

const w = browserWorld(
  async (db) => {
    game = (await buildWorld(db, { name: 'Feeds', players: 4, turns: 2 })).gameId;
    // As stored before the input rule, which now refuses such a name at the door.
    await db.update(games).set({ name: HOSTILE_TEXT }).where(eq(games.id, game));
    const last = (await latestEdict(db, game, 2))!;
    await insertEdictVersion(db, {
      ...last,
      version: last.version + 1,
      reason: HOSTILE_TEXT,
      textEn: `${last.textEn}\n${HOSTILE_TEXT}`,
      createdBy: 'referee:test',
    });
  },
  { publicCacheMs: 0 },
);

describe('the Atom feed in a browser', () => {
  it('parses as XML, entries and hostile text intact', async () => {
    const atom = await (await fetch(`${w.base}/games/${game}/edicts.atom?lang=en`)).text();
    const page = await w.browser.newPage();
    try {
      const read = await page.evaluate((xml) => {
        const doc = new DOMParser().parseFromString(xml, 'application/xml');
        const error = doc.getElementsByTagName('parsererror')[0];
        return {
          error: error ? error.textContent : null,
          root: doc.documentElement.localName,
          title: doc.querySelector('feed > title')?.textContent ?? null,
          author: doc.querySelector('feed > author > name')?.textContent ?? null,
          entries: doc.getElementsByTagName('entry').length,
          scripts: doc.getElementsByTagName('script').length,
          summary: doc.querySelector('entry > summary')?.textContent ?? '',
        };
      }, atom);
      expect(read.error).toBeNull();
      expect(read.root).toBe('feed');
      expect(read.title).toContain('<script>alert(1)</script>');
      expect(read.author).toContain('Starts Foundation');
      expect(read.entries).toBeGreaterThanOrEqual(3);
      expect(read.scripts).toBe(0);
      expect(read.summary).toContain(']]&gt;');
    } finally {
      await page.close();
    }
  });
});
