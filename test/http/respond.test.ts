// How cached public answers leave (src/http/web/respond.ts): Cache-Control states the render
// cache's time-to-live, a page that sets the language cookie stays private, each representation's
// headers are made once, and the header readers remember what they parsed, within a bound.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderCache, byHeader, sendRendered } from '../../src/http/web/respond.ts';

const BODY = 'x'.repeat(4000);
let app: FastifyInstance;
const now = 1_000_000;

beforeAll(async () => {
  app = Fastify();
  const cached = new RenderCache(2500, 10, () => now);
  const uncached = new RenderCache(0);
  const make = async () => ({ body: BODY, type: 'text/html; charset=utf-8' });
  app.get<{ Querystring: { cookie?: string } }>('/cached', async (req, reply) => {
    if (req.query.cookie) void reply.header('set-cookie', 'sf_lang=it; Path=/');
    return sendRendered(req, reply, (await cached.get('k', make))!, { vary: 'Accept-Language', maxAge: cached.maxAge });
  });
  app.get('/uncached', async (req, reply) => sendRendered(req, reply, (await uncached.get('k', make))!, { maxAge: uncached.maxAge }));
  await app.ready();
});
afterAll(() => app.close());

describe('cached answers', () => {
  it('state the time-to-live of the render cache as max-age, in whole seconds; no cache: no-cache', async () => {
    const a = await app.inject({ url: '/cached' });
    expect(a.headers['cache-control']).toBe('public, max-age=2');
    expect((await app.inject({ url: '/uncached' })).headers['cache-control']).toBe('public, no-cache');
    // The language switch's answer sets a cookie: this viewer's, never shared.
    expect((await app.inject({ url: '/cached?cookie=1' })).headers['cache-control']).toBe('private, no-cache');
  });

  it('serve each representation with its own headers, and 304 with the strong validator', async () => {
    const plain = await app.inject({ url: '/cached' });
    const gz = await app.inject({ url: '/cached', headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BODY);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.etag).toBe(`W/${plain.headers.etag as string}`);
    expect(gz.headers.vary).toBe('Accept-Language, Accept-Encoding');
    // The gzip answer's headers did not leak into the plain one made before or after it.
    expect((await app.inject({ url: '/cached' })).headers['content-encoding']).toBeUndefined();
    const again = await app.inject({ url: '/cached', headers: { 'if-none-match': gz.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(plain.headers.etag);
    expect(again.headers['content-type']).toBeUndefined();
  });
});

describe('byHeader', () => {
  it('parses each distinct value once, within a bound, and does not remember huge or missing values', () => {
    const seen: Array<string | undefined> = [];
    const read = byHeader((h) => {
      seen.push(h);
      return h?.length ?? -1;
    }, 2);
    expect([read('a'), read('a'), read('bb')]).toEqual([1, 1, 2]);
    expect(seen).toEqual(['a', 'bb']);
    read('ccc'); // full: emptied, then kept
    read('a');
    expect(seen).toEqual(['a', 'bb', 'ccc', 'a']);
    const huge = 'x'.repeat(500);
    read(huge);
    read(huge);
    read(undefined);
    expect(seen.filter((h) => h === huge)).toHaveLength(2);
    expect(seen.at(-1)).toBeUndefined();
  });
});
