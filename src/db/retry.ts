// Waiting for PostgreSQL at start-up: a database that is still booting, restarting or not yet
// reachable (containers started together) is retried with backoff; a wrong password, a missing
// database or a failing migration is not — waiting cannot fix those, and the operator should hear at once.
import type { Logger } from 'pino';
import { exponentialDelay } from '../timing.ts';

// Node's network errors, and PostgreSQL's "starting up / shutting down / too many clients".
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND', // a container's name is not in DNS until it has started
  'EPIPE',
  '57P01', // admin_shutdown (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up
  '53300', // too_many_connections
]);

/** The error at the bottom of a `cause` chain (Drizzle wraps the driver's as "Failed query: …"). */
export function rootCause(err: unknown): unknown {
  let e = err;
  for (let i = 0; i < 10 && e instanceof Error && e.cause !== undefined; i++) e = e.cause;
  return e;
}

/** True for errors that waiting may cure: the server is not (yet) there, or went away. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const root = rootCause(err);
  if (root !== err) return isTransient(root);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  if (err instanceof AggregateError) return err.errors.some(isTransient); // one per resolved address
  // pg's own words when the socket closes under it, before or after the handshake.
  return /^Connection terminated|^connect ETIMEDOUT|^timeout exceeded when trying to connect/.test(err.message);
}

export interface RetryOptions {
  /** Give up once this long has passed since the first attempt; 0: one attempt. */
  retryForMs: number;
  log?: Logger;
  initialDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Runs `attempt` until it succeeds, a permanent error occurs, or `retryForMs` has passed. */
export async function connectWithRetry<T>(attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const start = now();
  // No jitter: one process waits for its one database.
  const backoff = { initialMs: opts.initialDelayMs ?? 500, maxMs: opts.maxDelayMs ?? 10_000 };
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const left = start + opts.retryForMs - now();
      if (!isTransient(err) || left <= 0) throw err;
      const wait = Math.min(exponentialDelay(n - 1, backoff), left);
      opts.log?.warn(
        { attempt: n, err: err instanceof Error ? err.message : String(err) },
        `database unreachable (DATABASE_URL), attempt ${n}; retrying in ${(wait / 1000).toFixed(1)} s`,
      );
      await sleep(wait);
    }
  }
}
