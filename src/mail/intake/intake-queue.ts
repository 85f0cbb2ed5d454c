// How the running service takes in mail: a source hands over a batch, the batch is stored at
// once (the source may then move it out of the mailbox), and processing happens behind, one
// batch at a time and in arrival order, while the source fetches and stores the next batch.
// A batch is read (its bodies in the body reader's worker) as soon as the batch before it is
// read, so that reading overlaps the transaction of the batch before instead of waiting for it
// (processing one batch at a time while everything else waited was most of intake's time). At most
// two batches wait behind the one being processed (and the source then waits), so memory stays
// bounded and a slow database slows the source down instead of piling mail up. The sweep of mail
// left pending (a crash, a failure) runs in the same line, so one instance never processes two
// batches at once.
import { loggableDbError } from '../../db/errors.ts';
import { readBatch, type IntakeDeps } from './process-inbound.ts';
import { processPending, processStored, storeMails, type ArrivedMail, type Received } from './receive.ts';

export class IntakeQueue {
  private tail: Promise<void> = Promise.resolve();
  private reading: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly deps: IntakeDeps) {}

  /**
   * Stores the mails (a throw means some were not stored, and the source keeps them all: the
   * store dedupes), then queues their processing. Resolves once stored and the queue has room.
   */
  async accept(mails: ArrivedMail[]): Promise<void> {
    const items = await storeMails(this.deps, mails);
    // Pure and lock-free, so reading early changes nothing; a failed read fails the batch as a
    // failed transaction does (processStored then goes mail by mail).
    const read = this.reading.then(() => readBatch(this.deps, items));
    this.reading = read.catch(() => undefined);
    const before = this.tail;
    this.run(async () => void (await processStored(this.deps, items, read)));
    // With two batches ahead of ours, wait until the one just before ours is done: ours is then in
    // progress while the source fetches the next one.
    if (this.waiting > 2) await before;
  }

  /** One mail handed in by hand (`sf ingest`): stored, processed in line with the batches, and what became of it. */
  async receive(mail: ArrivedMail): Promise<Received> {
    const [item] = await storeMails(this.deps, [mail]);
    let result: Received['result'] = null;
    await this.run(async () => {
      result = (await processStored(this.deps, [item!]))[0] ?? null;
    });
    return { id: item!.id, duplicate: item!.duplicate, result };
  }

  /** Processes everything still pending in the database, in line with the batches. */
  sweep(pageSize?: number): Promise<void> {
    return this.run(async () => void (await processPending(this.deps, pageSize)));
  }

  /** Resolves when everything accepted so far has been processed. */
  idle(): Promise<void> {
    return this.tail;
  }

  private run(step: () => Promise<void>): Promise<void> {
    this.waiting++;
    const done = this.tail
      .then(step)
      .catch((err: unknown) => {
        // Only a database failure gets here (processing failures are caught per mail): the mail
        // stays pending and the next sweep retries it.
        this.deps.log.error({ err: loggableDbError(err) }, 'intake step failed; pending mail is retried by the sweep');
      })
      .finally(() => this.waiting--);
    this.tail = done;
    return done;
  }
}
