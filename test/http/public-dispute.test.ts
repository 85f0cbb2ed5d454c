// The public game page says a dispute is open on turn N while one is, in the reader's language —
// never who disputed nor why (D-PRESS-16, R-EDICT-4).
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { findGame } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { games } from '../../src/db/schema.ts';
import { listPlayers } from '../../src/db/players.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { fileDispute, rejectDispute } from '../../src/games/disputes.ts';
import { createGame } from '../../src/games/index.ts';
import { buildApp } from '../../src/http/app.ts';
import { openTestPglite } from '../harness/pglite.ts';

const MAIL = { domain: 'sf.example', ordersLocalPart: 'orders' };
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let gameId: string;

beforeAll(async () => {
  database = await openTestPglite();
  const db = database.db;
  const ctx = { actor: 'test', mail: MAIL };
  const { game } = await createGame(
    db,
    {
      name: 'Open Quarrel',
      players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@x.org` })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    ctx,
  );
  gameId = game.id;
  await closeTurn(db, gameId, 1, ctx, { force: true });
  app = await buildApp({ db, log: pino({ level: 'silent' }), publicCacheMs: 0, publicUrl: 'https://sf.example.org/' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const page = async (lang: string) => (await app.inject({ method: 'GET', url: `/games/${gameId}?lang=${lang}` })).body;

describe('the public game page and disputes', () => {
  it('says nothing without an open dispute, then "a dispute is open on turn 1" without its text, then nothing once settled', async () => {
    expect(await page('en')).not.toContain('dispute');
    const db = database.db;
    const [p] = await listPlayers(db, gameId);
    const { id } = await storeInbound(db, new TextEncoder().encode('Message-ID: <pub@x>\r\n\r\nDISPUTE\r\n'), {
      source: 'imap',
      sourceKey: 'pub:1',
    });
    const r = await fileDispute(
      db,
      { actor: 'test', mail: MAIL },
      {
        game: (await findGame(db, gameId))!,
        player: p!,
        inboundId: id,
        block: 0,
        reason: 'Secret grievance about I8',
        receivedAt: new Date(),
      },
    );
    expect(r.kind).toBe('filed');
    const en = await page('en');
    expect(en).toContain('A dispute is open on turn 1');
    expect(en).not.toContain('Secret grievance');
    expect(en).not.toContain(p!.email);
    const it = await page('it');
    expect(it).toMatch(/È aperta una contestazione dell(&#39;|')editto del turno 1/);
    expect(it).not.toContain('Secret grievance');
    await rejectDispute(
      db,
      { actor: 'referee:r', mail: MAIL },
      { gameId, disputeId: (r as { disputeId: number }).disputeId, reason: 'no' },
    );
    expect(await page('en')).not.toContain('A dispute is open');
  });
});

describe('the public game page and press', () => {
  it("shows the game's press settings in the reader's language, and what a referee changed", async () => {
    expect(await page('en')).toContain('Messages between players');
    expect(await page('en')).toContain('Messages: signed, or anonymous when the message says ANONYMOUS');
    expect(await page('it')).toContain('Messaggi tra giocatori');
    await database.db
      .update(games)
      .set({ pressSettings: { mode: 'off' } })
      .where(eq(games.id, gameId));
    const off = await page('en');
    expect(off).toContain('Messages: no messages between players (only to the referees)');
    expect(off).not.toContain('To whom:');
  });
});
