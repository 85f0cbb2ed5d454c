// Two service instances on one PostgreSQL processing the same stored mail at once, in opposite
// orders and with sweeps in between: every mail is decided exactly once, sheet versions have no
// gaps or clashes, and each player's standing sheet is the last one received (R-TURN-4, D-MAIL-20).
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../../../src/db/client.ts';
import { rowsOf } from '../../../src/db/arrays.ts';
import { createGame, fileDispute } from '../../../src/games/index.ts';
import type { IntakeDeps } from '../../../src/mail/intake/process-inbound.ts';
import { processPending, processStored, storeMails, type ArrivedMail } from '../../../src/mail/intake/receive.ts';
import { freshDatabase } from '../../harness/postgres.ts';
import { orderMail } from './world.ts';

const DOMAIN = 'sf.example';
const NOW = new Date('2026-03-02T10:00:00Z');
const MAILS = 400;

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let a: Database;
let b: Database;
beforeAll(async () => {
  fresh = await freshDatabase();
  a = await openDatabase({ database: { kind: 'postgres', url: fresh.url } });
  b = await openDatabase({ database: { kind: 'postgres', url: fresh.url } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await fresh?.drop();
});

describe('two instances on one PostgreSQL', () => {
  it('decide each mail once, keep sheet versions whole, and let the last sheet received stand', async () => {
    const emails = ['anna', 'bruno', 'carla', 'eva'].map((p) => `${p}@example.org`);
    let n = 0;
    for (const name of ['Andromeda', 'Beta']) {
      await createGame(
        a.db,
        { name, players: emails.map((email) => ({ email, lang: 'en' as const })), timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' },
        { actor: 'test', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => NOW, newSecret: () => `k7Q2-x${n++}Pm` },
      );
    }
    const problems: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void problems.push(line) });
    const deps = (db: Db): IntakeDeps => ({
      db,
      log,
      now: () => NOW,
      mail: {
        domain: DOMAIN,
        ordersLocalPart: 'orders',
        maxBytes: 1_000_000,
        replyRateLimitPerHour: 10_000,
        ourAddresses: [`orders@${DOMAIN}`],
      },
      fileDispute: (tx, a) => fileDispute(tx, { actor: 'mail', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => NOW }, a),
    });
    const players = await rowsOf<{ secret: string; email: string }>(a.db, sql`select secret, email from players order by id`);
    const mails: ArrivedMail[] = Array.from({ length: MAILS }, (_, i) => {
      const p = players[i % players.length]!;
      // One second apart, oldest first; each sheet different so the standing one is recognisable.
      return {
        raw: orderMail({ from: p.email, to: `orders+${p.secret}@${DOMAIN}`, body: `V: Sith\nmail ${i}\n` }),
        source: 'imap',
        sourceKey: `two:${i}`,
        receivedAt: new Date(NOW.getTime() - (MAILS - i) * 1_000),
      };
    });
    const stored = await storeMails(deps(a.db), mails);
    const chunks = <T>(xs: T[], k: number) => Array.from({ length: Math.ceil(xs.length / k) }, (_, i) => xs.slice(i * k, i * k + k));
    await Promise.all([
      (async () => {
        for (const c of chunks(stored, 50)) await processStored(deps(a.db), c);
      })(),
      (async () => {
        for (const c of chunks([...stored].reverse(), 37)) await processStored(deps(b.db), c);
      })(),
      (async () => {
        for (let i = 0; i < 5; i++) await processPending(deps(b.db), 60);
      })(),
    ]);

    const outcomes = await rowsOf<{ status: string; outcome: string; n: number }>(
      a.db,
      sql`select status, outcome, count(*)::int as n from inbound_messages group by 1, 2 order by 1, 2`,
    );
    expect(outcomes.every((o) => o.status !== 'pending')).toBe(true);
    expect(outcomes.reduce((s, o) => s + o.n, 0)).toBe(MAILS);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(expect.arrayContaining(['sheet']));
    expect(outcomes.filter((o) => !['sheet', 'superseded'].includes(o.outcome))).toEqual([]);

    // Versions 1..n for each faction, none twice; one reply per mail.
    const versions = await rowsOf<{ n: number; top: number; distinct: number }>(
      a.db,
      sql`select count(*)::int as n, max(version) as top, count(distinct version)::int as distinct from sheets group by game_id, faction`,
    );
    for (const v of versions) expect([v.distinct, Number(v.top)]).toEqual([v.n, v.n]);
    const [replies] = await rowsOf<{ n: number }>(a.db, sql`select count(*)::int as n from outbox where kind in ('ack', 'refusal')`);
    expect(replies!.n).toBe(MAILS);

    // The standing sheet of each player is the mail received last.
    const standing = await rowsOf<{ text: string; received: string | Date; last: string | Date }>(
      a.db,
      sql`
      select distinct on (s.game_id, s.faction) s.text, s.received_at as received,
        (select max(i.received_at) from inbound_messages i where i.player_id = p.id) as last
      from sheets s join players p on p.game_id = s.game_id and p.faction = s.faction
      order by s.game_id, s.faction, s.version desc`,
    );
    expect(standing).toHaveLength(players.length);
    for (const s of standing) expect(new Date(s.received).getTime()).toBe(new Date(s.last).getTime());
    expect(problems).toEqual([]);
  }, 120_000);
});
