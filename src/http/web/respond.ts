// How public pages and API answers leave: a strict Content-Security-Policy, an ETag and a
// Last-Modified on every body, 304 for a client that has it already, and a short in-memory cache
// so that a crowd refreshing a game's page at the deadline costs one render, not one per viewer.
//
// Why a time-to-live and not "until the state changes": several service instances may share one
// PostgreSQL, and the turn job, the referee console and `sf` write from any of them, so this process
// cannot know when another one changed a game. A per-request version check would cost a query
// per request (more than serving the cached bytes: bench:http has the figures) and every table
// a page reads would have to bump it. So every instance re-renders at most once per TTL (1 s by
// default; under load a render is < 1% of the CPU, the rest is HTTP and bytes), a page is at most
// one TTL old, and Cache-Control says so (max-age, so a proxy in front may share the same
// second). Nothing secret can leak through the cache: a page only ever holds what
// public-views.ts returns, and a page from before a deadline holds less.
import { hash } from 'node:crypto';
import { brotliCompress, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** No inline script or style at all: the map SVG carries none, our CSS and JS are files. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface Rendered {
  body: Buffer;
  type: string;
  /** A status other than 200 (a 404 page with something to say); never answered with a 304. */
  status?: number;
  etag: string;
  lastModified: Date;
  /** lastModified as an HTTP date, made once. */
  lastModifiedText?: string;
  /** The body gzipped, made once when first asked for (a phone on a slow line gets a fifth of the bytes). */
  gzip?: Buffer;
  /**
   * The body as Brotli at its best quality (a sixth of the bytes, but tens of ms of CPU): made
   * once per distinct body, off the request path; gzip is sent until it is ready.
   */
  br?: Buffer | Promise<void>;
  /** The response headers of each representation, made once (see sendRendered). */
  heads?: Partial<Record<string, Readonly<Record<string, string>>>>;
}

/** Below this, compressing saves less than it costs. */
const GZIP_MIN_BYTES = 1024;

export function etagOf(body: Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/** What a route renders for the cache: a body and its type (and status), or null when there is nothing (404). */
type Produce = () => Promise<{ body: string | Buffer; type: string; status?: number } | null>;

/** A cached result: when it was asked for, the render, and the result once made (`fresh` answers from it). */
interface Entry {
  at: number;
  value: Promise<Rendered | null>;
  done?: Rendered;
}

/**
 * Results kept for `ttlMs` (0: never kept), at most `max` of them. The same key asked for while it
 * is being rendered waits for that render. Last-Modified stays put while the body does not change.
 */
export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  private readonly lastSeen = new Map<string, Rendered>();
  /** What Cache-Control states: the TTL in whole seconds (0: revalidate every time). */
  readonly maxAge: number;
  constructor(
    private readonly ttlMs: number,
    private readonly max = 500,
    private readonly clock: () => number = Date.now,
  ) {
    this.maxAge = Math.max(0, Math.floor(ttlMs / 1000));
  }

  /**
   * The result for `key` when one is made and still fresh, else undefined (then ask `get`). Lets a
   * route answer a cached page at once: awaiting an already settled promise costs ticks on every request.
   */
  fresh(key: string): Rendered | undefined {
    const hit = this.live(key, this.clock());
    return hit?.done;
  }

  /**
   * Hands `send` the result for `key` (null: there is none): at once when it is made and fresh,
   * so that a crowded page's usual request gives Fastify nothing to await; else once `get` has it.
   */
  serve(key: string, produce: Produce, send: (r: Rendered | null) => unknown): Promise<unknown> | undefined {
    const made = this.fresh(key);
    if (made) return void send(made);
    return this.get(key, produce).then(send);
  }

  get(key: string, produce: Produce): Promise<Rendered | null> {
    const now = this.clock();
    const hit = this.live(key, now);
    if (hit) return hit.value;
    const value = produce().then((r) => (r === null ? null : this.stamp(key, r, now)));
    if (this.ttlMs > 0) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
      const entry: Entry = { at: now, value };
      this.entries.set(key, entry);
      // A missing page or a failure is not kept: the game may be created in the next second.
      const forget = () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      };
      value.then((r) => (r ? (entry.done = r) : forget()), forget);
    }
    return value;
  }

  /** The entry for `key` if it is younger than the TTL at `now`. */
  private live(key: string, now: number): Entry | undefined {
    const hit = this.entries.get(key);
    return hit && now - hit.at < this.ttlMs ? hit : undefined;
  }

  private stamp(key: string, r: { body: string | Buffer; type: string; status?: number }, now: number): Rendered {
    // Kept as bytes: Fastify sends a Buffer as is, a string is encoded again on every request
    // (for a page with the map inline, that is most of the cost of serving it from here).
    const body = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
    const etag = etagOf(body);
    const seen = this.lastSeen.get(key);
    // The same body as last time: the same Last-Modified and the compressed copies already made.
    if (seen?.etag === etag && seen.type === r.type && seen.status === r.status) return seen;
    if (this.lastSeen.size >= this.max) this.lastSeen.delete(this.lastSeen.keys().next().value!);
    // HTTP dates have whole seconds.
    const rendered: Rendered = {
      body,
      type: r.type,
      etag,
      lastModified: new Date(Math.floor(now / 1000) * 1000),
      ...(r.status !== undefined ? { status: r.status } : {}),
    };
    this.lastSeen.set(key, rendered);
    return rendered;
  }
}

