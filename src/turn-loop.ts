// The service's side of the weekly turn: runs the turn job on a timer, and tells it when intake
// has caught up with the mail the mail server received before a deadline — the source has read
// the mailbox as of after the deadline, and every stored mail received by then is processed, in the
// intake queue's line so that no batch is half done.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { pendingReceivedBy } from './db/inbound.ts';
import { runTurnJob } from './games/index.ts';
import type { IntakeQueue } from './mail/intake/intake-queue.ts';
import type { SourceProgress } from './mail/sources/progress.ts';
import { sleep } from './timing.ts';

/** Mail delivered in the last seconds before a deadline may still be on its way into the mailbox. */
export const DEADLINE_SETTLE_MS = 5_000;

export interface TurnLoopOptions {
  config: Config;
  db: Db;
  log: Logger;
  now: () => Date;
  queue: IntakeQueue;
  progress: SourceProgress;
  signal: AbortSignal;
  intervalMs: number;
  /** Called after every pass, for /health. */
  pass?: () => void;
}

export async function startTurnJob(o: TurnLoopOptions): Promise<void> {
  const log = o.log.child({ job: 'turn' });
  const catchUp = async (deadline: Date): Promise<boolean> => {
    const asOf = o.progress.caughtUpAsOf();
    if (asOf === null || asOf < deadline.getTime() + DEADLINE_SETTLE_MS) return false;
    await o.queue.sweep();
    return !(await pendingReceivedBy(o.db, deadline));
  };
  const ctx = {
    actor: 'system',
    mail: { domain: o.config.mail.domain, ordersLocalPart: o.config.mail.ordersLocalPart },
    now: o.now,
    publicUrl: o.config.http.publicUrl,
    lateCloseMarginMs: o.config.lateCloseMarginMs,
  };
  while (!o.signal.aborted) {
    try {
      await runTurnJob({ db: o.db, ctx, log, catchUp });
    } catch (err) {
      log.error({ err }, 'turn job failed');
    }
    o.pass?.();
    await sleep(o.intervalMs, o.signal);
  }
}
