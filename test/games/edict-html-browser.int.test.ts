// The edict's HTML part as a player opens it on a phone and on a desktop (Debian's Chromium): no
// sideways scroll, nothing wider than the screen, headings to move between, the map image loaded
// where a mail client resolves its cid, readable in a dark client too, and no serious axe-core
// finding. Screenshots go to test-artifacts/ for CI to keep.
import { join } from 'node:path';
import axe from 'axe-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMapPng, renderMapSvg } from '../../src/edict/index.ts';
import { ARTIFACTS, launchChromium } from '../harness/browser.ts';
import { mkdirSync } from 'node:fs';
import { board, crowdedEdictWithChatter, edictMailsFor, LONG_NAME } from './edict-html-fixture.ts';

let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(() => browser?.close());

const edict = crowdedEdictWithChatter();
/** The Italian player's mail, with the map where a mail client puts the cid image. */
function mailPage(): string {
  const html = edictMailsFor(edict, { reason: 'Avanzata contesa decisa dall’arbitro' })[0]!.bodyHtml!;
  const png = renderMapPng(renderMapSvg(board, edict, { lang: 'it', gameName: LONG_NAME }));
  return html.replace('cid:map@starts-foundation', `data:image/png;base64,${png.toString('base64')}`);
}

describe.each([
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
])('the edict mail on a $name ($width×$height)', ({ name, width, height }) => {
  it.each(['light', 'dark'] as const)('fits the screen, has headings and the map, and passes axe-core (%s)', async (scheme) => {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
    const page = await context.newPage();
    await page.setContent(mailPage(), { waitUntil: 'load' });

    const fit = await page.evaluate(() => {
      const root = document.scrollingElement!;
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
        .map((e) => `${e.tagName.toLowerCase()}: ${(e.textContent ?? '').slice(0, 40)}`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide, pre: document.querySelectorAll('pre').length };
    });
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
    expect(fit.wide).toEqual([]);
    expect(fit.pre).toBe(0);

    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('h2').allTextContents()).toEqual([
      '1. ORDINI',
      '2. IPERSPAZIO E COMBATTIMENTO',
      '3. POLITICA',
      '4. ELEZIONI',
      '5. PRODUZIONE',
      '6. SITUAZIONE FINALE',
    ]);
    const map = await page
      .locator('img')
      .evaluate((i: HTMLImageElement) => ({ loaded: i.complete && i.naturalWidth > 0, width: i.getBoundingClientRect().width }));
    expect(map.loaded).toBe(true);
    expect(map.width).toBeGreaterThan(Math.min(width, 720) - 40);
    expect(map.width).toBeLessThanOrEqual(width);

    // The client's own colours: dark text on light, or light text on dark, never one colour on itself.
    const colours = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      const canvas = getComputedStyle(document.documentElement).backgroundColor;
      return { text: s.color, canvas };
    });
    expect(colours.text).toBe(scheme === 'dark' ? 'rgb(255, 255, 255)' : 'rgb(0, 0, 0)');

    await page.screenshot({
      path: join(ARTIFACTS, `edict-mail-${name}-${width}x${height}${scheme === 'dark' ? '-dark' : ''}.png`),
      fullPage: true,
    });

    await page.evaluate(axe.source);
    const results = await page.evaluate(() =>
      (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
    );
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
    await context.close();
  });
});
