// Debian's Chromium for browser tests, offline and headless (no download: /usr/bin/chromium).
// launch() starts it on a fresh temporary profile of its own, removed on close.
import { chromium, type Browser } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // Without the background-networking flags Chromium keeps reaching for hosts this machine cannot.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
