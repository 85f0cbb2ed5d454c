// Which language a page is in: ?lang=it|en (remembered in a cookie), else the cookie, else the
// browser's Accept-Language, else English. Every reader here is a single pass over the header.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../adjudicator/types.ts';
import { byHeader } from './respond.ts';

export const LANG_COOKIE = 'sf_lang';
const LANGS: readonly Lang[] = ['it', 'en'];
const isLang = (v: unknown): v is Lang => v === 'it' || v === 'en';

/** The best of it/en by q-value from an Accept-Language header; null when neither is wanted. */
export function fromAcceptLanguage(header: string | undefined): Lang | null {
  if (!header) return null;
  let best: Lang | null = null;
  let bestQ = 0;
  // Bounded: a header is at most a few hundred bytes in practice, and we read only its first 50 entries.
  for (const part of header.slice(0, 2000).split(',', 50)) {
    const [tag = '', ...params] = part.split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k?.trim() === 'q') q = Number(v);
    }
    if (isLang(primary) && Number.isFinite(q) && q > bestQ) [best, bestQ] = [primary, q];
  }
  return best;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.slice(0, 4000).split(';', 50)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

const langOf = byHeader(fromAcceptLanguage);

/** The page's language; a ?lang= choice is remembered for a year. */
export function pageLang(req: FastifyRequest, reply: FastifyReply): Lang {
  const asked = (req.query as Record<string, unknown> | undefined)?.lang;
  if (isLang(asked)) void reply.header('set-cookie', `${LANG_COOKIE}=${asked}; Path=/; Max-Age=31536000; SameSite=Lax`);
  return requestLang(req);
}

/**
 * The language a request asks for, by the same steps as a page's, remembering nothing: for what a
 * page links to (its map picture), which the page names with ?lang= so that it matches the page.
 */
export function requestLang(req: FastifyRequest): Lang {
  const asked = (req.query as Record<string, unknown> | undefined)?.lang;
  if (isLang(asked)) return asked;
  const cookie = cookieValue(req.headers.cookie, LANG_COOKIE);
  if (isLang(cookie)) return cookie;
  return langOf(req.headers['accept-language']) ?? 'en';
}

export { LANGS };
