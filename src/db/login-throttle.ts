// Failed logins in the database (table login_throttle): every instance of the service and every
// restart sees the same counts. An attempt is counted BEFORE its password is checked, in one
// transaction that locks its rows, so that parallel guesses cannot slip past the count; a login
// that then succeeds gives its count back (forgiveAttempt).
import { and, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { loginThrottle } from './schema.ts';

/** How a key is slowed: `free` failures cost nothing, then each waits twice as long as the last. */
export interface Backoff {
  free: number;
  baseMs: number;
  capMs: number;
  /** Failures are forgotten after this long without one. */
  forgetMs: number;
}

export interface ThrottleKey {
  key: string;
  backoff: Backoff;
}

/** Refused: the longest wait, and each key's that is waiting (for KnownWaits). */
export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number; waiting: Array<{ key: string; until: Date }> };

/** How long the next attempt waits after `failures` failures. */
export function delayAfter(failures: number, b: Backoff): number {
  if (failures <= b.free) return 0;
  return Math.min(b.capMs, b.baseMs * 2 ** Math.min(30, failures - b.free - 1));
}

const until = (from: Date, ms: number): Date | null => (ms > 0 ? new Date(from.getTime() + ms) : null);

/** Counts one attempt on every key, unless one of them is still waiting: then nothing is counted. */
export async function admitAttempt(db: Db, keys: readonly ThrottleKey[], now: Date = new Date()): Promise<Admission> {
  // Sorted: every transaction locks its rows in the same order (`client:` before `pair:`), so none deadlock.
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
  // Two statements (PGlite runs them on the thread that serves the pages, so a flood's cost is counted
  // in statements): the first inserts the missing rows and locks and returns every row (on conflict,
  // an update that changes nothing), the second counts the attempt on every key.
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(loginThrottle)
      .values(sorted.map((k) => ({ key: k.key, failures: 0, lastAt: now })))
      .onConflictDoUpdate({ target: loginThrottle.key, set: { key: sql`excluded.key` } })
      .returning();
    const waiting = rows.flatMap((r) => (r.blockedUntil && r.blockedUntil > now ? [{ key: r.key, until: r.blockedUntil }] : []));
    if (waiting.length > 0)
      return { admitted: false, retryAfterMs: Math.max(...waiting.map((w) => w.until.getTime() - now.getTime())), waiting };
    const counted = sorted.map((k) => {
      const row = rows.find((r) => r.key === k.key)!;
      const forgotten = now.getTime() - row.lastAt.getTime() > k.backoff.forgetMs;
      const failures = (forgotten ? 0 : row.failures) + 1;
      const blocked = until(now, delayAfter(failures, k.backoff));
      return sql`(${k.key}, ${failures}::integer, ${blocked?.toISOString() ?? null}::timestamptz)`;
    });
    await tx.execute(sql`update ${loginThrottle} set failures = v.failures, blocked_until = v.blocked_until, last_at = ${now.toISOString()}::timestamptz
      from (values ${sql.join(counted, sql`, `)}) as v(key, failures, blocked_until) where ${loginThrottle.key} = v.key`);
    return { admitted: true };
  });
}

/**
 * Gives back an attempt that turned out right: the (account, client) pair starts again from
 * nothing (this client knows the password), other keys lose the one attempt counted.
 */
export async function forgiveAttempt(db: Db, keys: readonly ThrottleKey[], forget: readonly string[]): Promise<void> {
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
  await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(loginThrottle)
      .where(
        inArray(
          loginThrottle.key,
          sorted.map((k) => k.key),
        ),
      )
      .orderBy(loginThrottle.key)
      .for('update');
    for (const row of rows) {
      if (forget.includes(row.key)) {
        await tx.delete(loginThrottle).where(inArray(loginThrottle.key, [row.key]));
        continue;
      }
      const failures = Math.max(0, row.failures - 1);
      const backoff = sorted.find((k) => k.key === row.key)!.backoff;
      await tx
        .update(loginThrottle)
        .set({ failures, blockedUntil: until(row.lastAt, delayAfter(failures, backoff)) })
        .where(inArray(loginThrottle.key, [row.key]));
    }
  });
}

/** Deletes what no longer slows anyone: no failure since `before`, and no wait running. Answers how many. */
export async function pruneLoginThrottle(db: Db, before: Date, now: Date = new Date()): Promise<number> {
  const gone = await db
    .delete(loginThrottle)
    .where(and(lt(loginThrottle.lastAt, before), or(isNull(loginThrottle.blockedUntil), lt(loginThrottle.blockedUntil, now))))
    .returning({ key: loginThrottle.key });
  return gone.length;
}
