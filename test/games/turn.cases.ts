// Closing turns and the turn job, run on PGlite (turn.test.ts) and on PostgreSQL (turn.int.test.ts).
import { addReferee, assignReferee } from '../../src/referee/accounts.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewSheet } from '../../src/adjudicator/review.ts';
import type { GameState } from '../../src/adjudicator/types.ts';
import { findAssets, type AttachmentRef } from '../../src/db/assets.ts';
import { listAudit } from '../../src/db/audit.ts';
import { addObserver, unsubscribe } from '../../src/db/observers.ts';
import type { Database } from '../../src/db/client.ts';
import { latestEdict, listEdicts } from '../../src/db/edicts.ts';
import { buildApp } from '../../src/http/app.ts';
import { findGame } from '../../src/db/games.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { listPlayers } from '../../src/db/players.ts';
import { turns } from '../../src/db/schema.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { findTurn, listTurns, updateTurn } from '../../src/db/turns.ts';
import { recordAbsence } from '../../src/games/absence-record.ts';
import { amendTurn, rollBackTurn } from '../../src/games/amend-turn.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { drawEdictMaps, drawnMapKey, storeEdictAssets } from '../../src/games/edict-mail.ts';
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { setLastTurn } from '../../src/games/game-length.ts';
import { pauseGame, resumeGame } from '../../src/games/pause.ts';
import { createGame, joinGame, type GamesContext } from '../../src/games/index.ts';
import { boardFor } from '../../src/games/input.ts';
import { renderMapLayers, renderMapPngs } from '../../src/edict/index.ts';
import { replayTurns } from '../../src/games/replay.ts';
import { runTurnJob } from '../../src/games/turn-job.ts';
import { pino } from 'pino';

// Thursday 20 March 2025 in Rome: turn 1 is due Sunday 23 March 20:00 (19:00 UTC).
const START = new Date('2025-03-20T10:00:00Z');
const TURN1_DEADLINE = new Date('2025-03-23T19:00:00Z');
const MINUTE = 60_000;

/** A clock the test moves. */
export function testClock(start = START) {
  let t = start.getTime();
  return { now: () => new Date(t), set: (d: Date) => void (t = d.getTime()), advance: (ms: number) => void (t += ms) };
}

const input = (name: string) => ({
  name,
  players: ['a', 'b', 'c', 'd'].map((x, i) => ({ email: `${x}@example.com`, lang: i === 1 ? ('it' as const) : ('en' as const) })),
  timeZone: 'Europe/Rome',
  weeklyDeadline: 'sun 20:00',
  declarationLeadMinutes: 120,
  reminderMinutes: [1440, 60],
});

