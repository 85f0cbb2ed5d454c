// The web app while the service still opens its database: /health says 503 "database",
// pages a friendly 503 in the reader's language, no route runs; once open, everything answers.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { buildApp } from '../../src/http/app.ts';

let open: Db | null = null;
let app: Awaited<ReturnType<typeof buildApp>> | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  open = null;
});

const starting = async () => (app = await buildApp({ db: () => open, log: pino({ level: 'silent' }) }));

describe('the web app before the database is open', () => {
  it('answers /health 503 naming the database, without internals', async () => {
    const a = await starting();
    const res = await a.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ok: false, database: 'starting' });
    expect(res.headers['retry-after']).toBe('10');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers pages with a friendly 503 in Italian or English, and the API in JSON', async () => {
    const a = await starting();
    const it_ = await a.inject({ method: 'GET', url: '/games/orione', headers: { 'accept-language': 'it-IT,it;q=0.9' } });
    expect(it_.statusCode).toBe(503);
    expect(it_.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(it_.body).toContain('<html lang="it">');
    expect(it_.body).toContain('Avvio in corso');
    const en = await a.inject({ method: 'GET', url: '/referee', headers: { 'accept-language': 'en' } });
    expect(en.statusCode).toBe(503);
    expect(en.body).toContain('Starting up');
    expect(en.headers['content-security-policy']).toBeDefined(); // the security headers still go on
    const api = await a.inject({ method: 'GET', url: '/api/games' });
    expect(api.statusCode).toBe(503);
    expect(api.json()).toEqual({ error: 'starting' });
  });

  it('never echoes the request into the page', async () => {
    const a = await starting();
    const res = await a.inject({ method: 'GET', url: '/games/%3Cscript%3Ealert(1)%3C%2Fscript%3E?lang=%3Cb%3E' });
    expect(res.statusCode).toBe(503);
    expect(res.body).not.toMatch(/script|<b>/i);
  });

  it('serves the static files, which need no database', async () => {
    const a = await starting();
    const res = await a.inject({ method: 'GET', url: '/static/site.css' });
    expect(res.statusCode).toBe(200);
  });

  it('answers as usual once the database is open', async () => {
    const a = await starting();
    expect((await a.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
    // Only what /health asks of it: the gate lifts as soon as the service hands the database over.
    open = { execute: async () => ({ rows: [] }) } as unknown as Db;
    const res = await a.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });
});
