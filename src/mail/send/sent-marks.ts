// Recording as sent the mails the relay took: a few in one statement, without holding up the next
// mail, and kept in memory while the database is away, so that a blip never sends a mail twice.
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { loggableDbError } from '../../db/errors.ts';
import { markSentMany } from '../../db/outbox.ts';

/**
 * Waits between tries to record as sent a mail the relay took, when the database lost its
 * connection: ~15 s in all, well inside the lease, so that a blip never makes the mail due again.
 */
const MARK_RETRY_MS = [250, 1_000, 2_000, 4_000, 8_000];

/**
 * How long a mail the relay took waits for others to be recorded as sent with it, and how many are
 * recorded at most in one statement. One statement a mail cost as much Node CPU as a tenth of the
 * mail's own sending (bench:deadline). A sender killed in this window sends those mails again when
 * their claims run out, with the same Message-IDs: what a kill between the relay's answer and the
 * write did before, and less than a database crash may lose of marks written without waiting for
 * the disk (markSentMany).
 */
const MARK_WITHIN_MS = 20;
const MARK_AT_MOST = 50;

/**
 * Mails the relay took whose "sent" could not be written yet, per database (id → when sent):
 * written before anything else is claimed. A mail the relay took is never sent again by this
 * process; another instance would send it again only once the lease ran out.
 */
const unrecorded = new WeakMap<Db, Map<number, Date>>();

function unrecordedOf(db: Db): Map<number, Date> {
  let m = unrecorded.get(db);
  if (!m) unrecorded.set(db, (m = new Map()));
  return m;
}

/** Records what `unrecorded` keeps; throws while the database is still away. */
export async function recordUnrecorded(db: Db): Promise<void> {
  const left = unrecordedOf(db);
  if (left.size === 0) return;
  await markSentMany(
    db,
    [...left].map(([id, at]) => ({ id, at })),
  );
  left.clear();
}

/** "Sent" written for the mails the relay took, a few at a time (MARK_WITHIN_MS), without holding up the next mail. */
export class SentMarks {
  private waiting: { id: number; at: Date }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly retryMs: readonly number[] = MARK_RETRY_MS,
  ) {}

  add(id: number, at: Date): void {
    this.waiting.push({ id, at });
    if (this.waiting.length >= MARK_AT_MOST) this.write();
    else this.timer ??= setTimeout(() => this.write(), MARK_WITHIN_MS);
  }

  /** Every mark written, or kept in `unrecorded` when the database stayed away. */
  async settled(): Promise<void> {
    this.write();
    while (this.writes.size) await Promise.all(this.writes);
  }

  private write(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const marks = this.waiting;
    this.waiting = [];
    if (!marks.length) return;
    const write = recordSent(this.db, this.log, this.retryMs, marks).finally(() => this.writes.delete(write));
    this.writes.add(write);
  }
}

/** The relay took these mails: "sent" is written however the database blinks (see unrecorded); never throws. */
async function recordSent(db: Db, log: Logger, waits: readonly number[], marks: readonly { id: number; at: Date }[]): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await markSentMany(db, marks);
      return;
    } catch (err) {
      if (i >= waits.length) {
        for (const { id, at } of marks) unrecordedOf(db).set(id, at);
        log.warn(
          { err: loggableDbError(err), outbox: marks.map((m) => m.id) },
          'sent, but the database could not record it: recorded before anything else is sent',
        );
        return;
      }
      await new Promise((r) => setTimeout(r, waits[i]));
    }
  }
}
