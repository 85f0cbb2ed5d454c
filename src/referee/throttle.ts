// Who a login attempt is counted against (src/db/login-throttle.ts keeps the counts). A guesser is
// slowed per (account, client) and per client over all accounts; there is no lock on an account
// alone, so that guesses from elsewhere never keep its owner out. A client is its IPv4 address or
// its IPv6 /64: one subscriber gets a whole /64, and rotating addresses inside it changes nothing.
import { hash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Backoff, ThrottleKey } from '../db/login-throttle.ts';

export interface ThrottlePolicy {
  /** One client and one account: the owner's typos are free, a guesser soon waits. */
  pair: Backoff;
  /** One client, over every account (and addresses that are no account). */
  client: Backoff;
}

const MINUTE = 60_000;
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  pair: { free: 3, baseMs: 1000, capMs: 15 * MINUTE, forgetMs: 24 * 60 * MINUTE },
  client: { free: 30, baseMs: 1000, capMs: 15 * MINUTE, forgetMs: 24 * 60 * MINUTE },
};

/** The eight groups of an IPv6 address, each as 1–4 hex digits (an IPv4 tail becomes two groups). */
function ipv6Groups(ip: string): string[] {
  let s = ip.split('%')[0]!.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const b = v4[1]!.split('.').map(Number);
    s = s.slice(0, -v4[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  if (tail === undefined) return h;
  const t = tail ? tail.split(':') : [];
  return [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
}

/** The bucket a client's attempts are counted in: IPv4 as is (also when mapped into IPv6), IPv6 by /64. */
export function clientBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  if (isIPv6(ip.split('%')[0]!))
    return `${ipv6Groups(ip)
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':')}::/64`;
  return ip.slice(0, 64);
}

const digest = (s: string) => hash('sha256', s, 'hex');

/** The key a client's attempts over every account are counted under. */
export const clientKey = (ip: string): string => `client:${clientBucket(ip)}`;

/** The keys of one attempt: the pair key first (the one a success forgets). */
export function throttleKeys(email: string, ip: string, policy: ThrottlePolicy): [pair: ThrottleKey, client: ThrottleKey] {
  const bucket = clientBucket(ip);
  // Hashed: the table holds no typed address, and any text (even very long) makes a short key.
  return [
    { key: `pair:${digest(email.trim().toLowerCase())}:${bucket}`, backoff: policy.pair },
    { key: clientKey(ip), backoff: policy.client },
  ];
}

/**
 * The waits this process has read from the database, so that a client kept waiting is refused
 * again without asking it: a flood from one client would otherwise cost a database transaction
 * per request, on the same thread as the public pages (PGlite runs in the process). A wait ends
 * only with time, or when a right password forgets an attempt (forget); another instance's
 * forgiving is seen here once the wait read runs out. At most `max` keys are kept.
 */
export class KnownWaits {
  private readonly until = new Map<string, number>();

  constructor(private readonly max = 10_000) {}

  /** How long the longest known wait among `keys` still runs, ms (0: none known). */
  remaining(keys: readonly string[], now = Date.now()): number {
    let wait = 0;
    for (const key of keys) {
      const until = this.until.get(key);
      if (until === undefined) continue;
      if (until <= now) this.until.delete(key);
      else wait = Math.max(wait, until - now);
    }
    return wait;
  }

  note(key: string, until: number, now = Date.now()): void {
    if (until <= now) return;
    this.until.delete(key); // re-inserted: the Map's order is the order of the waits noted
    this.until.set(key, until);
    if (this.until.size <= this.max) return;
    for (const [k, u] of this.until) if (u <= now) this.until.delete(k);
    // Still full of running waits: the oldest noted go first (the database still has them).
    for (const k of this.until.keys()) {
      if (this.until.size <= this.max) break;
      this.until.delete(k);
    }
  }

  forget(keys: readonly string[]): void {
    for (const key of keys) this.until.delete(key);
  }

  get size(): number {
    return this.until.size;
  }
}
