// The one backoff: the mail sources, the outbox's retries and the database at start-up all wait
// by it (src/timing.ts).
import { describe, expect, it } from 'vitest';
import { backoffMs } from '../src/db/outbox.ts';
import { backoffDelay, exponentialDelay } from '../src/timing.ts';

describe('backoff', () => {
  const opts = { initialMs: 500, maxMs: 10_000 };

  it('doubles from the first delay up to the cap, and never below the first', () => {
    expect([-1, 0, 1, 2, 4, 5, 1000].map((n) => exponentialDelay(n, opts))).toEqual([500, 500, 1000, 2000, 8000, 10_000, 10_000]);
  });

  it('with jitter, waits between half and all of that delay', () => {
    expect(backoffDelay(3, opts, () => 0)).toBe(2000);
    expect(backoffDelay(3, opts, () => 1)).toBe(4000);
    expect(backoffDelay(3, opts, () => 0.5)).toBe(3000);
  });

  it('is the outbox retry too: 1, 2, 4 … minutes, at most an hour', () => {
    expect([0, 1, 2, 6, 7].map(backoffMs)).toEqual([60_000, 60_000, 120_000, 1_920_000, 3_600_000]);
  });
});
