// Intake holds a turn's lock while it writes a batch; a player joining the game at that moment
// must wait for it, not deadlock with it (lockGame takes FOR NO KEY UPDATE: see games.ts).
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../../../src/db/client.ts';
import { listPlayers } from '../../../src/db/players.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { createGame, fileDispute, joinGame } from '../../../src/games/index.ts';
import type { IntakeDeps } from '../../../src/mail/intake/process-inbound.ts';
import { receiveMails } from '../../../src/mail/intake/receive.ts';
import { freshDatabase } from '../../harness/postgres.ts';
import { eventually } from '../../support/eventually.ts';
import { orderMail } from './world.ts';

const DOMAIN = 'sf.example';
const NOW = new Date('2026-03-02T10:00:00Z');
const mailCtx = { domain: DOMAIN, ordersLocalPart: 'orders' };

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let database: Database;
beforeAll(async () => {
  fresh = await freshDatabase();
  database = await openDatabase({ database: { kind: 'postgres', url: fresh.url } });
});
afterAll(async () => {
  await database?.close();
  await fresh?.drop();
});

/** Backends of this database waiting for a lock, other than the one asking. */
async function waitingForLocks(db: Db): Promise<number> {
  const r = (await db.execute(sql`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return r.rows[0]!.n;
}

describe('intake and a join at the same moment', () => {
  it('R-SETUP-4: the join waits for the batch holding the turn, and both go through', async () => {
    let n = 0;
    const created = await createGame(
      database.db,
      {
        name: 'Andromeda',
        players: ['anna', 'bruno', 'carla', 'eva'].map((p) => ({ email: `${p}@example.org`, lang: 'en' as const })),
        timeZone: 'Europe/Rome',
        weeklyDeadline: 'sun 20:00',
      },
      { actor: 'test', mail: mailCtx, now: () => NOW, newSecret: () => `k7Q2-x9P${'mnpq'[n++]}` },
    );
    let joining: Promise<string> | null = null;
    // The batch's first write (its sheets) is held back until a join has locked the game and is
    // waiting for the turn that the batch has locked.
    const holdFirstWrite = (tx: Db): Db =>
      new Proxy(tx, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown;
          if (prop !== 'execute' || joining)
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          return async (...args: unknown[]) => {
            joining = joinGame(
              database.db,
              { gameId: created.game.id, email: 'dario@example.org', lang: 'en' },
              { actor: 'test', mail: mailCtx, now: () => NOW, newSecret: () => 'zzzz-wxyz' },
            ).then(
              () => 'joined',
              (err: Error & { cause?: { code?: string } }) => `join failed: ${err.cause?.code ?? err.message}`,
            );
            await eventually(async () => expect(await waitingForLocks(database.db)).toBeGreaterThan(0), {
              why: 'the join waiting for the turn',
            });
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const db = new Proxy(database.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === 'transaction') return (fn: (tx: Db) => Promise<unknown>) => target.transaction((tx) => fn(holdFirstWrite(tx)));
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as Db;
    const deps: IntakeDeps = {
      db,
      log: pino({ level: 'silent' }),
      now: () => NOW,
      mail: { ...mailCtx, maxBytes: 1_000_000, replyRateLimitPerHour: 20, ourAddresses: [`orders@${DOMAIN}`] },
      fileDispute: (tx, a) => fileDispute(tx, { actor: 'mail', mail: mailCtx, now: () => NOW }, a),
    };
    const raw = orderMail({ from: 'anna@example.org', to: `orders+${created.players[0]!.secret}@${DOMAIN}`, body: 'V: Sith\n' });
    const [received] = await receiveMails(deps, [{ raw, source: 'imap', sourceKey: 'locks:1', receivedAt: NOW }]);
    expect(joining).not.toBeNull();
    expect(await joining).toBe('joined');
    expect(received!.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    expect(await sheetHistory(database.db, created.game.id, 1, 'hutt')).toHaveLength(1);
    expect((await listPlayers(database.db, created.game.id)).map((p) => p.email)).toContain('dario@example.org');
  }, 30_000);
});
