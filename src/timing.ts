// Waiting, backing off and being woken up: the loops of the service (mail sources, the outbox,
// the turn job) share these.

export interface BackoffOptions {
  /** First retry delay. */
  initialMs: number;
  /** Cap: a mailbox that is down for hours is retried at this pace. */
  maxMs: number;
}

/** Sleeps `ms`, but resolves (never rejects) as soon as `signal` aborts, so loops just re-check it. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The one backoff of the program (mail sources, the outbox's retries, the database at start-up):
 * `initialMs` doubled on each attempt, at most `maxMs`. `attempt` counts from 0.
 */
export function exponentialDelay(attempt: number, opts: BackoffOptions): number {
  return Math.min(opts.maxMs, opts.initialMs * 2 ** Math.min(Math.max(0, attempt), 30));
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so many clients
 * restarted together (e.g. after a mail server reboot) spread out but never retry in a hot loop.
 * `attempt` counts from 0; `random` is injectable so tests are deterministic.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number): number {
  const exp = exponentialDelay(attempt, opts);
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * A latch for "something may have changed" hints (IMAP EXISTS, fs.watch). A hint that arrives
 * while a pass is running stays pending, so the next wait returns at once instead of missing it.
 */
export class Wakeup {
  private pending = false;
  private waiter: (() => void) | null = null;

  notify(): void {
    this.pending = true;
    this.waiter?.();
  }

  get isPending(): boolean {
    return this.pending;
  }

  /** Forget hints already covered: call right before starting a pass. */
  clear(): void {
    this.pending = false;
  }

  /** Resolves on a hint (pending or new), after `ms`, or on abort — whichever comes first. */
  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.pending || signal.aborted) return;
    const inner = new AbortController();
    const onAbort = () => inner.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.waiter = onAbort;
    try {
      await sleep(ms, inner.signal);
    } finally {
      this.waiter = null;
      signal.removeEventListener('abort', onAbort);
    }
  }
}
