// What every answer of the web app carries, and what it refuses before any route runs:
// security headers on every response (there is no helmet here: one hook sets them), and a
// NUL anywhere in the URL answered 400 — PostgreSQL text cannot hold one, and a route should never
// get to find that out as an internal error.
import type { FastifyInstance } from 'fastify';

/** Pages are server-rendered, with no script: nothing but our own images and inline styles. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY', // frame-ancestors for browsers that predate it
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Browsers keep to https for a year once they have seen it (only sent when PUBLIC_URL is https). */
export const HSTS = 'max-age=31536000';

/** A request refused with a message the sender can act on (the error handler shows it). */
export class RefusedRequest extends Error {
  override name = 'RefusedRequest';
  readonly statusCode = 400;
}

/**
 * PostgreSQL text cannot hold a NUL: a form field with one is refused here, saying so, before a
 * route can meet it as an internal error (the login, a reason, an amended sheet).
 */
export function refuseNul(fields: Record<string, string>): RefusedRequest | null {
  for (const [k, v] of Object.entries(fields))
    if (k.includes('\u0000') || v.includes('\u0000'))
      return new RefusedRequest(
        `the form field ${JSON.stringify(k.replaceAll('\u0000', ''))} holds a NUL character (U+0000), which no field may hold`,
      );
  return null;
}

// One callback-style onRequest hook (bench:http: an async hook costs a promise per request, and an
// onSend hook a hook chain per answer). The headers are set first, so every answer carries them,
// a refusal here included; a route that needs another value (the pages' stricter CSP) replaces it.
export function securityHooks(app: FastifyInstance, opts: { hsts?: boolean } = {}): void {
  const headers = opts.hsts ? { ...SECURITY_HEADERS, 'strict-transport-security': HSTS } : SECURITY_HEADERS;
  app.addHook('onRequest', (req, reply, done) => {
    void reply.headers(headers);
    // Raw, before routing: %00 in the path or the query, or a NUL byte itself.
    const url = req.raw.url ?? '';
    if (url.includes('%00') || url.includes('\u0000')) {
      void reply.code(400).send({ error: 'bad request' });
      return;
    }
    done();
  });
}
