// /health's view of the service's loops: a loop silent beyond its limit is stuck.
import { describe, expect, it } from 'vitest';
import { Liveness } from '../src/liveness.ts';

describe('Liveness', () => {
  it('reports a loop stuck once it has been silent longer than its limit, from start-up on', () => {
    let t = 1_000;
    const l = new Liveness(() => t);
    const start = t;
    const beat = l.track('sending', 100);
    let caughtUp: number | null = null;
    l.watch('intake', 100, () => caughtUp);
    expect(l.stuck(start)).toEqual([]);
    t += 150;
    expect(l.stuck(start)).toEqual(['sending', 'intake']);
    beat();
    caughtUp = t;
    expect(l.stuck(start)).toEqual([]);
    t += 99;
    expect(l.stuck(start)).toEqual([]);
    t += 2;
    expect(l.stuck(start)).toEqual(['sending', 'intake']);
  });
});
