// Several service instances share one PostgreSQL: what they do at the same moment must not collide.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { insertGame } from '../../src/db/games.ts';
import { admitAttempt } from '../../src/db/login-throttle.ts';
import { claimBatch, enqueue, newMessageId, type OutboxMail } from '../../src/db/outbox.ts';
import { loginThrottle } from '../../src/db/schema.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { insertTurn } from '../../src/db/turns.ts';
import { initialState } from '../../src/games/initial-state.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { plainGame } from './tables.ts';

describe('two instances on one PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let a: Database;
  let b: Database;
  beforeAll(async () => {
    fresh = await freshDatabase();
    const config = { database: { kind: 'postgres' as const, url: fresh.url } };
    a = await openDatabase(config);
    b = await openDatabase(config);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fresh?.drop();
  });

  it('count every login attempt made at once, on new keys and old, and let none past a wait', async () => {
    const backoff = { free: 10, baseMs: 60_000, capMs: 60_000, forgetMs: 3_600_000 };
    const keys = [
      { key: 'pair:p:192.0.2.50', backoff },
      { key: 'client:192.0.2.50', backoff: { ...backoff, free: 1000 } },
    ];
    const now = new Date();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => admitAttempt((i % 2 ? a : b).db, keys, now)));
    // The pair waits after its 11th failure: exactly 11 of the 20 got in, each counted once.
    expect(answers.filter((x) => x.admitted)).toHaveLength(11);
    const rows = await a.db.select().from(loginThrottle).orderBy(loginThrottle.key);
    expect(rows.map((r) => [r.key, r.failures])).toEqual([
      ['client:192.0.2.50', 11],
      ['pair:p:192.0.2.50', 11],
    ]);
  });

  it('never claim the same outbox row twice (FOR UPDATE SKIP LOCKED)', async () => {
    const total = 300;
    for (let i = 0; i < total; i++) {
      await enqueue(a.db, {
        kind: 'edict',
        gameId: null,
        toAddress: `p${i}@x.it`,
        subject: 'edict',
        messageId: newMessageId('sf.test'),
        bodyText: 'text',
        dedupeKey: `claim:${i}`,
      });
    }
    const now = new Date(Date.now() + 60_000);
    // Each instance runs several claimers at once, as a busy sender would.
    const drain = async (database: Database, got: OutboxMail[]): Promise<OutboxMail[]> => {
      for (;;) {
        const batch = await claimBatch(database.db, { now, limit: 7 });
        if (batch.length === 0) return got;
        got.push(...batch);
      }
    };
    // Every claimer's first claim at once, so that both instances hold claims together however
    // the machine schedules them (28 of 300 rows: each gets some); then each drains what is left.
    const claimers = [a, b, a, b];
    const first = await Promise.all(claimers.map((d) => claimBatch(d.db, { now, limit: 7 })));
    const results = await Promise.all(claimers.map((d, i) => drain(d, [...first[i]!])));
    const ids = results.flat().map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(total);
    // Both instances got work: the rows were really contended, not taken by one alone.
    expect(results.every((r) => r.length > 0)).toBe(true);
  });

  it('number sheet versions without gaps or collisions when they arrive together', async () => {
    await insertGame(a.db, plainGame('race', 'Race'));
    await insertTurn(a.db, {
      gameId: 'race',
      number: 1,
      election: true,
      state: initialState(classicMap(), 'race', ['hutt', 'aristocrats', 'sith', 'knights'], { victoryPlanets: 12, nmrHostility: 'keep' }),
      deadline: new Date(Date.now() + 86_400_000),
      declarationDeadline: new Date(Date.now() + 3_600_000),
      status: 'open',
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        addSheetVersion(i % 2 ? a.db : b.db, {
          gameId: 'race',
          turn: 1,
          faction: 'sith',
          text: `V: Hutt ${i}`,
          parsed: {},
          status: 'valid',
          receivedAt: new Date(),
          inboundId: null,
        }),
      ),
    );
    const versions = results.map((r) => (r.ok ? r.sheet.version : 0)).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });
});
