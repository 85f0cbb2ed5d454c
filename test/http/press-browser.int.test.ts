// Press where people read it, in a real browser (Debian's Chromium through playwright-core,
// offline), at 360×740 and 1280×800: the console's press view (the reported message first, the
// anonymous writer named for the referee) and its disputes view (an open dispute); the public game
// page's messages to everyone (observers = broadcasts: the anonymous writer named nowhere,
// D-PRESS-10) and a finished game's revealed messages (D-PRESS-18). No page scrolls sideways.
// Screenshots go to test-artifacts/ (kept by CI).
import { join } from 'node:path';
import axe from 'axe-core';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { sideName } from '../../src/adjudicator/render/vocabulary.ts';
import { findGame } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { listPlayers } from '../../src/db/players.ts';
import { games } from '../../src/db/schema.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { fileDispute } from '../../src/games/disputes.ts';
import { ARTIFACTS, browserWorld } from '../harness/browser.ts';
import { gameWithReferee, MAIL } from '../referee/world.ts';
import { ANONYMOUS_BROADCAST, ANONYMOUS_WRITER, seedPress, setPress } from './press-world.ts';

let gameId: string;
let password: string;
const board = classicMap();
const HIDDEN = new RegExp(`${ANONYMOUS_WRITER}|${sideName(board, ANONYMOUS_WRITER, 'en')}|${sideName(board, ANONYMOUS_WRITER, 'it')}`, 'i');
const SIZES = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];

const w = browserWorld(
  async (db) => {
    ({ gameId, password } = await gameWithReferee(db, 'Whispers', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'ref@x.org'));
    // Closed just now, by the real clock: the dispute window is open.
    await closeTurn(db, gameId, 1, { actor: 'system', mail: MAIL }, { force: true });
    const [player] = await listPlayers(db, gameId);
    const { id } = await storeInbound(db, new TextEncoder().encode('Message-ID: <d1@x>\r\n\r\nDISPUTE\r\n'), {
      source: 'imap',
      sourceKey: 'press-browser:1',
    });
    const filed = await fileDispute(
      db,
      { actor: 'system', mail: MAIL },
      {
        game: (await findGame(db, gameId))!,
        player: player!,
        inboundId: id,
        block: 0,
        reason: 'I8 was ours: the <b>sheet</b> said so',
        receivedAt: new Date(),
      },
    );
    if (filed.kind !== 'filed') throw new Error(`dispute not filed: ${JSON.stringify(filed)}`);
    await seedPress(db, gameId);
    await setPress(db, gameId, { observers: 'broadcasts' });
  },
  { referee: { mail: MAIL }, publicCacheMs: 0 },
);

/** document.scrollingElement.scrollWidth against the window's width: the page never scrolls sideways. */
const widths = (page: Page) => page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));

async function expectFits(page: Page): Promise<void> {
  const { scroll, inner } = await widths(page);
  expect(scroll, page.url()).toBeLessThanOrEqual(inner);
}

async function loggedIn(size: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await w.browser.newContext({ viewport: size });
  const page = await context.newPage();
  await page.goto(`${w.base}/referee/login`);
  await page.fill('#email', 'ref@x.org');
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${w.base}/referee`), page.click('button[type=submit]')]);
  return { context, page };
}

async function seriousA11yIssues(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

const shot = (page: Page, name: string, size: { width: number; height: number }) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}x${size.height}.png`), fullPage: true });

describe('press in the browser', () => {
  it('the console shows the reported message first and the anonymous writer; the disputes view the open dispute', async () => {
    for (const size of SIZES) {
      const { context, page } = await loggedIn(size);
      await page.goto(`${w.base}/referee/games/${gameId}/press`);
      const first = page.locator('#press ol > li').first();
      expect(await first.textContent()).toContain('Peace to all.');
      expect(await first.textContent()).toContain('insults');
      // The referee sees who wrote the anonymous broadcast (D-PRESS-10).
      const anonymous = page.locator('#press ol > li').filter({ hasText: ANONYMOUS_BROADCAST });
      expect(await anonymous.textContent()).toMatch(HIDDEN);
      expect(await page.locator('#press b, #press script').count()).toBe(0);
      await expectFits(page);
      await shot(page, 'console-press', size);

      await page.goto(`${w.base}/referee/games/${gameId}/disputes`);
      expect(await page.locator('body').textContent()).toContain('I8 was ours: the <b>sheet</b> said so');
      await expectFits(page);
      await shot(page, 'console-disputes', size);
      await context.close();
    }
  });

  it('the public game page lists the messages to everyone without the anonymous writer', async () => {
    for (const size of SIZES) {
      const context = await w.browser.newContext({ viewport: size, locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(`${w.base}/games/${gameId}?lang=en`);
      const section = page.locator('section[aria-labelledby="press-h"]');
      const text = (await section.textContent())!;
      expect(text).toContain(ANONYMOUS_BROADCAST);
      expect(text).toContain('Anonymous');
      expect(text).not.toMatch(HIDDEN);
      // The writer's line breaks are kept on screen.
      expect(await section.locator('.press-text', { hasText: 'Peace to all.' }).evaluate((e) => getComputedStyle(e).whiteSpace)).toBe(
        'pre-wrap',
      );
      await section.scrollIntoViewIfNeeded();
      await expectFits(page);
      expect(await seriousA11yIssues(page)).toEqual([]);
      await shot(page, 'public-broadcasts', size);
      await context.close();
    }
  });

  it('the finished game’s revealed messages, without the anonymous writer', async () => {
    await w.db.update(games).set({ status: 'finished' }).where(eq(games.id, gameId));
    await setPress(w.db, gameId, { observers: 'broadcasts', reveal: 'at-end' });
    for (const size of SIZES) {
      const context = await w.browser.newContext({ viewport: size, locale: 'en-GB' });
      const page = await context.newPage();
      const res = await page.goto(`${w.base}/games/${gameId}/press?lang=en`);
      expect(res!.status()).toBe(200);
      const main = (await page.locator('main').textContent())!;
      expect(main).toContain('A group whisper.');
      expect(main).toContain('Anonymous → Aristocrats and Sith');
      expect(main).not.toMatch(HIDDEN);
      expect(main).not.toContain('REFEREE-PLEA');
      await expectFits(page);
      expect(await seriousA11yIssues(page)).toEqual([]);
      await shot(page, 'public-revealed-press', size);
      await context.close();
    }
  });
});
