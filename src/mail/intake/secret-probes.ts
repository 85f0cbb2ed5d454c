// Someone guessing codes: every mail whose code is unknown, or belongs to another
// address, counts against its sender and, when the code names one, against that game. Past a
// threshold in a day the referee is alerted (D-MAIL-23): a warning in the log, an `alert` in the
// mail's stored outcome and one audit-log entry per sender or game and day, which the referee
// console will show. The counts live in memory: they are a tripwire, not a record (the stored
// outcomes are the record), and a restart only delays an alert.

/** Failed codes from one address in a day before the referee is alerted. */
export const PROBES_PER_SENDER = 5;
/** Failed codes against one game (its players' codes used from other addresses) in a day. */
export const PROBES_PER_GAME = 10;
const WINDOW_MS = 86_400_000;
/** Senders and games remembered at once: a flood of forged senders cannot grow memory without bound. */
const MAX_KEYS = 10_000;

export interface ProbeAlert {
  /** What crossed its threshold: `sender:<address>` or `game:<id>`. */
  key: string;
  count: number;
  threshold: number;
}

interface Window {
  start: number;
  count: number;
  alerted: boolean;
}

export class SecretProbeWatch {
  private readonly windows = new Map<string, Window>();

  /**
   * Counts one failed code; returns the thresholds this crossed (each alerts once per window) and
   * whether either count is past its threshold.
   */
  note(sender: string | null, gameId: string | null, at: Date): { alerts: ProbeAlert[]; probing: boolean } {
    const alerts: ProbeAlert[] = [];
    let probing = false;
    const count = (key: string, threshold: number) => {
      const w = this.bump(key, at.getTime());
      if (w.count >= threshold) probing = true;
      if (w.count >= threshold && !w.alerted) {
        w.alerted = true;
        alerts.push({ key, count: w.count, threshold });
      }
    };
    count(`sender:${sender ?? '?'}`, PROBES_PER_SENDER);
    if (gameId) count(`game:${gameId}`, PROBES_PER_GAME);
    return { alerts, probing };
  }

  private bump(key: string, now: number): Window {
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      if (!w && this.windows.size >= MAX_KEYS) this.forgetOldest();
      w = { start: now, count: 0, alerted: false };
      this.windows.delete(key);
      this.windows.set(key, w);
    }
    w.count++;
    return w;
  }

  private forgetOldest(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}

const watches = new WeakMap<object, SecretProbeWatch>();

/** The watch of one running intake (keyed by its database handle, so tests' worlds do not share one). */
export function probeWatchFor(owner: object): SecretProbeWatch {
  let w = watches.get(owner);
  if (!w) watches.set(owner, (w = new SecretProbeWatch()));
  return w;
}
