// The referee console in a real browser (Debian's Chromium through playwright-core, offline): a
// referee logs in through the form (CSRF token, SameSite=Strict cookies under the strict CSP),
// reads a sheet and the mail behind it, previews the open turn, and extends the deadline with a
// reason that then shows, escaped, in the audit log. axe-core finds no serious issue.
import { join } from 'node:path';
import axe from 'axe-core';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../../src/db/audit.ts';
import { markProcessed, storeInbound } from '../../src/db/inbound.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { ARTIFACTS, browserWorld } from '../harness/browser.ts';
import { addReferee, assignReferee } from '../../src/referee/accounts.ts';
import { gameWithReferee, MAIL } from '../referee/world.ts';

let gameId: string;
let password: string;
let oneTime: string;

const w = browserWorld(
  async (db) => {
    ({ gameId, password } = await gameWithReferee(db, 'Orione <i>', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'ref@x.org'));
    ({ password: oneTime } = await addReferee(db, 'new@x.org', 'test'));
    await assignReferee(db, gameId, 'new@x.org', 'test');
    const raw = Buffer.from('From: c@x.org\r\nSubject: orders\r\nMessage-ID: <m1@x.org>\r\n\r\nV: Hutt\r\n<b>not bold</b>\r\n');
    const inbound = await storeInbound(db, raw, { source: 'cli', sourceKey: 'cli:m1' });
    await markProcessed(db, inbound.id, { status: 'processed', outcome: 'sheet', gameId });
    await addSheetVersion(db, {
      gameId,
      turn: 1,
      faction: 'sith',
      text: 'V: Hutt\n<b>not bold</b>',
      parsed: {},
      status: 'problems',
      receivedAt: new Date('2026-03-02T11:00:00Z'),
      inboundId: inbound.id,
    });
  },
  { referee: { mail: MAIL } },
);

async function seriousA11yIssues(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

describe('the referee console in a browser', () => {
  it('logs in, reads a sheet and its mail, previews, and extends the deadline with a reason', async () => {
    const context = await w.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
    });

    await page.goto(`${w.base}/referee/games/${gameId}`);
    expect(new URL(page.url()).pathname).toBe('/referee/login'); // no session: to the login form
    expect(await seriousA11yIssues(page)).toEqual([]);
    await page.fill('#email', 'ref@x.org');
    await page.fill('#password', 'wrong password, surely');
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('.error').textContent()).toContain('Wrong address or password');
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${w.base}/referee`), page.click('button[type=submit]')]);

    await page.click(`a[href="/referee/games/${gameId}"]`);
    await page.waitForURL(`${w.base}/referee/games/${gameId}`);
    expect(await page.locator('h1').textContent()).toBe('Orione <i>');
    expect(await page.locator('pre').filter({ hasText: 'not bold' }).first().textContent()).toContain('V: Hutt\n<b>not bold</b>');
    expect(await page.locator('b').count()).toBe(0); // the sheet's markup is text, not markup
    await page.locator('summary').first().click();
    expect(await page.locator('details pre').first().textContent()).toContain('Message-ID: <m1@x.org>');
    expect(await seriousA11yIssues(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'referee-game-1280x800.png'), fullPage: true });

    await page.click('text=Preview');
    await page.waitForURL(`${w.base}/referee/games/${gameId}/preview`);
    expect(await page.locator('.map svg').count()).toBe(1);
    expect(await page.locator('li').filter({ hasText: 'sith: version 1' }).count()).toBe(1);
    await page.goBack();

    await page.fill('#extend-minutes', '90');
    await page.fill('#extend-reason', 'storm over <Trantor>');
    await Promise.all([page.waitForURL(/done=extended/), page.locator('#extend-reason').press('Enter')]);
    expect(await page.locator('.notice').textContent()).toContain('The deadline was moved');
    expect(await page.locator('td').filter({ hasText: 'storm over <Trantor>' }).count()).toBe(1);
    const [audit] = await listAudit(w.db, { gameId, action: 'turn.extend' });
    expect(audit).toMatchObject({ actor: 'referee:ref@x.org', detail: { minutes: 90, reason: 'storm over <Trantor>' } });

    await Promise.all([page.waitForURL(`${w.base}/referee/login`), page.click('text=Log out')]);
    await page.goto(`${w.base}/referee`);
    expect(new URL(page.url()).pathname).toBe('/referee/login');
    expect(blocked).toEqual([]);
    await context.close();
  });
  it('a one-time password opens the password form once; the referee sets their own and logs in with it', async () => {
    const context = await w.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const logIn = async (pw: string, on = page) => {
      await on.goto(`${w.base}/referee/login`);
      await on.fill('#email', 'new@x.org');
      await on.fill('#password', pw);
      await on.click('button[type=submit]');
    };
    await logIn(oneTime);
    await page.waitForURL(`${w.base}/referee/password`);
    expect(await page.locator('.notice').textContent()).toContain('one-time password');
    expect(await seriousA11yIssues(page)).toEqual([]);
    await page.goto(`${w.base}/referee/games/${gameId}`); // nothing else opens yet
    expect(new URL(page.url()).pathname).toBe('/referee/password');
    // Another browser with the same one-time password: spent.
    const elsewhere = await w.browser.newContext();
    const other = await elsewhere.newPage();
    await logIn(oneTime, other);
    await expect.poll(() => other.locator('.error').textContent()).toContain('was used already');
    await elsewhere.close();
    await page.fill('#current-password', oneTime);
    await page.fill('#new-password', 'a password of my own');
    await page.fill('#new-password-again', 'a password of my own, typo');
    await page.click('text=Change the password');
    await expect.poll(() => page.locator('.error').textContent()).toContain('the two new passwords differ');
    await page.fill('#current-password', oneTime);
    await page.fill('#new-password', 'a password of my own');
    await page.fill('#new-password-again', 'a password of my own');
    await Promise.all([page.waitForURL(/done=changed/), page.click('text=Change the password')]);
    expect(await page.locator('.notice').textContent()).toContain('Your password is changed');
    await Promise.all([page.waitForURL(`${w.base}/referee`), page.click('text=To your games')]);
    expect(await page.locator(`a[href="/referee/games/${gameId}"]`).count()).toBe(1);
    await Promise.all([page.waitForURL(`${w.base}/referee/login`), page.click('text=Log out')]);

    await logIn(oneTime); // no longer the password at all
    await expect.poll(() => page.locator('.error').textContent()).toContain('Wrong address or password');
    await logIn('a password of my own');
    await page.waitForURL(`${w.base}/referee`);
    await page.screenshot({ path: join(ARTIFACTS, 'referee-password-changed-1280x800.png'), fullPage: true });
    await context.close();
  });
});
