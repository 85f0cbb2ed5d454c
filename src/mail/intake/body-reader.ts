// Reading a mail's body in a worker thread with a time and a memory budget (issue 8): whatever a
// body does to the readers, it cannot hold up the event loop that serves intake and HTTP, nor
// exhaust the process. One worker reads one mail at a time; a mail over budget has its worker
// ended (and a new one started for the next mail) and is reported, never retried for ever.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../../worker-spawn.ts';
import type { ExtractedMail, ExtractOptions } from '../read/extract.ts';
import type { ReadRequest } from './body-reader.worker.ts';

export interface BodyBudget {
  /** Wall time for one mail, from when the worker takes it. */
  timeMs: number;
  /** V8 old-generation heap of the worker, in MB. */
  heapMb: number;
}

/** Generous: the readers are linear, so a 10 MB mail takes a few seconds at worst on a busy machine. */
export const DEFAULT_BODY_BUDGET: BodyBudget = { timeMs: 30_000, heapMb: 512 };

export type BodyFailure = 'time' | 'memory' | 'crashed';
export type BodyRead = { ok: true; mail: ExtractedMail } | { ok: false; failure: BodyFailure; detail: string };

type Reply = { ready: true } | { id: number; mail: ExtractedMail } | { id: number; error: string };

/** The reader's worker, with its memory budget. */
function spawn(budget: BodyBudget): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: budget.heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, budget.heapMb >> 3)) };
  return spawnWorker(import.meta.url, 'body-reader.worker', { resourceLimits });
}

export class BodyReader {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private line: Promise<unknown> = Promise.resolve();
  private seq = 0;

  constructor(private readonly budget: BodyBudget = DEFAULT_BODY_BUDGET) {}

  /** Reads one mail; mails are read one after the other, in the order asked. Never rejects. */
  read(raw: Uint8Array, options: ExtractOptions): Promise<BodyRead> {
    const done = this.line.then(() => this.readNow(raw, options));
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
      const onMessage = (m: Reply) => {
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

  private async readNow(raw: Uint8Array, options: ExtractOptions): Promise<BodyRead> {
    let w: Worker;
    try {
      w = await this.start();
    } catch (err) {
      return { ok: false, failure: 'crashed', detail: `the reader could not start: ${(err as Error).message}` };
    }
    const id = ++this.seq;
    return new Promise<BodyRead>((resolve) => {
      const finish = (r: BodyRead, restart: boolean) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (restart && this.worker === w) void this.close();
        resolve(r);
      };
      const onMessage = (m: Reply) => {
        if ('ready' in m || m.id !== id) return;
        if ('error' in m) finish({ ok: false, failure: 'crashed', detail: m.error }, false);
        else finish({ ok: true, mail: m.mail }, false);
      };
      const onError = (err: Error & { code?: string }) => {
        const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish({ ok: false, failure: memory ? 'memory' : 'crashed', detail: err.message }, true);
      };
      const onExit = (code: number) => finish({ ok: false, failure: 'crashed', detail: `the reader stopped (exit code ${code})` }, true);
      const timer = setTimeout(() => finish({ ok: false, failure: 'time', detail: `over ${this.budget.timeMs} ms` }, true), this.budget.timeMs);
      w.on('message', onMessage);
      w.once('error', onError);
      w.once('exit', onExit);
      // A copy: the caller keeps its bytes (they may be a view into a larger buffer).
      const request: ReadRequest = { id, raw: new Uint8Array(raw), options };
      w.postMessage(request);
    });
  }
}
