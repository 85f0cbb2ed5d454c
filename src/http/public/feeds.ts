// Per game: an Atom feed of edicts (every version, amendments with their reason, R-EDICT-3) and an
// iCalendar feed of deadlines, so players can follow a game without visiting it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Feed } from 'feed';
import ical from 'ical-generator';
import type { Lang } from '../../adjudicator/types.ts';
import { countAudit } from '../../db/audit.ts';
import { findGame } from '../../db/games.ts';
import { formatInstant } from '../../games/index.ts';
import { edictHeaders, publicEdict } from '../../db/public-views.ts';
import { listTurns } from '../../db/turns.ts';
import { escapeHtml } from '../../html.ts';
import { icalText, xmlText } from '../../text/typed-text.ts';
import { webTexts } from '../../text/web.ts';
import { fromAcceptLanguage } from '../web/lang.ts';
import { RenderCache, sendRendered } from '../web/respond.ts';
import { GAME_ID } from './load.ts';
import type { PublicOptions } from './pages.ts';

export interface FeedOptions extends PublicOptions {
  /** The address players reach the pages at (PUBLIC_URL); else the request's own. */
  publicUrl?: string;
}

/** Most recent entries in the feed: readers poll it, it need not hold the whole game. */
const FEED_ENTRIES = 50;

/** Audited changes that move a game's deadlines: each makes every calendar event a new revision. */
const DEADLINE_CHANGES = ['turn.extend', 'game.resume', 'turn.rollback'] as const;

/**
 * A feed is in the language asked for (?lang=it|en, as the game page links it), else the reader's
 * Accept-Language, else English. Feeds set no cookie: a feed reader is not a browser.
 */
function feedLang(req: FastifyRequest): Lang {
  const asked = (req.query as Record<string, unknown> | undefined)?.lang;
  if (asked === 'it' || asked === 'en') return asked;
  return fromAcceptLanguage(req.headers['accept-language']) ?? 'en';
}

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
    const lang = feedLang(req);
    const T = webTexts[lang];
    const r = await cache.get(`atom ${req.params.game} ${root} ${lang}`, async () => {
      if (!GAME_ID.test(req.params.game)) return null;
      const game = await findGame(app.db, req.params.game);
      if (!game) return null;
      const headers = (await edictHeaders(app.db, game.id)).slice(-FEED_ENTRIES).reverse();
      const page = `${root}/games/${game.id}`;
      const feed = new Feed({
        id: `${page}/edicts.atom`,
        title: T.feedTitle(game.name),
        link: page,
        language: lang,
        // Atom needs an author for the feed (or each entry): the edicts are the Chancellery's.
        author: { name: T.feedAuthor },
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
          description:
            (h.reason ? `<p>${escapeHtml(T.feedAmended(h.reason))}</p>` : '') +
            `<pre>${escapeHtml(lang === 'it' ? edict.textIt : edict.textEn)}</pre>`,
        });
      }
      // The last step: whatever was stored (a name or reason from before the input rule, a sheet),
      // the document holds no character XML forbids, so every reader can parse it.
      return { body: xmlText(feed.atom1()), type: 'application/atom+xml; charset=utf-8' };
    });
    if (!r) return reply.code(404).send({ error: 'no such game' });
    return sendRendered(req, reply, r, { maxAge: cache.maxAge });
  });

  app.get<{ Params: { game: string } }>('/games/:game/deadlines.ics', async (req, reply) => {
    const root = base(req);
    const lang = feedLang(req);
    const T = webTexts[lang];
    const r = await cache.get(`ics ${req.params.game} ${root} ${lang}`, async () => {
      if (!GAME_ID.test(req.params.game)) return null;
      const game = await findGame(app.db, req.params.game);
      if (!game) return null;
      // Times in UTC (…Z): calendars show them in the reader's zone; no VTIMEZONE to get wrong.
      // Every text through icalText: a stored name with a line break must not start a property.
      const cal = ical({
        name: icalText(T.calendarName(game.name)),
        prodId: { company: 'Starts Foundation', product: 'sf', language: lang.toUpperCase() },
      });
      // RFC 5545 SEQUENCE: a calendar replaces an event only by a higher one. Each deadline move counts
      // twice and a close once, so a turn re-opened by a roll-back still goes up.
      const moves = 2 * (await countAudit(app.db, game.id, DEADLINE_CHANGES));
      const url = `${root}/games/${game.id}`;
      const host = root.slice(root.indexOf('//') + 2).split('/')[0] || 'localhost';
      for (const t of await listTurns(app.db, game.id)) {
        const closed = t.status === 'adjudicated';
        // A turn closed early (every sheet in, or a referee's close) shows when it really closed.
        const early = closed && t.adjudicatedAt !== null && t.adjudicatedAt < t.deadline ? t.adjudicatedAt : null;
        cal.createEvent({
          id: `${game.id}-turn-${t.number}@${host}`,
          sequence: moves + (closed ? 1 : 0),
          start: early ?? t.deadline,
          end: early ?? t.deadline,
          // Fixed, so that the same calendar has the same bytes (and ETag) until a deadline moves.
          stamp: t.createdAt,
          summary: icalText(T.calendarOrders(game.name, t.number)),
          // The deadline in words in the game's zone, as the mails write it (never a raw ISO time).
          description: early
            ? T.calendarClosedEarly(t.number, formatInstant(t.deadline, game.timeZone, lang))
            : T.calendarOrdersNote(t.number, t.status),
          url,
        });
        if (t.state.chancellor) {
          cal.createEvent({
            id: `${game.id}-turn-${t.number}-chancellor@${host}`,
            sequence: moves,
            start: t.declarationDeadline,
            end: t.declarationDeadline,
            stamp: t.createdAt,
            summary: icalText(T.calendarDeclaration(game.name, t.number)),
            description: T.calendarDeclarationNote(t.number),
            url,
          });
        }
      }
      return { body: icalText(cal.toString(), { multiline: true }).replace(/\n/g, '\r\n'), type: 'text/calendar; charset=utf-8' };
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
