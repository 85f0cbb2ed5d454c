// Per game: an Atom feed of edicts (every version, amendments with their reason, R-EDICT-3) and an
// iCalendar feed of deadlines, so players can follow a game without visiting it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Feed } from 'feed';
import ical from 'ical-generator';
import { findGame } from '../../db/games.ts';
import { edictHeaders, publicEdict } from '../../db/public-views.ts';
import { listTurns } from '../../db/turns.ts';
import { escapeHtml } from '../../text/escape.ts';
import { webTexts } from '../../text/web.ts';
import { RenderCache, sendRendered } from '../web/respond.ts';
import { GAME_ID } from './load.ts';
import type { PublicOptions } from './pages.ts';

export interface FeedOptions extends PublicOptions {
  /** The address players reach the pages at (PUBLIC_URL); else the request's own. */
  publicUrl?: string;
}

/** Most recent entries in the feed: readers poll it, it need not hold the whole game. */
const FEED_ENTRIES = 50;

// The feeds say they are in English (language: 'en'): one language for every reader.
const T = webTexts.en;

export async function publicFeeds(app: FastifyInstance, opts: FeedOptions): Promise<void> {
  const cache = new RenderCache(opts.cacheMs ?? 1000);
  // The Host header is the client's: only a well-formed host name is used, else localhost.
  const base = (req: FastifyRequest) => {
    if (opts.publicUrl) return trimSlashes(opts.publicUrl);
    const host = /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/.test(req.host) ? req.host : 'localhost';
    return `${req.protocol}://${host}`;
  };

  app.get<{ Params: { game: string } }>('/games/:game/edicts.atom', async (req, reply) => {
    const root = base(req);
    const r = await cache.get(`atom ${req.params.game} ${root}`, async () => {
      if (!GAME_ID.test(req.params.game)) return null;
      const game = await findGame(app.db, req.params.game);
      if (!game) return null;
      const headers = (await edictHeaders(app.db, game.id)).slice(-FEED_ENTRIES).reverse();
      const page = `${root}/games/${game.id}`;
      const feed = new Feed({
        id: `${page}/edicts.atom`,
        title: T.feedTitle(game.name),
        link: page,
        language: 'en',
        updated: headers[0]?.createdAt ?? game.createdAt,
        generator: false,
        feedLinks: { atom: `${page}/edicts.atom` },
      });
      for (const h of headers) {
        const edict = await publicEdict(app.db, game.id, h.turn, h.version);
        if (!edict) continue;
        const link = `${page}/turns/${h.turn}/v/${h.version}`;
        feed.addItem({
          id: link,
          link,
          // The library marks entry titles and summaries type="html" (in CDATA, and it escapes only
          // the first "]]>"): escaped here, they hold no markup and no "]]>" at all.
          title: escapeHtml(T.feedEntry(h.turn, h.version)),
          date: h.createdAt,
          description: (h.reason ? `<p>${escapeHtml(T.feedAmended(h.reason))}</p>` : '') + `<pre>${escapeHtml(edict.textEn)}</pre>`,
        });
      }
      return { body: feed.atom1(), type: 'application/atom+xml; charset=utf-8' };
    });
    if (!r) return reply.code(404).send({ error: 'no such game' });
    return sendRendered(req, reply, r, { maxAge: cache.maxAge });
  });

  app.get<{ Params: { game: string } }>('/games/:game/deadlines.ics', async (req, reply) => {
    const root = base(req);
    const r = await cache.get(`ics ${req.params.game} ${root}`, async () => {
      if (!GAME_ID.test(req.params.game)) return null;
      const game = await findGame(app.db, req.params.game);
      if (!game) return null;
      // Times in UTC (…Z): calendars show them in the reader's zone; no VTIMEZONE to get wrong.
      const cal = ical({ name: T.calendarName(game.name), prodId: { company: 'Starts Foundation', product: 'sf', language: 'EN' } });
      const url = `${root}/games/${game.id}`;
      const host = root.slice(root.indexOf('//') + 2).split('/')[0] || 'localhost';
      for (const t of await listTurns(app.db, game.id)) {
        cal.createEvent({
          id: `${game.id}-turn-${t.number}@${host}`,
          start: t.deadline,
          end: t.deadline,
          // Fixed, so that the same calendar has the same bytes (and ETag) until a deadline moves.
          stamp: t.createdAt,
          summary: T.calendarOrders(game.name, t.number),
          description: T.calendarOrdersNote(t.number, t.status),
          url,
        });
        if (t.state.chancellor) {
          cal.createEvent({
            id: `${game.id}-turn-${t.number}-chancellor@${host}`,
            start: t.declarationDeadline,
            end: t.declarationDeadline,
            stamp: t.createdAt,
            summary: T.calendarDeclaration(game.name, t.number),
            description: T.calendarDeclarationNote(t.number),
            url,
          });
        }
      }
      return { body: cal.toString(), type: 'text/calendar; charset=utf-8' };
    });
    if (!r) return reply.code(404).send({ error: 'no such game' });
    return sendRendered(req, reply, r, { maxAge: cache.maxAge });
  });
}

function trimSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
