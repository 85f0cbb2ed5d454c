// What every answer of the web app carries, and what it refuses before any route runs (issue 8):
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

// One callback-style onRequest hook (bench:http: an async hook costs a promise per request, and an
// onSend hook a hook chain per answer). The headers are set first, so every answer carries them,
// a refusal here included; a route that needs another value (the pages' stricter CSP) replaces it.
export function securityHooks(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    void reply.headers(SECURITY_HEADERS);
    // Raw, before routing: %00 in the path or the query, or a NUL byte itself.
    const url = req.raw.url ?? '';
    if (url.includes('%00') || url.includes('\u0000')) {
      void reply.code(400).send({ error: 'bad request' });
      return;
    }
    done();
  });
}
