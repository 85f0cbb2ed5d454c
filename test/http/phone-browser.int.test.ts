// The public pages and the referee console on a phone (360×740, Debian's Chromium): a game whose
// name is 80 characters with a long unbroken word wraps instead of widening the page; the whole map
// fits the width and opens full size on a tap or its link; the edict page is
// headings and tables, not a wrapped <pre>; the referee console does not scroll sideways. axe-core
// finds no serious issue. Screenshots go to test-artifacts/ for CI to keep.
import { join } from 'node:path';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addReferee, assignReferee, setRefereePassword } from '../../src/referee/accounts.ts';
import { ARTIFACTS, browserWorld } from '../harness/browser.ts';
import { MAIL } from '../referee/world.ts';
import { buildWorld } from './public-world.ts';

/** 80 characters: markup that must stay text and a 44-letter word no line can break at a space. */
const LONG_NAME = `<b>Orione</b> Precipitevolissimevolmentesupercalifragilistichissimo & co.`.padEnd(80, '!');
const PHONE = { width: 360, height: 740 };

let game: string;
let password: string;
const w = browserWorld(
  async (db) => {
    game = (await buildWorld(db, { name: LONG_NAME, players: 8, turns: 2 })).gameId;
    await addReferee(db, 'ref@x.org', 'test');
    // A password of their own: a one-time one leads to the change-password page first (D-REF-5).
    password = 'own password of ref@x.org';
    await setRefereePassword(db, 'ref@x.org', 'test', password);
    await assignReferee(db, game, 'ref@x.org', 'test');
  },
  { publicCacheMs: 0, referee: { mail: MAIL } },
);

async function seriousA11yIssues(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

/** The page does not scroll sideways, and nothing outside a scrolling box sticks out of the screen. */
async function fits(page: Page): Promise<{ scrollWidth: number; clientWidth: number; wide: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const clipped = (e: Element) => {
      for (let p = e.parentElement; p; p = p.parentElement) if (/auto|scroll|hidden/.test(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5 && !clipped(e) && e.getBoundingClientRect().width > 0)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent ?? '').slice(0, 40)}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  });
}

async function phonePage(path: string): Promise<{ page: Page; close: () => Promise<void>; blocked: string[] }> {
  const context = await w.browser.newContext({ viewport: PHONE, locale: 'it-IT' });
  const page = await context.newPage();
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
  });
  const res = await page.goto(`${w.base}${path}`, { waitUntil: 'load' });
  expect(res?.status()).toBe(200);
  return { page, blocked, close: () => context.close() };
}

describe('on a phone (360×740)', () => {
  it('the index wraps an 80-character game name instead of widening the page', async () => {
    const { page, close } = await phonePage('/?lang=en');
    const link = page.locator(`a[href="/games/${game}"]`);
    expect(await link.textContent()).toBe(LONG_NAME);
    expect(await fits(page)).toEqual({ scrollWidth: 360, clientWidth: 360, wide: [] });
    // The table itself fits: every column stays on screen, none scrolled away.
    const table = (await page.locator('table').boundingBox())!;
    expect(table.x + table.width).toBeLessThanOrEqual(360);
    expect((await link.boundingBox())!.height).toBeGreaterThan(40); // wrapped onto several lines
    await page.screenshot({ path: join(ARTIFACTS, 'index-long-name-phone-360x740.png'), fullPage: true });
    expect(await seriousA11yIssues(page)).toEqual([]);
    await close();
  });

  it('the game page: legible map that pans in its box and says so, opens full size on a tap or its link, no sideways scroll', async () => {
    const { page, close, blocked } = await phonePage(`/games/${game}`);
    expect(await fits(page)).toEqual({ scrollWidth: 360, clientWidth: 360, wide: [] });
    const svg = page.locator('figure.map svg');
    const shown = (await svg.boundingBox())!;
    const box = page.locator('.map-scroll');
    const boxed = (await box.boundingBox())!;
    // D-WEB-8: the box fits the screen; the map in it is drawn at 42rem, about twice the
    // fit-to-screen width, so that a 17-unit unit code is at least 10 px, and pans in the box.
    expect(boxed.x + boxed.width).toBeLessThanOrEqual(360);
    const scale = await svg.evaluate((s: SVGSVGElement) => s.getBoundingClientRect().width / s.viewBox.baseVal.width);
    expect(17 * scale).toBeGreaterThanOrEqual(10);
    expect(shown.width).toBeGreaterThan(boxed.width);
    expect(await box.evaluate((b) => b.scrollWidth > b.clientWidth)).toBe(true);
    // The line under it says that the map pans, and links the full size, in the page's language.
    const hint = page.locator('p.map-full .map-hint');
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.textContent()).toMatch(/sideways|di lato/);
    const full = page.locator('p.map-full a');
    expect(await full.isVisible()).toBe(true);
    expect(await full.getAttribute('href')).toBe(`/games/${game}/map.png`);
    await page.screenshot({ path: join(ARTIFACTS, 'game-long-name-phone-360x740.png'), fullPage: true });
    expect(await seriousA11yIssues(page)).toEqual([]);
    expect(blocked).toEqual([]);

    const link = page.locator('a.map-link');
    expect(await link.getAttribute('href')).toBe(`/games/${game}/map.png`);
    const [png] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/map.png')),
      link.click({ position: { x: 100, y: 100 } }),
    ]);
    expect(png.status()).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    await close();
  });

  it('the edict page: the edict as headings, tables and lists, not a wrapped <pre>', async () => {
    const { page, close, blocked } = await phonePage(`/games/${game}/turns/2`);
    expect(await page.locator('pre').count()).toBe(0);
    expect(await page.locator('.edict h3').allTextContents()).toEqual([
      '1. ORDINI',
      '2. IPERSPAZIO E COMBATTIMENTO',
      '3. POLITICA',
      '4. ELEZIONI',
      '5. PRODUZIONE',
      '6. SITUAZIONE FINALE',
    ]);
    expect(await page.locator('.edict table').count()).toBeGreaterThan(3);
    expect(await page.locator('.edict').textContent()).not.toContain('Legenda');
    expect(await fits(page)).toEqual({ scrollWidth: 360, clientWidth: 360, wide: [] });
    await page.screenshot({ path: join(ARTIFACTS, 'edict-page-phone-360x740.png'), fullPage: true });
    expect(await seriousA11yIssues(page)).toEqual([]);
    expect(blocked).toEqual([]);
    await close();
  });

  it('the referee console does not scroll sideways', async () => {
    const { page, close } = await phonePage('/referee/login');
    await page.fill('#email', 'ref@x.org');
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${w.base}/referee`), page.click('button[type=submit]')]);
    expect(await fits(page)).toEqual({ scrollWidth: 360, clientWidth: 360, wide: [] });
    await page.screenshot({ path: join(ARTIFACTS, 'referee-home-phone-360x740.png'), fullPage: true });
    await page.goto(`${w.base}/referee/games/${game}`);
    expect(await page.locator('h1').textContent()).toBe(LONG_NAME);
    expect(await fits(page)).toEqual({ scrollWidth: 360, clientWidth: 360, wide: [] });
    await page.screenshot({ path: join(ARTIFACTS, 'referee-game-phone-360x740.png'), fullPage: true });
    expect(await seriousA11yIssues(page)).toEqual([]);
    await page.goto(`${w.base}/referee/games/${game}/preview`);
    expect(await fits(page)).toEqual({ scrollWidth: 360, clientWidth: 360, wide: [] });
    await close();
  });
});