export function turnCases(open: () => Promise<Database>): void {
  let database: Database;
  let db: Database['db'];
  beforeAll(async () => {
    database = await open();
    db = database.db;
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  const clock = testClock();
  const ctx: GamesContext = {
    actor: 'system',
    mail: { domain: 'sf.test', ordersLocalPart: 'orders' },
    now: clock.now,
    publicUrl: 'https://sf.test',
  };

  /** A sheet as intake stores it: reviewed against the position, received now. */
  async function send(gameId: string, faction: string, text: string) {
    const game = (await findGame(db, gameId))!;
    const turn = (await findTurn(db, gameId, game.currentTurn))!;
    const review = reviewSheet(boardFor(game.map), turn.state, faction, text);
    const r = await addSheetVersion(db, {
      gameId,
      turn: turn.number,
      faction,
      text,
      parsed: {},
      status: review.status,
      receivedAt: clock.now(),
      inboundId: null,
    });
    expect(r.ok).toBe(true);
  }

  const caughtUp = async () => true;
  const job = () => runTurnJob({ db, ctx, log: pino({ level: 'silent' }), catchUp: caughtUp });

  describe('closeTurn', () => {
    it('R-TURN-1, R-ELEC-4: turn 1 elects the first Chancellor; the edict is stored once, the next turn opens a week later', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Close One'), ctx);
      await send(game.id, 'hutt', 'V: Hutt');
      await send(game.id, 'aristocrats', 'V: Hutt;');
      await send(game.id, 'sith', 'V: Sith');
      // Knights send nothing: an NMR casts no vote (R-TURN-5).

      expect(await closeTurn(db, game.id, 1, ctx)).toEqual({ closed: false, reason: 'not-due' });
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      const out = await closeTurn(db, game.id, 1, ctx);
      expect(out.closed).toBe(true);
      if (!out.closed) return;
      expect(out.edict.chancellor).toBe('hutt');
      expect(out.edict.election?.tally).toEqual({ hutt: 6, sith: 3 });

      // Next Sunday 20:00 in Rome, one week later; declaration 120 minutes before.
      expect(out.next?.deadline.toISOString()).toBe('2025-03-30T18:00:00.000Z');
      expect(out.next?.declarationDeadline.toISOString()).toBe('2025-03-30T16:00:00.000Z');
      const t2 = (await findTurn(db, game.id, 2))!;
      expect(t2).toMatchObject({ status: 'open', election: false });
      expect(t2.state.chancellor).toBe('hutt');
      expect(t2.state.units).toContainEqual({ side: 'hutt', at: 'N9' }); // R-ELEC-5
      expect((await findTurn(db, game.id, 1))!.status).toBe('adjudicated');
      expect((await findGame(db, game.id))!.currentTurn).toBe(2);

      const [edict, ...more] = await listEdicts(db, game.id);
      expect(more).toEqual([]);
      expect(edict).toMatchObject({ turn: 1, version: 1, createdBy: 'system', engineVersion: '1' });
      expect(Object.keys(edict!.sheetIds as object).sort()).toEqual(['aristocrats', 'hutt', 'sith']);
      expect((edict!.stateAfter as GameState).chancellor).toBe('hutt');

      // Once closed, never again: a second call (another instance, a restart) changes nothing.
      expect(await closeTurn(db, game.id, 1, ctx)).toEqual({ closed: false, reason: 'not-current' });
      expect(await listEdicts(db, game.id)).toHaveLength(1);
    });

    it('R-EDICT-1: every player gets the edict in their language, with their address, the next deadline and the JSON attached once', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Close Mail'), ctx);
      await send(game.id, 'hutt', 'V: Sith');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      const mails = await listOutbox(db, { gameId: game.id, kind: 'edict' });
      const players = await listPlayers(db, game.id);
      expect(mails.map((m) => m.toAddress).sort()).toEqual(players.map((p) => p.email).sort());
      const it = mails.find((m) => m.toAddress === 'b@example.com')!;
      const en = mails.find((m) => m.toAddress === 'a@example.com')!;
      expect(it.subject).toBe(`[SF ${game.id}] Editto Imperiale, turno 1`);
      expect(en.subject).toBe(`[SF ${game.id}] Imperial Edict, turn 1`);
      expect(en.bodyText).toContain(`orders+${players[0]!.secret}@sf.test`);
      expect(en.bodyText).toContain('Next deadline for orders: Sunday, 30 March 2025 at 20:00 CEST');
      expect(it.bodyText).toContain('Prossima scadenza per gli ordini: domenica 30 marzo 2025');
      expect(en.references).toBe(`<game.${game.id}@sf.test>`);
      // Real HTML (D-WEB-4): sections as headings, no preformatted text.
      expect(en.bodyHtml).toContain('>1. ORDERS</h2>');
      expect(en.bodyHtml).not.toContain('<pre');
      expect(en.bodyText).not.toContain('closed late');
      expect((await latestEdict(db, game.id, 1))!.closedLate).toBeNull();
      // One stored asset for everybody.
      const refs = mails.map((m) => (m.attachments as AttachmentRef[]).find((a) => a.contentType === 'application/json')!);
      expect(new Set(refs.map((r) => r.assetId)).size).toBe(1);
      const asset = (await findAssets(db, [refs[0]!.assetId])).get(refs[0]!.assetId)!;
      // D-EDICT-2: one PNG per language among the players (three English, one Italian), each
      // reader's the map drawn in their language, inline in the HTML with the position as alt text.
      const mapOf = (m: (typeof mails)[number]) => (m.attachments as AttachmentRef[]).find((a) => a.contentType === 'image/png')!.assetId;
      expect(new Set(mails.map(mapOf)).size).toBe(2);
      expect(new Set(mails.filter((m) => m.toAddress !== 'b@example.com').map(mapOf)).size).toBe(1);
      const edict = (await listEdicts(db, game.id))[0]!.json;
      const stored = await findAssets(db, [mapOf(en), mapOf(it)]);
      for (const [mail, lang] of [
        [en, 'en'],
        [it, 'it'],
      ] as const) {
        const png = stored.get(mapOf(mail))!.bytes;
        expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
        // Drawn in bands (src/edict/map-png.ts, renderMapPngs), the languages together, as closing draws them.
        const both = renderMapPngs(
          (['it', 'en'] as const).map((l) => renderMapLayers(boardFor(game.map), edict, { lang: l, gameName: game.name })),
        );
        expect(Buffer.compare(png, both[lang === 'it' ? 0 : 1]!), lang).toBe(0);
      }
      expect(en.bodyHtml).toMatch(/<img src="cid:map@starts-foundation" alt="[^"]*Hutt/);
      expect(en.bodyHtml).toMatch(/<img [^>]*alt="Map of /);
      expect(it.bodyHtml).toMatch(/<img [^>]*alt="Mappa /);
      expect(en.bodyText).toContain('The map is attached (PNG)');
      expect(en.bodyText).toContain(`The game's page: https://sf.test/games/${game.id}\n`);
      expect(it.bodyText).toContain(`La pagina della partita: https://sf.test/games/${game.id}\n`);
      expect(JSON.parse(asset.bytes.toString('utf8'))).toMatchObject({ gameId: game.id, turn: 1, chancellor: 'sith' });
    });

    it('D-TURN-2: a turn closed well after its deadline (the service was down) says so in the edict', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Close Outage'), ctx);
      await addReferee(db, 'ref@example.com', 'test');
      await assignReferee(db, game.id, 'ref@example.com', 'test');
      clock.set(new Date(TURN1_DEADLINE.getTime() + 3 * 60 * MINUTE));
      const out = await closeTurn(db, game.id, 1, ctx);
      // The referee is told by mail, once, in the game's thread.
      const told = await listOutbox(db, { gameId: game.id, kind: 'closed-late' });
      expect(told.map((m) => m.toAddress)).toEqual(['ref@example.com']);
      expect(told[0]!.bodyText).toContain('was not running at the deadline');
      expect(await closeTurn(db, game.id, 1, ctx)).toMatchObject({ closed: false });
      expect(await listOutbox(db, { gameId: game.id, kind: 'closed-late' })).toHaveLength(1);
      const mails = await listOutbox(db, { gameId: game.id, kind: 'edict' });
      expect(mails.find((m) => m.toAddress === 'a@example.com')!.bodyText).toContain(
        'This turn was closed late, Sunday, 23 March 2025 at 23:00 CET',
      );
      expect(mails.find((m) => m.toAddress === 'b@example.com')!.bodyText).toContain('Questo turno è stato chiuso in ritardo');
      // The next deadline still leaves a day: 30 March, not an hour away.
      expect(out.closed && out.next?.deadline.toISOString()).toBe('2025-03-30T18:00:00.000Z');
      // Data, not only mail: the stored edict, its JSON and its page say it was closed late.
      const late = { deadline: TURN1_DEADLINE.toISOString(), closedAt: new Date(TURN1_DEADLINE.getTime() + 3 * 60 * MINUTE).toISOString() };
      expect((await latestEdict(db, game.id, 1))!.closedLate).toEqual(late);
      const app = await buildApp({ db, log: pino({ level: 'silent' }), publicCacheMs: 0 });
      try {
        expect((await app.inject({ method: 'GET', url: `/api/games/${game.id}/turns/1` })).json()).toMatchObject({ closedLate: late });
        const page = await app.inject({ method: 'GET', url: `/games/${game.id}/turns/1`, headers: { 'accept-language': 'en' } });
        expect(page.body).toContain('This turn was closed late, Sunday, 23 March 2025 at 23:00 CET');
      } finally {
        await app.close();
      }
    });

    it('observers get every edict with a one-click unsubscribe and no orders address; once unsubscribed, no more', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Watched'), ctx);
      const fan = await addObserver(db, game.id, 'Fan@Example.org', 'it');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      const [mail, ...more] = await listOutbox(db, { gameId: game.id, kind: 'edict-observer' });
      expect(more).toEqual([]);
      expect(mail).toMatchObject({ toAddress: 'fan@example.org', subject: `[SF ${game.id}] Editto Imperiale, turno 1` });
      expect(mail!.headers).toEqual({
        'List-Unsubscribe': `<https://sf.test/unsubscribe/${fan.token}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      expect(mail!.bodyText).toContain(`https://sf.test/unsubscribe/${fan.token}`);
      expect(mail!.bodyText).toContain(`https://sf.test/games/${game.id}\n`);
      expect(mail!.bodyText).not.toContain('orders+');
      expect((mail!.attachments as AttachmentRef[]).map((a) => a.contentType)).toEqual(['application/json', 'image/png']);
      expect(await unsubscribe(db, fan.token)).toBe(true);
      expect(await unsubscribe(db, fan.token)).toBe(false);
      clock.set(new Date('2025-03-30T18:01:00Z'));
      await closeTurn(db, game.id, 2, ctx);
      expect(await listOutbox(db, { gameId: game.id, kind: 'edict-observer' })).toHaveLength(1);
    });

    it('the maps drawn before the transaction are taken only for the very map they show; any other is drawn again', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Drawn Ahead'), ctx);
      const board = boardFor(game.map);
      const edict = adjudicate(board, (await findTurn(db, game.id, 1))!.state, { hutt: 'V: Sith' }).edict;
      const other = adjudicate(board, (await findTurn(db, game.id, 1))!.state, { hutt: 'V: Hutt' }).edict;
      const key = (lang: 'it' | 'en', gameName = game.name, of = edict) => drawnMapKey(board, of, lang, gameName);
      // Alone, and both languages together as drawEdictMaps draws them (one palette for the two).
      const png = (lang: 'it' | 'en') => renderMapPngs([renderMapLayers(board, edict, { lang, gameName: game.name })])[0]!;
      const both = renderMapPngs((['it', 'en'] as const).map((lang) => renderMapLayers(board, edict, { lang, gameName: game.name })));
      const ahead = await drawEdictMaps(board, game, edict, ['en', 'it', 'en']);
      expect([...ahead.keys()]).toEqual([key('it'), key('en')]);
      expect(Buffer.compare(ahead.get(key('en'))!, both[1]!)).toBe(0);
      // A stand-in for the English picture is taken as it is (not drawn again); one drawn for
      // another game name, or for another edict, is not the Italian map, which is drawn afresh.
      expect(key('it', game.name, other)).not.toBe(key('it'));
      const standIn = Buffer.from('drawn before the transaction');
      const drawn = new Map([
        [key('en'), standIn],
        [key('it', 'Another Name'), standIn],
        [key('it', game.name, other), standIn],
      ]);
      const assets = await db.transaction((tx) => storeEdictAssets(tx, board, game, edict, ['it', 'en'], drawn));
      const stored = await findAssets(db, [assets.map.png('en').assetId, assets.map.png('it').assetId]);
      expect(stored.get(assets.map.png('en').assetId)!.bytes.equals(standIn)).toBe(true);
      expect(Buffer.compare(stored.get(assets.map.png('it').assetId)!.bytes, png('it'))).toBe(0);
    });

    it('R-TURN-4: only a sheet received by the deadline stands; the last version before it wins', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Close Late'), ctx);
      await send(game.id, 'hutt', 'V: Sith');
      clock.advance(MINUTE);
      await send(game.id, 'hutt', 'V: Hutt');
      // A version stored with a reception time past the deadline (clock skew between instances).
      await db.update(turns).set({ deadline: clock.now() }).where(eq(turns.gameId, game.id));
      clock.advance(MINUTE);
      await send(game.id, 'hutt', 'V: Knights');
      const out = await closeTurn(db, game.id, 1, ctx);
      expect(out.closed && out.edict.election?.tally).toEqual({ hutt: 3 });
    });

    it('R-WIN-1: a victory ends the game: no next turn, no more deadlines, and the edict says so', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Close Win'), victoryPlanets: 3 }, ctx);
      // Turn 1 is only an election; with 3 planets to win, every faction already has them.
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      const out = await closeTurn(db, game.id, 1, ctx);
      expect(out.closed && out.edict.winners.length).toBe(4);
      expect(out.closed && out.next).toBeNull();
      expect((await findGame(db, game.id))!.status).toBe('finished');
      expect(await listTurns(db, game.id)).toHaveLength(1);
      const [mail] = await listOutbox(db, { gameId: game.id, kind: 'edict' });
      expect(mail!.bodyText).toContain('The game is over.');
      expect((await job()).closed.filter((k) => k.startsWith(game.id))).toEqual([]);
    });
  });

  describe('early processing, grace, absence', () => {
    it('early processing: all valid sheets in → everyone told when; the turn closes then, not at the deadline', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Early Bird'), earlyProcessingMinutes: 60 }, ctx);
      for (const f of ['hutt', 'aristocrats', 'sith']) await send(game.id, f, 'V: Hutt');
      await job();
      expect(await listOutbox(db, { gameId: game.id, kind: 'early' })).toHaveLength(0);
      await send(game.id, 'knights', 'V: Sith');
      await job();
      await job();
      const notices = await listOutbox(db, { gameId: game.id, kind: 'early' });
      expect(notices).toHaveLength(4);
      expect(notices.find((m) => m.toAddress === 'a@example.com')!.bodyText).toContain('Thursday, 20 March 2025 at 12:00 CET');
      clock.advance(59 * MINUTE);
      expect((await job()).closed).not.toContain(`${game.id}#1`);
      clock.advance(2 * MINUTE);
      expect((await job()).closed).toContain(`${game.id}#1`);
      expect((await findTurn(db, game.id, 1))!.status).toBe('adjudicated');
      // D-TURN-7: closed on Thursday, turn 2 is due on the Sunday turn 1 was due, as announced.
      expect((await findTurn(db, game.id, 2))!.deadline).toEqual(TURN1_DEADLINE);
      expect(notices.find((m) => m.toAddress === 'a@example.com')!.bodyText).toContain(
        'Turn 2 will then be due Sunday, 23 March 2025 at 20:00 CET',
      );
    });

    it('R-WIN-2: early processing on the last turn announces no next turn', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Early Last'), earlyProcessingMinutes: 60, lastTurn: 2 }, ctx);
      await send(game.id, 'hutt', 'V: Hutt');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      clock.advance(MINUTE);
      for (const f of ['hutt', 'aristocrats', 'sith', 'knights']) await send(game.id, f, '');
      await job();
      const notices = await listOutbox(db, { gameId: game.id, kind: 'early' });
      expect(notices).toHaveLength(4);
      const en = notices.find((m) => m.toAddress === 'a@example.com')!.bodyText;
      expect(en).toContain("This is the game's last turn (R-WIN-2)");
      expect(en).not.toContain('Turn 3');
      const it = notices.find((m) => m.toAddress === 'b@example.com')!.bodyText;
      expect(it).toContain("È l'ultimo turno della partita (R-WIN-2)");
      expect(it).not.toContain('turno 3');
    });

    it('early processing fires when the sheets carry greetings, thanks, names and phone numbers (D-PARSE-16)', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Early Chatter'), earlyProcessingMinutes: 30 }, ctx);
      const letters = [
        'Ciao a tutti,\nV: Hutt\nGrazie!\nAnna Rossi\ncell. +39 333 555 0101',
        'Hi all!\nV: Hutt\nCheers!\nBob',
        'Ciao Cancelleria,\nV: Sith\nSaluti',
        'V: Sith\nBest regards,\nTom\nLondon',
      ];
      for (const [i, f] of ['hutt', 'aristocrats', 'sith', 'knights'].entries()) await send(game.id, f, letters[i]!);
      await job();
      expect(await listOutbox(db, { gameId: game.id, kind: 'early' })).toHaveLength(4);
    });

    it('early processing is withdrawn when a sheet with problems comes in after the announcement', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Early Change'), earlyProcessingMinutes: 30 }, ctx);
      for (const f of ['hutt', 'aristocrats', 'sith', 'knights']) await send(game.id, f, 'V: Hutt');
      await job();
      await send(game.id, 'sith', 'V: Hutt\nB2 whatever');
      clock.advance(31 * MINUTE);
      await job();
      expect((await findTurn(db, game.id, 1))!.status).toBe('open');
      expect((await findTurn(db, game.id, 1))!.earlyAt).toBeNull();
      expect(await listOutbox(db, { gameId: game.id, kind: 'early-withdrawn' })).toHaveLength(4);
    });

    it('grace period: a sheet received after the deadline but within the grace counts; the silent are reminded once', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Grace'), graceMinutes: 120 }, ctx);
      await send(game.id, 'hutt', 'V: Hutt');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await job();
      await job();
      expect((await findTurn(db, game.id, 1))!.status).toBe('open');
      const grace = await listOutbox(db, { gameId: game.id, kind: 'grace' });
      expect(grace.map((m) => m.toAddress).sort()).toEqual(['b@example.com', 'c@example.com', 'd@example.com']);
      expect(grace.find((m) => m.toAddress === 'c@example.com')!.bodyText).toContain(`The game's page: https://sf.test/games/${game.id}\n`);
      await send(game.id, 'sith', 'V: Sith');
      await send(game.id, 'knights', 'V: Sith');
      clock.set(new Date(TURN1_DEADLINE.getTime() + 121 * MINUTE));
      await job();
      const [edict] = await listEdicts(db, game.id);
      expect(edict!.json.election?.tally).toEqual({ hutt: 3, sith: 6 });
    });

    it('D-ABS-1: an absence moves a deadline inside it to its end, within the limits, never earlier; everyone is told', async () => {
      clock.set(START);
      const { game, players } = await createGame(db, { ...input('Away'), absenceDaysPerPlayer: 5 }, ctx);
      const knights = players.find((p) => p.faction === 'knights')!;
      // Turn 1 is due Sunday 23 March 20:00; away from Saturday 22 to Tuesday 25: the deadline moves to Wednesday 26, 20:00.
      const out = await recordAbsence(db, game.id, knights, { fromDay: '2025-03-22', toDay: '2025-03-25' }, ctx);
      expect(out).toEqual({ ok: true, moved: { from: TURN1_DEADLINE, to: new Date('2025-03-26T19:00:00Z') } });
      const t1 = (await findTurn(db, game.id, 1))!;
      expect(t1.deadline.toISOString()).toBe('2025-03-26T19:00:00.000Z');
      expect(t1.declarationDeadline.toISOString()).toBe('2025-03-26T17:00:00.000Z');
      expect(await listOutbox(db, { gameId: game.id, kind: 'deadline-moved' })).toHaveLength(4);
      // A second, longer absence: only what the player's limit (5 days) leaves: 2 more days.
      const again = await recordAbsence(db, game.id, knights, { fromDay: '2025-03-26', toDay: '2025-04-10' }, ctx);
      expect(again).toEqual({ ok: true, moved: { from: new Date('2025-03-26T19:00:00Z'), to: new Date('2025-03-28T19:00:00Z') } });
      // An absence in the past is refused; one that misses the deadline changes nothing.
      expect(await recordAbsence(db, game.id, knights, { fromDay: '2025-03-01', toDay: '2025-03-02' }, ctx)).toEqual({
        ok: false,
        reason: 'in-the-past',
      });
      expect(await recordAbsence(db, game.id, knights, { fromDay: '2025-05-01', toDay: '2025-05-02' }, ctx)).toEqual({
        ok: true,
        moved: null,
      });
    });

    it('D-ABS-1: when a close opens a turn whose deadline an absence moves, players get the edict first, then the move', async () => {
      clock.set(START);
      const { game, players } = await createGame(db, { ...input('Away Next'), absenceDaysPerPlayer: 5 }, ctx);
      const knights = players.find((p) => p.faction === 'knights')!;
      // Turn 2 would be due Sunday 30 March: away from Saturday 29 to Monday 31.
      expect(await recordAbsence(db, game.id, knights, { fromDay: '2025-03-29', toDay: '2025-03-31' }, ctx)).toEqual({
        ok: true,
        moved: null,
      });
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      expect((await findTurn(db, game.id, 2))!.deadline.toISOString()).toBe('2025-04-01T18:00:00.000Z');
      const toA = (await listOutbox(db, { gameId: game.id })).filter(
        (m) => m.toAddress === 'a@example.com' && ['edict', 'deadline-moved'].includes(m.kind),
      );
      expect(toA.map((m) => m.kind)).toEqual(['edict', 'deadline-moved']);
    });
  });

  describe('amending and rolling back (R-EDICT-3, R-ADV-2)', () => {
    const HOMES: Record<string, string[]> = {
      hutt: ['B2', 'B1', 'A2'],
      aristocrats: ['G7', 'G6', 'F7'],
      sith: ['T7', 'T6', 'U7'],
      knights: ['X2', 'X1', 'Y2'],
    };
    /** Hutt I8 between Aristocrats H8 and L8: if the Aristocrats are hostile, I8 falls and H8 advances, contested. */
    async function contestedGame(name: string) {
      clock.set(START);
      const { game } = await createGame(db, input(name), ctx);
      const units = [
        ...Object.entries(HOMES).flatMap(([side, cells]) => cells.map((at) => ({ side, at }))),
        { side: 'sith', at: 'N9' },
        { side: 'hutt', at: 'I8' },
        { side: 'aristocrats', at: 'H8' },
        { side: 'aristocrats', at: 'L8' },
      ];
      const t1 = (await findTurn(db, game.id, 1))!;
      await updateTurn(db, game.id, 1, { state: { ...t1.state, turn: 5, election: false, chancellor: 'sith', units }, election: false });
      await send(game.id, 'aristocrats', 'H: Hutt');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      const out = await closeTurn(db, game.id, 1, ctx);
      expect(out.closed && out.edict.advances).toEqual([expect.objectContaining({ from: 'H8', to: 'I8', contested: true })]);
      return game.id;
    }

    it('the referee chooses the other unit: a new edict version with the reason, mailed to all, the next turn re-opened from it', async () => {
      const id = await contestedGame('Amend Advance');
      const referee = { ...ctx, actor: 'referee:ada' };
      await expect(amendTurn(db, { gameId: id, turn: 1, reason: 'x', advances: { I8: 'B2' } }, referee)).rejects.toThrow(
        /not one of that cell's candidates/,
      );
      await expect(amendTurn(db, { gameId: id, turn: 1, reason: '  ', advances: { I8: 'L8' } }, referee)).rejects.toThrow(/reason/);
      expect(await amendTurn(db, { gameId: id, turn: 1, reason: 'The Chancellor chose L8 <b>', advances: { I8: 'L8' } }, referee)).toEqual({
        version: 2,
      });

      const versions = await listEdicts(db, id);
      expect(versions.map((e) => [e.version, e.reason, e.createdBy])).toEqual([
        [1, null, 'system'],
        [2, 'The Chancellor chose L8 <b>', 'referee:ada'],
      ]);
      expect(versions[1]!.json.advances[0]).toMatchObject({ from: 'L8', to: 'I8', rule: 'R-ADV-2', chosenByReferee: true });
      const t2 = (await findTurn(db, id, 2))!;
      expect(t2.state.units).toContainEqual({ side: 'aristocrats', at: 'H8' });
      expect(t2.state.units).not.toContainEqual({ side: 'aristocrats', at: 'L8' });
      const mails = await listOutbox(db, { gameId: id, kind: 'edict-amended' });
      expect(mails).toHaveLength(4);
      expect(mails.find((m) => m.toAddress === 'a@example.com')!.subject).toContain('(amended, version 2)');
      expect(mails.find((m) => m.toAddress === 'a@example.com')!.bodyText).toContain('Reason: The Chancellor chose L8 <b>');
      expect(mails.find((m) => m.toAddress === 'a@example.com')!.bodyHtml).toContain('The Chancellor chose L8 &lt;b&gt;');
      const audit = await listAudit(db, { gameId: id, action: 'edict.amend' });
      expect(audit[0]).toMatchObject({
        actor: 'referee:ada',
        detail: expect.objectContaining({ turn: 1, version: 2, advances: { I8: 'L8' } }),
      });
    });

    it('is refused outside the dispute window unless confirmed, and once the next turn has closed', async () => {
      const id = await contestedGame('Amend Window');
      clock.advance(1441 * MINUTE);
      await expect(amendTurn(db, { gameId: id, turn: 1, reason: 'late', advances: { I8: 'L8' } }, ctx)).rejects.toThrow(/dispute window/);
      expect(
        await amendTurn(db, { gameId: id, turn: 1, reason: 'late, confirmed', advances: { I8: 'L8' }, confirmOutsideWindow: true }, ctx),
      ).toEqual({ version: 2 });
      clock.set(new Date('2025-03-30T18:01:00Z'));
      await closeTurn(db, id, 2, ctx);
      await expect(amendTurn(db, { gameId: id, turn: 1, reason: 'too late', confirmOutsideWindow: true }, ctx)).rejects.toThrow(
        /turn 2 has been closed/,
      );
    });

    it('a corrected sheet for a justified dispute is adjudicated in place of the stored one', async () => {
      const id = await contestedGame('Amend Sheet');
      // The Aristocrats' sheet was misread: they meant no hostility. I8 stands.
      expect(await amendTurn(db, { gameId: id, turn: 1, reason: 'misread sheet', correctedSheets: { aristocrats: '' } }, ctx)).toEqual({
        version: 2,
      });
      expect((await findTurn(db, id, 2))!.state.units).toContainEqual({ side: 'hutt', at: 'I8' });
    });

    it('keeps what happened since the turn closed: a player who joined turn 2 still enters on turn 3', async () => {
      const id = await contestedGame('Amend After Join');
      const { player } = await joinGame(db, { gameId: id, email: 'e@example.com' }, ctx);
      expect(player).toMatchObject({ faction: 'merchants', joinedTurn: 3 });
      expect(await amendTurn(db, { gameId: id, turn: 1, reason: 'misread sheet', correctedSheets: { aristocrats: '' } }, ctx)).toEqual({
        version: 2,
      });
      expect((await findTurn(db, id, 2))!.state.joining).toEqual(['merchants']);
      clock.set(new Date('2025-03-30T18:01:00Z'));
      await closeTurn(db, id, 2, ctx);
      expect((await findTurn(db, id, 3))!.state.factions).toHaveLength(5);
      expect((await findTurn(db, id, 3))!.state.factions).toContain('merchants');
    });

    it('a roll-back keeps a player who joined the turn it removes: they enter when the re-opened turn closes', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Roll Back Join'), ctx);
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      await joinGame(db, { gameId: game.id, email: 'e@example.com' }, ctx);
      const reopened = new Date(TURN1_DEADLINE.getTime() + 2 * 24 * 60 * MINUTE);
      await rollBackTurn(db, game.id, 'the deadline was announced wrongly', reopened, ctx);
      expect((await findTurn(db, game.id, 1))!.state.joining).toEqual(['merchants']);
      expect((await listPlayers(db, game.id)).find((p) => p.email === 'e@example.com')).toMatchObject({
        faction: 'merchants',
        joinedTurn: 2,
      });
      clock.set(new Date(reopened.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      expect((await findTurn(db, game.id, 2))!.state.factions).toContain('merchants');
    });

    it('a corrected sheet for a faction not in play is refused, and nothing is published', async () => {
      const id = await contestedGame('Amend Unknown');
      for (const faction of ['zzz', '__proto__', 'constructor'])
        await expect(
          amendTurn(
            db,
            { gameId: id, turn: 1, reason: 'typo', correctedSheets: JSON.parse(`{"${faction}": "H: Sith"}`) as Record<string, string> },
            ctx,
          ),
        ).rejects.toMatchObject({
          code: 'invalid-input',
          message: expect.stringContaining(`"${faction}" is not a faction in play in turn 1`),
        });
      expect((await listEdicts(db, id)).map((e) => e.version)).toEqual([1]);
      expect(await listOutbox(db, { gameId: id, kind: 'edict-amended' })).toHaveLength(0);
    });

    it('a reason and a corrected sheet lose their control characters (D-INPUT-1)', async () => {
      const id = await contestedGame('Amend Controls');
      await amendTurn(
        db,
        { gameId: id, turn: 1, reason: 'mis\u0000read\u202E \uFFFEsheet\u0007', correctedSheets: { aristocrats: '\u0000\r\n' } },
        ctx,
      );
      expect((await listEdicts(db, id))[1]!.reason).toBe('misread sheet');
    });

    it('rolls back the last closed turn: it re-opens with its sheets, players told; closing it again publishes the next version', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Roll Back'), ctx);
      await send(game.id, 'hutt', 'V: Hutt');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      await send(game.id, 'hutt', 'B2-C3'); // a sheet for turn 2, which will go
      await expect(rollBackTurn(db, game.id, 'wrong deadline', new Date(TURN1_DEADLINE.getTime()), ctx)).rejects.toThrow(/future/);
      const reopened = new Date(TURN1_DEADLINE.getTime() + 2 * 24 * 60 * MINUTE);
      await rollBackTurn(db, game.id, 'the deadline was announced wrongly', reopened, ctx);
      expect(await findTurn(db, game.id, 2)).toBeNull();
      expect(await findTurn(db, game.id, 1)).toMatchObject({ status: 'open', deadline: reopened });
      expect((await findGame(db, game.id))!.currentTurn).toBe(1);
      expect(await listOutbox(db, { gameId: game.id, kind: 'rollback' })).toHaveLength(4);
      await send(game.id, 'sith', 'V: Sith');
      await send(game.id, 'knights', 'V: Sith');
      clock.set(new Date(reopened.getTime() + MINUTE));
      const out = await closeTurn(db, game.id, 1, ctx);
      expect(out.closed && out.edict.chancellor).toBe('sith');
      expect((await listEdicts(db, game.id)).map((e) => [e.version, e.reason])).toEqual([
        [1, null],
        [2, 'adjudicated again after the turn was rolled back'],
      ]);
      expect((await replayTurns(db, game.id)).turns.map((t) => [t.version, t.same])).toEqual([
        [1, true],
        [2, true],
      ]);
    });
  });

  describe('pausing and resuming', () => {
    it('a paused game passes no deadline; resuming moves the deadline on by the pause; everyone is told', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Pause'), ctx);
      clock.set(new Date(TURN1_DEADLINE.getTime() - 60 * MINUTE));
      await pauseGame(db, game.id, 'a dispute to settle', ctx);
      await expect(pauseGame(db, game.id, 'again', ctx)).rejects.toThrow(/paused/);
      clock.set(new Date(TURN1_DEADLINE.getTime() + 24 * 60 * MINUTE));
      expect((await job()).closed.filter((k) => k.startsWith(game.id))).toEqual([]);
      const deadline = await resumeGame(db, game.id, 'settled', ctx);
      expect(deadline.toISOString()).toBe(new Date(TURN1_DEADLINE.getTime() + 25 * 60 * MINUTE).toISOString());
      expect((await findTurn(db, game.id, 1))!.deadline).toEqual(deadline);
      expect(await listOutbox(db, { gameId: game.id, kind: 'game-paused' })).toHaveLength(4);
      expect((await listOutbox(db, { gameId: game.id, kind: 'game-resumed' }))[0]!.bodyText).toContain('settled');
      expect((await listAudit(db, { gameId: game.id })).map((e) => e.action).slice(0, 2)).toEqual(['game.resume', 'game.pause']);
    });

    it('R-WIN-2: a game created with a last turn ends there, the most planets winning; the referee may change the length, never onto a closed turn', async () => {
      clock.set(START);
      const { game, turn } = await createGame(db, { ...input('Length'), lastTurn: 4 }, ctx);
      expect(game.lastTurn).toBe(4);
      expect(turn.state.settings.lastTurn).toBe(4);
      expect((await listOutbox(db, { gameId: game.id, kind: 'welcome' }))[0]!.bodyText).toContain(
        'the game ends with turn 4, and then the most planets win (R-WIN-2)',
      );
      await send(game.id, 'hutt', 'V: Hutt');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      expect((await findTurn(db, game.id, 2))!.state.settings.lastTurn).toBe(4); // carried by the engine
      clock.set(new Date('2025-03-30T18:01:00Z'));
      await closeTurn(db, game.id, 2, ctx);

      // Turn 3 is open: turn 2 can no longer be made the last; 3 or later can, and none.
      await expect(setLastTurn(db, game.id, 2, 'too short', ctx)).rejects.toThrow(/never a turn already closed/);
      await setLastTurn(db, game.id, null, 'play on', ctx);
      expect((await findTurn(db, game.id, 3))!.state.settings.lastTurn).toBeNull();
      await setLastTurn(db, game.id, 3, 'we are out of time', ctx);
      expect((await findGame(db, game.id))!.lastTurn).toBe(3);
      expect((await findTurn(db, game.id, 3))!.state.settings.lastTurn).toBe(3);
      const told = await listOutbox(db, { gameId: game.id, kind: 'game-length' });
      expect(told).toHaveLength(8);
      expect(told.map((m) => m.subject)).toContain('[SF length] The game ends with turn 3');
      expect(told.map((m) => m.subject)).toContain('[SF length] La partita finisce al turno 3');
      expect((await listAudit(db, { gameId: game.id })).filter((e) => e.action === 'game.length').map((e) => e.detail)).toEqual([
        { reason: 'we are out of time', from: null, to: 3 },
        { reason: 'play on', from: 4, to: null },
      ]);

      // The last turn closes: everyone holds 3 planets but the Chancellor, whose unit on the
      // Capital makes 4 (R-ELEC-5): the most planets win (R-WIN-2).
      clock.set(new Date('2025-04-06T18:01:00Z'));
      const closed = await closeTurn(db, game.id, 3, ctx);
      expect(closed.closed).toBe(true);
      if (!closed.closed) return;
      expect(closed.edict).toMatchObject({ winRule: 'R-WIN-2', lastTurn: 3, gameOver: true });
      expect(closed.edict.winners).toHaveLength(1);
      expect(closed.next).toBeNull();
      const over = (await findGame(db, game.id))!;
      expect(over.status).toBe('finished');
      expect(await listTurns(db, game.id)).toHaveLength(3);
      const [edict] = (await listEdicts(db, game.id)).filter((e) => e.turn === 3);
      expect(edict!.textEn.replace(/\s+/g, ' ')).toContain('IMPERIAL EDICT — Turn 3 of 3');
      expect(edict!.textEn.replace(/\s+/g, ' ')).toMatch(/VICTORY: \w+ \(R-WIN-2/);
      await expect(setLastTurn(db, game.id, 5, 'more', ctx)).rejects.toThrow(/over/);
    });
  });

  describe('replayTurns (sf turn replay)', () => {
    it('R-EDICT-2: re-adjudicates every stored turn from its own sheets and finds no difference; a changed edict shows', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Replay'), ctx);
      await send(game.id, 'hutt', 'V: Hutt');
      await send(game.id, 'sith', 'V: Sith\nV: Hutt');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await closeTurn(db, game.id, 1, ctx);
      await send(game.id, 'hutt', 'H: Sith\nB2-C3\nN9#');
      clock.set(new Date('2025-03-30T18:01:00Z'));
      await closeTurn(db, game.id, 2, ctx);
      const replay = await replayTurns(db, game.id);
      expect(replay.turns.map((t) => [t.turn, t.same, t.storedEngine])).toEqual([
        [1, true, '1'],
        [2, true, '1'],
      ]);

      // An edict that no longer matches what the engine says (as after an engine change).
      await db.execute(sql`update edicts set json = jsonb_set(json, '{chancellor}', '"sith"') where game_id = ${game.id} and turn = 2`);
      const changed = await replayTurns(db, game.id);
      expect(changed.turns.map((t) => t.same)).toEqual([true, false]);
      expect(changed.turns[1]!.diff).toContain('-   "chancellor": "sith",');
      expect(changed.turns[1]!.diff).toContain('+   "chancellor": "hutt",');
    });
  });

  describe('the turn job', () => {
    it('closes a due turn only once intake has caught up, and each deadline once however often it runs', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Job Close'), ctx);
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      const waiting = await runTurnJob({ db, ctx, log: pino({ level: 'silent' }), catchUp: async () => false });
      expect(waiting.waiting).toContain(`${game.id}#1`);
      expect((await findTurn(db, game.id, 1))!.status).toBe('open');
      const passes = await Promise.all([job(), job(), job()]);
      expect(passes.flatMap((p) => p.closed).filter((k) => k === `${game.id}#1`)).toHaveLength(1);
      expect(await listEdicts(db, game.id)).toHaveLength(1);
      expect(await listOutbox(db, { gameId: game.id, kind: 'edict' })).toHaveLength(4);
    });

    it('says once a pass, not once a game, that due turns wait for intake to catch up', async () => {
      clock.set(START);
      const created = [];
      for (const name of ['Job Wait A', 'Job Wait B', 'Job Wait C']) created.push((await createGame(db, input(name), ctx)).game.id);
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      const lines: string[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
      const pass = await runTurnJob({ db, ctx, log, catchUp: async () => false });
      for (const id of created) expect(pass.waiting).toContain(`${id}#1`);
      const waitingLines = lines
        .map((l) => JSON.parse(l) as { msg: string; waiting?: number })
        .filter((l) => l.msg.includes('waiting for intake to catch up'));
      expect(waitingLines).toHaveLength(1);
      expect(waitingLines[0]!.waiting).toBe(pass.waiting.length);
      await Promise.all([job(), job()]); // leave them closed for the cases after
    });

    it('reminds only players whose orders are not valid, once per offset, saying what is missing', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Job Remind'), ctx);
      await send(game.id, 'hutt', 'V: Hutt');
      await send(game.id, 'aristocrats', 'V: Hutt\nB2-Z99');
      // 1440 minutes before the deadline: the first reminder is due.
      clock.set(new Date(TURN1_DEADLINE.getTime() - 1439 * MINUTE));
      await job();
      await job();
      let reminders = await listOutbox(db, { gameId: game.id, kind: 'reminder' });
      expect(reminders.map((m) => m.toAddress).sort()).toEqual(['b@example.com', 'c@example.com', 'd@example.com']);
      const b = reminders.find((m) => m.toAddress === 'b@example.com')!;
      // Aristocrats play in Italian; the off-board move is line 2, named once.
      expect(b.bodyText).toMatch(/\n {2}Riga 2: /);
      expect(b.bodyText).not.toMatch(/riga 2: riga 2/i);
      expect(b.bodyText).toContain(`La pagina della partita: https://sf.test/games/${game.id}\n`);
      expect(reminders.find((m) => m.toAddress === 'c@example.com')!.bodyText).toContain('We have no orders from you');

      // A sheet arrives; the next reminder (60 minutes before) skips that player.
      await send(game.id, 'sith', 'V: Sith');
      clock.set(new Date(TURN1_DEADLINE.getTime() - 59 * MINUTE));
      await job();
      reminders = await listOutbox(db, { gameId: game.id, kind: 'reminder' });
      expect(reminders.map((m) => m.toAddress).sort()).toEqual([
        'b@example.com',
        'b@example.com',
        'c@example.com',
        'd@example.com',
        'd@example.com',
      ]);

      // The deadline moves (a referee's extension): it is a new deadline, with reminders of its own.
      await updateTurn(db, game.id, 1, { deadline: new Date(TURN1_DEADLINE.getTime() + 24 * 60 * MINUTE) });
      await job();
      expect(await listOutbox(db, { gameId: game.id, kind: 'reminder' })).toHaveLength(5); // 1440 before the new one is not yet
      clock.set(new Date(TURN1_DEADLINE.getTime() + 1 * MINUTE));
      await job();
      expect(await listOutbox(db, { gameId: game.id, kind: 'reminder' })).toHaveLength(7);
    });

    it('R-WIN-2: the reminders and the grace notice of the last turn say it is the last, in both languages; earlier ones do not', async () => {
      clock.set(START);
      const { game } = await createGame(db, { ...input('Job Last Reminder'), lastTurn: 2, graceMinutes: 120 }, ctx);
      const earlier = await createGame(db, { ...input('Job Not Last Reminder'), lastTurn: 3 }, ctx);
      for (const f of ['hutt', 'aristocrats', 'sith', 'knights']) await send(game.id, f, 'V: Hutt');
      // Turn 1 of a game whose last turn is 3: its reminders say nothing of a last turn.
      clock.set(new Date(TURN1_DEADLINE.getTime() - 59 * MINUTE));
      await job();
      const notLast = await listOutbox(db, { gameId: earlier.game.id, kind: 'reminder' });
      expect(notLast).toHaveLength(4);
      for (const m of notLast) expect(m.bodyText).not.toMatch(/last turn|ultimo turno|R-WIN-2/);
      clock.set(new Date(TURN1_DEADLINE.getTime() + 121 * MINUTE));
      await job(); // closes turn 1 after its grace: turn 2 is the last
      const t2 = (await findTurn(db, game.id, 2))!;
      clock.set(new Date(t2.deadline.getTime() - 59 * MINUTE));
      await job();
      const reminders = (await listOutbox(db, { gameId: game.id, kind: 'reminder' })).filter((m) =>
        m.dedupeKey.startsWith(`reminder:${game.id}:2:`),
      );
      expect(reminders.length).toBeGreaterThan(1);
      const en = reminders.find((m) => m.toAddress === 'c@example.com')!;
      const it_ = reminders.find((m) => m.toAddress === 'b@example.com')!;
      expect(en.subject).toBe(`[SF ${game.id}] Reminder: your orders for turn 2, the last`);
      expect(en.bodyText).toContain(
        "This is the game's last turn: at its end, unless someone has already won, the faction controlling the most planets wins",
      );
      expect(en.bodyText).toContain('(R-WIN-2)');
      expect(it_.subject).toBe(`[SF ${game.id}] Promemoria: i tuoi ordini per il turno 2, l'ultimo`);
      expect(it_.bodyText).toContain(
        "È l'ultimo turno della partita: alla sua fine, se nessuno ha già vinto, vince la fazione che controlla più pianeti",
      );
      // The grace notice after the last turn's deadline says it too.
      clock.set(new Date(t2.deadline.getTime() + MINUTE));
      await job();
      const grace = await listOutbox(db, { gameId: game.id, kind: 'grace' });
      expect(grace.length).toBeGreaterThan(0);
      for (const m of grace) expect(m.bodyText).toMatch(/This is the game's last turn|È l'ultimo turno della partita/);
    });

    it('R-TURN-3: a Chancellor who has not declared by the declaration deadline: everybody is told, once', async () => {
      clock.set(START);
      const { game } = await createGame(db, input('Job Declare'), ctx);
      await send(game.id, 'hutt', 'V: Knights');
      clock.set(new Date(TURN1_DEADLINE.getTime() + MINUTE));
      await job(); // closes turn 1: the knights are Chancellor in turn 2
      const t2 = (await findTurn(db, game.id, 2))!;
      expect(t2.state.chancellor).toBe('knights');
      clock.set(new Date(t2.declarationDeadline.getTime() + MINUTE));
      await job();
      await job();
      const notices = await listOutbox(db, { gameId: game.id, kind: 'declaration-missed' });
      expect(notices).toHaveLength(4);
      expect(notices.find((m) => m.toAddress === 'a@example.com')!.bodyText).toContain('R-TURN-3');
      // D-TURN-4: the others are reminded of the orders deadline; the Chancellor, whose declaration
      // can no longer be made, is not.
      const reminders = (await listOutbox(db, { gameId: game.id, kind: 'reminder' })).filter((m) =>
        m.dedupeKey.startsWith(`reminder:${game.id}:2:`),
      );
      expect(reminders.map((m) => m.toAddress).sort()).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    });
  });
}
