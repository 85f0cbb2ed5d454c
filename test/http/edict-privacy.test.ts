// R-EDICT-4: everything public shows only what the rules read from a sheet (hostility, orders,
// votes, E:) and, for each problem, its line and kind. Sheets full of greetings, names, phone
// numbers, a street address and an unreadable order line go through the real services (review,
// close of the turn, edict mails, stored edict) and every public route (pages, map text, JSON
// API, edict.json, Atom); none of those words may appear anywhere, while the writer's own
// acknowledgement still shows them (R-ORD-8, D-PARSE-16).
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewSheet } from '../../src/adjudicator/review.ts';
import type { Database } from '../../src/db/client.ts';
import { findAssets, type AttachmentRef } from '../../src/db/assets.ts';
import { insertEdictVersion, latestEdict } from '../../src/db/edicts.ts';
import { findGame } from '../../src/db/games.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { addSheetVersion, latestSheets } from '../../src/db/sheets.ts';
import { findTurn } from '../../src/db/turns.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { createGame, type GamesContext } from '../../src/games/index.ts';
import { boardFor } from '../../src/games/input.ts';
import { buildApp } from '../../src/http/app.ts';
import { ackText } from '../../src/mail/intake/reply-texts.ts';
import { storedReview } from '../../src/mail/intake/stored-review.ts';
import { openTestPglite } from '../harness/pglite.ts';

/** Every word a player wrote that is not orders: none may be public. */
const PRIVATE = [
  'Ciao a tutti',
  'Grazie',
  'Anna Rossi',
  '333 555 0101',
  'Hi all',
  'Cheers',
  'Bob Smith',
  'Via Roma 12',
  'is mine',
  'Marco',
];

const SHEETS: Record<string, string> = {
  // The sheet, word for word.
  hutt: 'Ciao a tutti,\nV: Hutt\nGrazie!\nAnna Rossi\ncell. +39 333 555 0101',
  aristocrats: 'Hi all!\nV: Hutt\nCheers!\nBob Smith\nVia Roma 12, Milano',
  // An order-shaped line that cannot be read: a problem, published as line 2 and its kind only.
  sith: 'V: Sith\nB2 is mine, Marco\n',
};

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let gameId: string;
const now = { at: new Date('2025-03-20T10:00:00Z') };
const ctx: GamesContext = { actor: 'test', mail: { domain: 'sf.test', ordersLocalPart: 'orders' }, now: () => now.at };

