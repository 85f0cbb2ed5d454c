// The Atom and iCalendar feeds with hostile stored text (a name and an amendment reason stored
// before the input rule, an edict text holding a sheet's characters): every document stays valid.
// The Atom is parsed by a strict XML parser (well-formedness) with XML 1.0's Char production
// checked beside it; Chromium's own XML parser reads it in feeds-browser.int.test.ts.
import { eq } from 'drizzle-orm';
import pino from 'pino';
import * as XmlJs from 'xml-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { insertEdictVersion, latestEdict } from '../../src/db/edicts.ts';
import { recordAudit } from '../../src/db/audit.ts';
import { games, turns } from '../../src/db/schema.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';
import { HOSTILE_TEXT } from './hostile-text.ts';
import { buildWorld } from './public-world.ts';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let game: string;

beforeAll(async () => {
  database = await openTestPglite();
  const world = await buildWorld(database.db, { name: 'Feeds', players: 4, turns: 2 });
  game = world.gameId;
  const db = database.db;
  // As stored before the input rule: the rule now refuses such a name at the door.
  await db.update(games).set({ name: HOSTILE_TEXT }).where(eq(games.id, game));
  const first = (await latestEdict(db, game, 2))!;
  await insertEdictVersion(db, {
    ...first,
    version: first.version + 1,
    reason: HOSTILE_TEXT,
    textEn: `${first.textEn}\n${HOSTILE_TEXT}`,
    textIt: `${first.textIt}\nITALIANO ${HOSTILE_TEXT}`,
    createdBy: 'referee:test',
  });
  app = await buildApp({ db, log: pino({ level: 'silent' }), publicCacheMs: 0, publicUrl: 'https://sf.example.org' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

/**
 * Every element, in document order, of a strict parse (sax in strict mode, through xml-js, the
 * Atom library's own reader); throws on the first well-formedness error.
 */
function parseXml(xml: string): XmlElement[] {
  const all: XmlElement[] = [];
  const walk = (node: XmlJs.Element) => {
    if (node.type === 'element') {
      const el = { name: node.name!, attributes: (node.attributes ?? {}) as Record<string, string>, text: '' };
      el.text = (node.elements ?? [])
        .filter((c) => c.type === 'text' || c.type === 'cdata')
        .map((c) => String(c.text ?? c.cdata))
        .join('');
      all.push(el);
    }
    for (const c of node.elements ?? []) walk(c);
  };
  walk(XmlJs.xml2js(xml, { compact: false, captureSpacesBetweenElements: true }) as XmlJs.Element);
  return all;
}

/** RFC 5545 §3.1: a line starting with a space or tab continues the one before. */
function unfold(ics: string): string[] {
  expect(
    ics.split('\r\n').every((l) => !l.includes('\n') && !l.includes('\r')),
    'lines end with CRLF only',
  ).toBe(true);
  return ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((l) => l !== '');
}

describe('the Atom feed', () => {
  it('is well-formed XML with only XML characters, whatever was stored', async () => {
    for (const lang of ['en', 'it']) {
      const res = await get(`/games/${game}/edicts.atom?lang=${lang}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(NOT_XML_CHAR);
      expect(res.body).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
      const els = parseXml(res.body);
      expect(els[0]!.name).toBe('feed');
      const titles = els.filter((e) => e.name === 'title').map((e) => e.text);
      // The name is there, its markup as text, not as elements.
      expect(titles[0]).toContain('<script>alert(1)</script>');
      expect(els.some((e) => e.name === 'script')).toBe(false);
      // The amended edict's entry carries the hostile text, escaped, and the ]]> did not end anything.
      const summaries = els.filter((e) => e.name === 'summary').map((e) => e.text);
      expect(summaries.join('\n')).toContain('&lt;script&gt;');
      expect(summaries.join('\n')).toContain(']]&gt;');
    }
  });

  it('names an author and is in the language asked for (Accept-Language otherwise)', async () => {
    const en = parseXml((await get(`/games/${game}/edicts.atom?lang=en`)).body);
    const it_ = parseXml((await get(`/games/${game}/edicts.atom`, { 'accept-language': 'it-IT,it;q=0.9' })).body);
    for (const [els, lang] of [
      [en, 'en'],
      [it_, 'it'],
    ] as const) {
      expect(els[0]!.attributes['xml:lang'] ?? els.find((e) => e.name === 'feed')?.attributes['xml:lang'] ?? lang).toBe(lang);
      const author = els.findIndex((e) => e.name === 'author');
      expect(author).toBeGreaterThan(0);
      expect(els[author + 1]!.name).toBe('name');
      expect(els[author + 1]!.text).toContain('Starts Foundation');
    }
    const summary = (els: XmlElement[]) =>
      els
        .filter((e) => e.name === 'summary')
        .map((e) => e.text)
        .join('\n');
    expect(summary(it_)).toContain('ITALIANO');
    expect(summary(en)).not.toContain('ITALIANO');
    expect(en.find((e) => e.name === 'title')!.text).toContain('Imperial Edicts');
    expect(it_.find((e) => e.name === 'title')!.text).toContain('Editti imperiali');
  });
});

describe('the iCalendar feed', () => {
  const events = (lines: string[]) => {
    const out: Array<Record<string, string>> = [];
    let cur: Record<string, string> | null = null;
    for (const l of lines) {
      if (l === 'BEGIN:VEVENT') cur = {};
      else if (l === 'END:VEVENT') {
        out.push(cur!);
        cur = null;
      } else if (cur) {
        const colon = l.indexOf(':');
        cur[l.slice(0, colon).split(';')[0]!] = l.slice(colon + 1);
      }
    }
    return out;
  };

  it('has no injected event or property, and no control character, from a hostile name', async () => {
    const res = await get(`/games/${game}/deadlines.ics`);
    expect(res.statusCode).toBe(200);
    const lines = unfold(res.body);
    const turnsCount = (await database.db.select().from(turns).where(eq(turns.gameId, game))).length;
    // One orders event per turn, and a Chancellor's event for each turn with a Chancellor: nothing else.
    const begun = lines.filter((l) => l === 'BEGIN:VEVENT').length;
    expect(begun).toBe(events(lines).length);
    expect(events(lines).filter((e) => /-turn-\d+@/.test(e.UID!)).length).toBe(turnsCount);
    expect(lines.some((l) => l.startsWith('SUMMARY:injected'))).toBe(false);
    // Every line is a property (NAME:value or NAME;PARAM=…:value).
    for (const l of lines) expect(l, l).toMatch(/^[A-Z][A-Z0-9-]*[;:]/);
    // No control character but the CRLF line ends, no non-character, no direction control.
    expect(res.body.replace(/\r\n/g, '')).not.toMatch(/[\p{Cc}\uFFFE\uFFFF\u202A-\u202E\u2066-\u2069]/u);
    const name = lines.find((l) => l.startsWith('X-WR-CALNAME:'))!;
    expect(name).toContain('Orione');
    expect(name).toContain('BEGIN:VEVENT'); // the text is kept, on the one line of its property
  });

  it('raises SEQUENCE when an event changes and shows when a turn really closed', async () => {
    const db = database.db;
    const seq = async () =>
      Object.fromEntries(events(unfold((await get(`/games/${game}/deadlines.ics`)).body)).map((e) => [e.UID!, Number(e.SEQUENCE)]));
    const before = await seq();
    const open = (await db.select().from(turns).where(eq(turns.gameId, game))).find((t) => t.status === 'open')!;
    const closed = (await db.select().from(turns).where(eq(turns.gameId, game))).find((t) => t.status === 'adjudicated')!;
    const openUid = Object.keys(before).find((u) => u.startsWith(`${game}-turn-${open.number}@`))!;
    const closedUid = Object.keys(before).find((u) => u.startsWith(`${game}-turn-${closed.number}@`))!;
    // A closed turn is a revision of its open self.
    expect(before[closedUid]).toBeGreaterThan(before[openUid]!);
    // The referee moves the deadline: the open turn's event is a new revision.
    await recordAudit(db, { actor: 'test', gameId: game, action: 'turn.extend', detail: { turn: open.number } });
    const after = await seq();
    expect(after[openUid]).toBeGreaterThan(before[openUid]!);
    // Closed two days early: the event is when it closed, and says so.
    const at = new Date(closed.deadline.getTime() - 2 * 86_400_000);
    await db.update(turns).set({ adjudicatedAt: at }).where(eq(turns.number, closed.number));
    const ev = events(unfold((await get(`/games/${game}/deadlines.ics?lang=en`)).body)).find((e) => e.UID === closedUid)!;
    expect(ev.DTSTART).toBe(
      at
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, ''),
    );
    expect(ev.DESCRIPTION).toContain('closed early');
    // The deadline it had, in words in the game's zone, never a raw ISO time.
    expect(ev.DESCRIPTION).toMatch(/the deadline was \w+\\, \d+ \w+ \d{4} at \d\d:\d\d \w+ \(Europe\/Rome\)/);
    expect(ev.DESCRIPTION).not.toMatch(/\d{4}-\d\d-\d\dT/);
    // The turn's state in the calendar's language, not its stored id.
    for (const [lang, words] of [
      ['en', 'the turn is open'],
      ['it', 'il turno è aperto'],
    ] as const) {
      const ics = events(unfold((await get(`/games/${game}/deadlines.ics?lang=${lang}`)).body));
      const openEvent = ics.find((e) => e.UID === openUid)!;
      expect(openEvent.DESCRIPTION, lang).toContain(`(${words}).`);
      for (const e of ics) expect(e.DESCRIPTION, lang).not.toMatch(/\((open|adjudicated)\)/);
    }
  });
});

describe('the OpenAPI description', () => {
  it('lists every status a route answers, and the routes answer those', async () => {
    const spec = (await get('/api/openapi.json')).json() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    for (const [path, item] of Object.entries(spec.paths)) {
      const codes = Object.keys(item.get.responses).sort();
      expect(codes, path).toEqual(path.includes('{') ? ['200', '304', '400', '404', '503'] : ['200', '304', '503']);
    }
    const answered = async (url: string, headers: Record<string, string> = {}) => (await get(url, headers)).statusCode;
    expect(await answered(`/api/games/${game}/turns/abc`)).toBe(400);
    expect(await answered(`/api/games/${game}/turns/1/v/x`)).toBe(400);
    expect(await answered('/api/games/NOT_A_SLUG')).toBe(400);
    expect(await answered(`/api/games/${game}/turns/99`)).toBe(404);
    expect(await answered(`/api/games/nope/edicts`)).toBe(404);
    const first = await get(`/api/games/${game}`);
    expect(await answered(`/api/games/${game}`, { 'if-none-match': first.headers.etag as string })).toBe(304);
  });
});
