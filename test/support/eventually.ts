// Polls a check until it stops throwing: how tests wait for servers and background loops without
// fixed sleeps. On time-out the check's last error is rethrown, named by `why` when given. The
// default limit only catches a hang: it is far beyond what anything awaited takes, even on a busy
// machine, and below the unit tier's test time-out (vitest.config.ts) so that the error says what
// was awaited.
export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** What was awaited, put in front of the last error. */
  why?: string;
}

export async function eventually<T>(check: () => Promise<T> | T, opts: EventuallyOptions = {}): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 100, why } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) {
        if (why === undefined) throw err;
        throw new Error(`${why} within ${timeoutMs} ms: ${(err as Error).message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