/**
 * `read` remembered by header value: clients send a handful of distinct Accept-Encoding or
 * Accept-Language values, and parsing one on every request of a crowded page costs more than the
 * lookup. Bounded: emptied when full, so a client sending a new value each time gains nothing.
 */
export function byHeader<T>(read: (header: string | undefined) => T, max = 64): (header: string | undefined) => T {
  const seen = new Map<string, T>();
  return (header) => {
    if (header === undefined || header.length > 200) return read(header);
    let v = seen.get(header);
    if (v === undefined) {
      if (seen.size >= max) seen.clear();
      v = read(header);
      seen.set(header, v);
    }
    return v;
  };
}

/** Which of br and gzip a client takes (listed, not q=0); one pass over a header of bounded length. */
export function acceptedEncodings(header: string | undefined): Readonly<{ br: boolean; gzip: boolean }> {
  const out = { br: false, gzip: false };
  if (!header) return out;
  for (const part of header.slice(0, 1000).split(',', 30)) {
    const [coding = '', q] = part.split(';');
    const c = coding.trim().toLowerCase();
    if ((c === 'br' || c === 'gzip') && !(q !== undefined && /^q\s*=\s*0(\.0{0,3})?$/.test(q.trim()))) out[c] = true;
  }
  return out;
}

function startBrotli(r: Rendered): void {
  r.br = new Promise<void>((resolve) => {
    brotliCompress(r.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: r.body.length } }, (err, out) => {
      r.br = err ? undefined : out;
      resolve();
    });
  });
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',', 100).some((t) => t.trim().replace(/^W\//, '') === bare);
}

const encodingsOf = byHeader(acceptedEncodings);

export interface SendOptions {
  vary?: string;
  /** Seconds a cache may reuse the answer (RenderCache.maxAge); 0 or none: revalidate every time. */
  maxAge?: number;
}

/**
 * Sends a rendered result, or 304 when the client's copy is current (If-None-Match first, RFC
 * 9110). `opts` must be the same on every call for the same `r` (one route, one cache): the
 * headers of each representation are made once and kept on `r`.
 */
export function sendRendered(req: FastifyRequest, reply: FastifyReply, r: Rendered, opts: SendOptions = {}): FastifyReply {
  const compressible = r.body.length >= GZIP_MIN_BYTES && !r.type.startsWith('image/');
  const personal = reply.hasHeader('set-cookie');
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const fresh =
    r.status === undefined &&
    (inm !== undefined ? etagMatches(inm, r.etag) : ims !== undefined && Date.parse(ims) >= r.lastModified.getTime());
  if (fresh)
    return reply
      .code(304)
      .headers(headersOf(r, opts, compressible, personal, null))
      .send();
  let body = r.body;
  let coding: 'br' | 'gzip' | null = null;
  if (compressible) {
    const accepts = encodingsOf(req.headers['accept-encoding']);
    if (accepts.br && r.br === undefined) startBrotli(r);
    if (accepts.br && Buffer.isBuffer(r.br)) [body, coding] = [r.br, 'br'];
    else if (accepts.gzip) [body, coding] = [(r.gzip ??= gzipSync(r.body, { level: 6 })), 'gzip'];
  }
  if (r.status !== undefined) reply.code(r.status);
  return reply.headers(headersOf(r, opts, compressible, personal, coding, true)).send(body);
}

/** One representation's headers, made on first use and kept on `r` (this runs for every request of a crowded page). */
function headersOf(
  r: Rendered,
  opts: SendOptions,
  compressible: boolean,
  personal: boolean,
  coding: 'br' | 'gzip' | null,
  withBody = false,
): Readonly<Record<string, string>> {
  const key = `${coding ?? 'identity'}${personal ? ' private' : ''}${withBody ? ' body' : ''}`;
  r.heads ??= {};
  const made = r.heads[key];
  if (made) return made;
  r.lastModifiedText ??= r.lastModified.toUTCString();
  const maxAge = opts.maxAge ?? 0;
  const headers: Record<string, string> = {
    // Another representation than the body itself: a weak validator (If-None-Match compares weakly).
    etag: coding ? `W/${r.etag}` : r.etag,
    'last-modified': r.lastModifiedText,
    // One that sets the language cookie is this viewer's, and answers a one-off ?lang= switch.
    'cache-control': personal ? 'private, no-cache' : maxAge > 0 ? `public, max-age=${maxAge}` : 'public, no-cache',
    'content-security-policy': PAGE_CSP,
  };
  const vary = compressible ? (opts.vary ? `${opts.vary}, Accept-Encoding` : 'Accept-Encoding') : opts.vary;
  if (vary) headers.vary = vary;
  if (withBody) headers['content-type'] = r.type;
  if (coding) headers['content-encoding'] = coding;
  return (r.heads[key] = Object.freeze(headers));
}

/**
 * JSON with <, > and & as \u escapes: the same data once parsed, but no byte of it can be read
 * as markup by anything that sniffs or embeds it.
 */
export function safeJson(data: unknown): string {
  return JSON.stringify(data).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
