// Debian's Chromium for browser tests, offline and headless (no download: /usr/bin/chromium).
// launch() starts it on a fresh temporary profile of its own, removed on close.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from './pglite.ts';

/** Where browser tests put their screenshots; .ci/run lists them and keeps them as CI artifacts. */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // Without the background-networking flags Chromium keeps reaching for hosts this machine cannot.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface BrowserWorld {
  db: Db;
  /** The web app's address, `http://127.0.0.1:<port>`. */
  base: string;
  browser: Browser;
}

type AppOptions = Omit<Parameters<typeof buildApp>[0], 'db' | 'log'>;

/**
 * A file's browser world: a PGlite database that `fill` prepares, the web app on it as `sf serve`
 * builds it (silent log, `app` options as given) and Chromium — made before the file's tests,
 * closed after them. Read it inside a test or hook.
 */
export function browserWorld(fill: (db: Db) => Promise<void>, app: AppOptions = {}): BrowserWorld {
  let world: BrowserWorld | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const database = await openTestPglite();
    closers.unshift(() => database.close());
    await fill(database.db);
    const server = await buildApp({ db: database.db, log: pino({ level: 'silent' }), ...app });
    closers.unshift(() => server.close());
    const base = await server.listen({ host: '127.0.0.1', port: 0 });
    const browser = await launchChromium();
    closers.unshift(() => browser.close());
    world = { db: database.db, base, browser };
  }, 120_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });
  const get = (): BrowserWorld => {
    if (!world) throw new Error('the browser world is made in beforeAll: use it inside a test or hook');
    return world;
  };
  return {
    get db() {
      return get().db;
    },
    get base() {
      return get().base;
    },
    get browser() {
      return get().browser;
    },
  };
}
