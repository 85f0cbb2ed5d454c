// Who a login attempt is counted against, how long a guesser waits, the counts in the database,
// and the hashing queue's bound.
import { describe, expect, it } from 'vitest';
import { admitAttempt, delayAfter, forgiveAttempt, pruneLoginThrottle } from '../../src/db/login-throttle.ts';
import { loginThrottle } from '../../src/db/schema.ts';
import { databasePerFile } from '../harness/pglite.ts';
import { HashingQueue } from '../../src/referee/hashing-queue.ts';
import { clientBucket, DEFAULT_THROTTLE, KnownWaits, throttleKeys } from '../../src/referee/throttle.ts';

describe('clientBucket', () => {
  it('keeps an IPv4 address, also when mapped into IPv6', () => {
    expect(clientBucket('192.0.2.7')).toBe('192.0.2.7');
    expect(clientBucket('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('puts every IPv6 address of one /64 in one bucket, however it is written', () => {
    const bucket = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::192.0.2.1',
    ]) {
      expect([ip, clientBucket(ip)]).toEqual([ip, bucket]);
    }
    expect(clientBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('makes short keys with no typed address in them', () => {
    const [pair, client] = throttleKeys(`${'x'.repeat(5000)}@Example.org`, '2001:db8:1:2::9', DEFAULT_THROTTLE);
    expect(client.key).toBe('client:2001:db8:1:2::/64');
    expect(pair.key).toMatch(/^pair:[0-9a-f]{64}:2001:db8:1:2::\/64$/);
    expect(throttleKeys(' A@B.org ', '192.0.2.1', DEFAULT_THROTTLE)[0].key).toBe(
      throttleKeys('a@b.org', '192.0.2.1', DEFAULT_THROTTLE)[0].key,
    );
  });
});

describe('delayAfter', () => {
  it('lets the free failures through, then doubles the wait up to the cap', () => {
    const b = { free: 3, baseMs: 1000, capMs: 60_000, forgetMs: 1 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 50, 5000].map((n) => delayAfter(n, b))).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000,
    ]);
  });

  it('slows a guesser to at most a few guesses an hour per client with the defaults', () => {
    expect(delayAfter(100, DEFAULT_THROTTLE.pair)).toBe(15 * 60_000);
  });
});

describe('HashingQueue', () => {
  it('runs so many at once, keeps so many waiting, and refuses beyond that at once', async () => {
    const q = new HashingQueue(1, 1);
    const order: string[] = [];
    let release!: () => void;
    const a = q.enter()!;
    const b = q.enter()!;
    expect(q.enter()).toBeNull();
    const ra = a.run(() => new Promise<void>((r) => (release = () => (order.push('a'), r()))));
    const rb = b.run(async () => void order.push('b'));
    await Promise.resolve();
    expect(order).toEqual([]); // b waits for a
    release();
    await Promise.all([ra, rb]);
    expect(order).toEqual(['a', 'b']);
    expect(q.size).toBe(0);
    const c = q.enter()!;
    c.leave();
    c.leave(); // twice is once
    expect(q.size).toBe(0);
  });

  it('gives the place back when the work fails', async () => {
    const q = new HashingQueue(1, 0);
    await expect(q.enter()!.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(q.enter()).not.toBeNull();
  });
});

describe('KnownWaits', () => {
  it('answers the longest running wait among the keys, and forgets a wait once it has run out', () => {
    const w = new KnownWaits();
    w.note('client:a', 5_000, 1_000);
    w.note('pair:x:a', 3_000, 1_000);
    w.note('pair:gone', 500, 1_000); // over already: not kept
    expect(w.size).toBe(2);
    expect(w.remaining(['pair:x:a', 'client:a'], 2_000)).toBe(3_000);
    expect(w.remaining(['pair:x:a', 'client:b'], 2_000)).toBe(1_000);
    expect(w.remaining(['pair:y:b', 'client:b'], 2_000)).toBe(0);
    expect(w.remaining(['pair:x:a', 'client:a'], 5_000)).toBe(0);
    expect(w.size).toBe(0);
  });

  it('forgets what a right password forgave, and keeps at most so many keys, the newest', () => {
    const w = new KnownWaits(2);
    w.note('a', 10_000, 0);
    w.note('b', 10_000, 0);
    w.note('c', 10_000, 0);
    expect([w.size, w.remaining(['a'], 1), w.remaining(['c'], 1)]).toEqual([2, 0, 9_999]);
    w.forget(['c']);
    expect(w.remaining(['b', 'c'], 1)).toBe(9_999);
    expect(w.remaining(['c'], 1)).toBe(0);
  });
});

describe('the counts in the database', () => {
  const dbs = databasePerFile();
  const t0 = new Date('2026-03-02T10:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const b = { free: 2, baseMs: 1000, capMs: 60_000, forgetMs: 3_600_000 };
  const pair = { key: 'pair:x:192.0.2.1', backoff: b };
  const client = { key: 'client:192.0.2.1', backoff: { ...b, free: 4 } };

  it('counts attempts on every key, refuses while one waits without counting, and forgets after a quiet spell', async () => {
    const { db } = await dbs.fresh();
    expect(await admitAttempt(db, [pair, client], at(0))).toEqual({ admitted: true });
    expect(await admitAttempt(db, [pair, client], at(1))).toEqual({ admitted: true });
    expect(await admitAttempt(db, [pair, client], at(2))).toEqual({ admitted: true }); // the third: waits 1 s after
    expect(await admitAttempt(db, [pair, client], at(500))).toEqual({
      admitted: false,
      retryAfterMs: 502,
      waiting: [{ key: pair.key, until: at(1002) }],
    });
    expect(await admitAttempt(db, [pair, client], at(1002))).toEqual({ admitted: true }); // waits 2 s after
    expect(await admitAttempt(db, [pair, client], at(3001))).toEqual({
      admitted: false,
      retryAfterMs: 1,
      waiting: [{ key: pair.key, until: at(3002) }],
    });
    const rows = await db.select().from(loginThrottle).orderBy(loginThrottle.key);
    expect(rows.map((r) => [r.key, r.failures])).toEqual([
      ['client:192.0.2.1', 4],
      ['pair:x:192.0.2.1', 4],
    ]);
    // An hour and more without a failure: counted from nothing again.
    expect(await admitAttempt(db, [pair, client], at(3_700_000))).toEqual({ admitted: true });
    expect((await db.select().from(loginThrottle)).map((r) => r.failures)).toEqual([1, 1]);
  });

  it('a right password forgets its pair and gives the client back its attempt', async () => {
    const { db } = await dbs.fresh();
    for (let i = 0; i < 3; i++) await admitAttempt(db, [pair, client], at(i));
    await forgiveAttempt(db, [pair, client], [pair.key]);
    expect((await db.select().from(loginThrottle)).map((r) => [r.key, r.failures])).toEqual([['client:192.0.2.1', 2]]);
  });

  it('prunes rows with no failure since the cut-off and no wait running', async () => {
    const { db } = await dbs.fresh();
    const busy = { key: 'pair:busy:192.0.2.9', backoff: { ...b, free: 0, baseMs: 86_400_000, capMs: 86_400_000 } };
    await admitAttempt(db, [pair], at(0));
    await admitAttempt(db, [busy], at(0));
    await admitAttempt(db, [client], at(5_000_000));
    expect(await pruneLoginThrottle(db, at(4_000_000), at(5_000_000))).toBe(1);
    expect((await db.select().from(loginThrottle)).map((r) => r.key).sort()).toEqual([client.key, busy.key]);
  });
});
