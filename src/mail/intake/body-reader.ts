// Reading a mail's body in a worker thread with a time and a memory budget: whatever a
// body does to the readers, it cannot hold up the event loop that serves intake and HTTP, nor
// exhaust the process. A mail over budget has its worker ended (and a new one started for the
// mails after it) and is reported, never retried for ever.
//
// Mails travel to the worker a group at a time, one message each way for the group: a message per
// mail each way cost more than reading a small mail (bench:ingest). A group over budget
// says nothing about which of its mails is to blame, so its mails are read again one by one,
// each with the whole budget: only a mail over budget on its own is reported.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../../worker-spawn.ts';
import type { ExtractedMail, ExtractOptions } from '../read/extract.ts';
import type { ReadReply, ReadRequest } from './body-reader.worker.ts';

export interface BodyBudget {
  /** Wall time for one mail (or one group of mails), from when the worker takes it. */
  timeMs: number;
  /** V8 old-generation heap of the worker, in MB. */
  heapMb: number;
}

/** Generous: the readers are linear, so a 10 MB mail takes a few seconds at worst on a busy machine. */
export const DEFAULT_BODY_BUDGET: BodyBudget = { timeMs: 30_000, heapMb: 512 };

/**
 * Mails are grouped up to this many bytes (a larger one goes alone): a few thousand ordinary
 * mails, read well within the budget that a single mail gets.
 */
export const GROUP_BYTES = 1024 * 1024;

export type BodyFailure = 'time' | 'memory' | 'crashed';
type Failed = { ok: false; failure: BodyFailure; detail: string };
export type BodyRead = { ok: true; mail: ExtractedMail } | Failed;

/** The reader's worker, with its memory budget. */
function spawn(budget: BodyBudget): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: budget.heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, budget.heapMb >> 3)) };
  return spawnWorker(import.meta.url, 'body-reader.worker', { resourceLimits });
}

/** Consecutive mails, `limit` bytes at most a group (a larger mail alone). */
function groupsOf(raws: readonly Uint8Array[], limit: number): Uint8Array[][] {
  const groups: Uint8Array[][] = [];
  let bytes = Infinity;
  for (const raw of raws) {
    if (bytes + raw.byteLength > limit) {
      groups.push([]);
      bytes = 0;
    }
    groups[groups.length - 1]!.push(raw);
    bytes += raw.byteLength;
  }
  return groups;
}

export class BodyReader {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private line: Promise<unknown> = Promise.resolve();
  private seq = 0;

  constructor(
    private readonly budget: BodyBudget = DEFAULT_BODY_BUDGET,
    private readonly groupBytes = GROUP_BYTES,
  ) {}

  /** Reads one mail; see readMany. Never rejects. */
  async read(raw: Uint8Array, options: ExtractOptions): Promise<BodyRead> {
    return (await this.readMany([raw], options))[0]!;
  }

  /** Reads mails one after the other, in the order given (and after those asked before). Never rejects. */
  readMany(raws: readonly Uint8Array[], options: ExtractOptions): Promise<BodyRead[]> {
    const done = this.line.then(async () => {
      const reads: BodyRead[] = [];
      for (const group of groupsOf(raws, this.groupBytes)) {
        const together = await this.readNow(group, options);
        if (Array.isArray(together)) reads.push(...together);
        else if (group.length === 1) reads.push(together);
        else for (const raw of group) reads.push(await this.readAlone(raw, options));
      }
      return reads;
    });
    this.line = done;
    return done;
  }

  /** Ends the worker (the reader starts a new one if asked again). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const w = spawn(this.budget);
      w.unref(); // an idle reader never keeps the process alive
      this.worker = w;
      // Always listened to (an unheard 'error' would end the process); a dead worker is replaced at the next read.
      const forget = () => {
        if (this.worker === w) {
          this.worker = null;
          this.ready = null;
        }
      };
      w.on('error', forget);
      w.on('exit', forget);
      const onMessage = (m: ReadReply) => {
        if ('ready' in m) {
          w.off('message', onMessage);
          w.off('error', onError);
          resolve(w);
        }
      };
      const onError = (err: Error) => reject(err);
      w.on('message', onMessage);
      w.once('error', onError);
    });
    return this.ready;
  }

  private async readAlone(raw: Uint8Array, options: ExtractOptions): Promise<BodyRead> {
    const read = await this.readNow([raw], options);
    return Array.isArray(read) ? read[0]! : read;
  }

  /** One request: a read for each mail, or why the request as a whole failed (the worker is then ended). */
  private async readNow(raws: Uint8Array[], options: ExtractOptions): Promise<BodyRead[] | Failed> {
    let w: Worker;
    try {
      w = await this.start();
    } catch (err) {
      return { ok: false, failure: 'crashed', detail: `the reader could not start: ${(err as Error).message}` };
    }
    const id = ++this.seq;
    return new Promise<BodyRead[] | Failed>((resolve) => {
      const finish = (r: BodyRead[] | Failed) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (!Array.isArray(r) && this.worker === w) void this.close();
        resolve(r);
      };
      const onMessage = (m: ReadReply) => {
        if ('ready' in m || m.id !== id) return;
        finish(m.reads.map((r) => ('error' in r ? { ok: false, failure: 'crashed', detail: r.error } : { ok: true, mail: r.mail })));
      };
      const onError = (err: Error & { code?: string }) => {
        const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish({ ok: false, failure: memory ? 'memory' : 'crashed', detail: err.message });
      };
      const onExit = (code: number) => finish({ ok: false, failure: 'crashed', detail: `the reader stopped (exit code ${code})` });
      const timer = setTimeout(() => finish({ ok: false, failure: 'time', detail: `over ${this.budget.timeMs} ms` }), this.budget.timeMs);
      w.on('message', onMessage);
      w.once('error', onError);
      w.once('exit', onExit);
      // Copies, handed over rather than cloned again: the caller keeps its bytes (they may be a
      // view into a larger buffer).
      const copies = raws.map((raw) => new Uint8Array(raw));
      const request: ReadRequest = { id, raws: copies, options };
      w.postMessage(
        request,
        copies.map((c) => c.buffer),
      );
    });
  }
}
