// Whether the service's loops are alive, for /health: each loop says when it last completed a pass
// (intake: as of when it has read the mailbox), and a loop silent for longer than its limit is
// stuck — a health check that only asks the database would stay green while nothing moves.
export class Liveness {
  private readonly last = new Map<string, { at: () => number | null; limitMs: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A loop whose last pass is known by asking `at` (ms; null before its first pass). */
  watch(name: string, limitMs: number, at: () => number | null): void {
    this.last.set(name, { at, limitMs });
  }

  /** A loop that reports its passes itself: returns the function it calls after each pass. */
  track(name: string, limitMs: number): () => void {
    let at: number | null = null;
    this.watch(name, limitMs, () => at);
    return () => void (at = this.now());
  }

  /** The loops silent for longer than their limit. A loop gets its limit from start-up to its first pass too. */
  stuck(startedAt: number): string[] {
    const now = this.now();
    return [...this.last].filter(([, l]) => now - (l.at() ?? startedAt) > l.limitMs).map(([name]) => name);
  }
}