beforeAll(async () => {
  database = await openTestPglite();
  const db = database.db;
  const { game } = await createGame(
    db,
    {
      name: 'Privacy',
      players: ['it', 'en', 'it', 'en'].map((lang, i) => ({ email: `p${i}@example.com`, lang: lang as 'it' | 'en' })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    ctx,
  );
  gameId = game.id;
  const turn = (await findTurn(db, gameId, 1))!;
  for (const [faction, text] of Object.entries(SHEETS)) {
    const review = reviewSheet(boardFor(game.map), turn.state, faction, text);
    const r = await addSheetVersion(db, {
      gameId,
      turn: 1,
      faction,
      text,
      parsed: storedReview(review),
      status: review.status,
      receivedAt: now.at,
      inboundId: null,
    });
    expect(r.ok).toBe(true);
  }
  now.at = new Date(turn.deadline.getTime() + 60_000);
  const out = await closeTurn(db, gameId, 1, ctx);
  expect(out.closed).toBe(true);
  app = await buildApp({ db, log: pino({ level: 'silent' }), publicCacheMs: 0, publicUrl: 'https://sf.example.org/' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const leaks = (text: string) => PRIVATE.filter((w) => text.toLowerCase().includes(w.toLowerCase()));

describe('R-EDICT-4: nothing a player wrote besides orders is published', () => {
  it('the sheets of greetings, names and phone numbers are valid; the one with an unreadable order is not', async () => {
    const status = Object.fromEntries((await latestSheets(database.db, gameId, 1)).map((s) => [s.faction, s.status]));
    expect(status).toEqual({ hutt: 'valid', aristocrats: 'valid', sith: 'problems' });
  });

  it('the stored edict carries each problem as its line and kind, and no other text', async () => {
    const edict = (await latestEdict(database.db, gameId, 1))!;
    const sith = edict.json.declarations.find((d) => d.faction === 'sith')!;
    expect(sith.problems).toEqual([{ line: 2, code: 'not-understood', rule: 'R-ORD-8' }]);
    for (const d of edict.json.declarations) if (d.faction !== 'sith') expect(d.problems).toEqual([]);
    expect(leaks(JSON.stringify(edict.json))).toEqual([]);
    expect(leaks(edict.textIt)).toEqual([]);
    expect(leaks(edict.textEn)).toEqual([]);
    expect(edict.textEn).toContain('line 2: not an order I understand (R-ORD-8)');
    expect(edict.textIt).toContain('riga 2: non è un ordine comprensibile (R-ORD-8)');
  });

  it('every edict mail (plain text, HTML, JSON attachment) is free of it, in both languages', async () => {
    const mails = (await listOutbox(database.db, { gameId })).filter((m) => m.kind === 'edict');
    expect(mails.length).toBe(4);
    for (const m of mails) {
      expect(leaks(m.subject), m.toAddress).toEqual([]);
      expect(leaks(m.bodyText), m.toAddress).toEqual([]);
      expect(leaks(m.bodyHtml ?? ''), m.toAddress).toEqual([]);
      const refs = (m.attachments ?? []) as AttachmentRef[];
      const assets = await findAssets(
        database.db,
        refs.map((a) => a.assetId),
      );
      expect(assets.size).toBeGreaterThan(0);
      for (const a of assets.values())
        if (a.contentType.startsWith('application/json') || a.contentType.startsWith('image/svg'))
          expect(leaks(Buffer.from(a.bytes).toString('utf8'))).toEqual([]);
    }
  });

  it('every public page, the map in words, the JSON API, edict.json and the Atom feed are free of it', async () => {
    const urls = [
      '/',
      `/games/${gameId}`,
      `/games/${gameId}?lang=it`,
      `/games/${gameId}/turns/1`,
      `/games/${gameId}/turns/1?lang=it`,
      `/games/${gameId}/turns/1/v/1`,
      `/games/${gameId}/turns/1/edict.json`,
      `/games/${gameId}/edicts.atom`,
      `/games/${gameId}/deadlines.ics`,
      '/api/games',
      `/api/games/${gameId}`,
      `/api/games/${gameId}/edicts`,
      `/api/games/${gameId}/turns/1`,
      `/api/games/${gameId}/turns/1/v/1`,
    ];
    for (const url of urls) {
      for (const lang of ['it', 'en']) {
        const res = await app.inject({ method: 'GET', url, headers: { 'accept-language': lang } });
        expect(res.statusCode, url).toBe(200);
        expect(leaks(res.body), url).toEqual([]);
      }
    }
    // The problem itself is public: its line and kind.
    const page = await app.inject({ method: 'GET', url: `/games/${gameId}/turns/1`, headers: { 'accept-language': 'en' } });
    expect(page.body).toContain('line 2: not an order I understand (R-ORD-8)');
  });

  it('an edict stored before R-EDICT-4, with the words of its problems, is published without them', async () => {
    const stored = (await latestEdict(database.db, gameId, 1))!;
    const words = "'B2 is mine, Marco' is not an order I understand";
    const json = structuredClone(stored.json);
    const sith = json.declarations.find((d) => d.faction === 'sith')!;
    sith.problems = [
      { line: 2, code: 'not-understood', rule: 'R-ORD-8', message: { it: words, en: words }, text: 'B2 is mine, Marco' } as never,
    ];
    const oldText = (t: string) =>
      t
        .replace('line 2: not an order I understand', `line 2 "B2 is mine, Marco": ${words}`)
        .replace('riga 2: non è un ordine comprensibile', `riga 2: ${words}`);
    await insertEdictVersion(database.db, {
      ...stored,
      version: 2,
      json,
      textIt: oldText(stored.textIt),
      textEn: oldText(stored.textEn),
      reason: 'test',
      createdBy: 'referee:test',
    });
    expect((await latestEdict(database.db, gameId, 1))!.textEn).toContain('Marco');
    const urls = [
      `/games/${gameId}/turns/1`,
      `/games/${gameId}/turns/1/v/2`,
      `/games/${gameId}/turns/1/v/2/edict.json`,
      `/games/${gameId}/edicts.atom`,
      `/api/games/${gameId}/turns/1/v/2`,
    ];
    for (const url of urls) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-language': 'it' } });
      expect(res.statusCode, url).toBe(200);
      expect(leaks(res.body), url).toEqual([]);
    }
    const api = (await app.inject({ method: 'GET', url: `/api/games/${gameId}/turns/1/v/2` })).json() as { text: { en: string } };
    expect(api.text.en).toContain('line 2: not an order I understand (R-ORD-8)');
  });

  it("the writer's own acknowledgement still shows their words, in Italian and in English", async () => {
    const game = (await findGame(database.db, gameId))!;
    const turn = (await findTurn(database.db, gameId, 1))!;
    const board = boardFor(game.map);
    const facts = (lang: 'it' | 'en', faction: string) => ({
      lang,
      board,
      gameName: game.name,
      faction,
      turn: 1,
      electionTurn: true,
      review: reviewSheet(board, turn.state, faction, SHEETS[faction]!),
      replaces: null,
      deadline: 'domenica',
      declarationDeadline: null,
      isChancellor: false,
    });
    const it = ackText(facts('it', 'hutt'));
    expect(it).toContain('Stato: valido');
    expect(it).toContain("Riga 1: 'Ciao a tutti,': testo ignorato");
    expect(it).toContain("Riga 5: 'cell. +39 333 555 0101': testo ignorato");
    const en = ackText(facts('en', 'aristocrats'));
    expect(en).toContain('Status: valid');
    expect(en).toContain("Line 4: 'Bob Smith': text ignored");
    expect(ackText(facts('en', 'sith'))).toContain("Line 2: 'B2 is mine, Marco' is not an order I understand");
  });
});
