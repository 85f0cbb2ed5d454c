// Hostile requests, the web side: no URL makes an internal error, and every answer carries security headers.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
const errors: string[] = [];

beforeAll(async () => {
  database = await openTestPglite();
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  app = await buildApp({ db: database.db, log });
}, 60_000);
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('hostile URLs', () => {
  it.each([
    '/games/%00/status',
    '/games/a%00b/status',
    '/games/andromeda/status?x=%00',
    '/%00',
    '/games/%C0%AF/status',
    '/games/' + 'a'.repeat(5_000) + '/status',
    '/games/%ZZ/status',
  ])('%s is a 4xx without internals, and nothing is logged as an error', async (url) => {
    errors.length = 0;
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.body).not.toMatch(/internal|stack|postgres|invalid byte|%00/i);
    expect(res.body).not.toContain('\u0000');
    expect(errors).toEqual([]);
  });
});

describe('security headers', () => {
  it.each(['/health', '/games/nope/status', '/no-such-route', '/games/%00/status'])('%s carries them', async (url) => {
    const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
