// Argon2 on a thread of its own whose OS priority is the least (hash.worker.ts). On the libuv pool
// (the library's async calls) a flood of logins took a core at the priority of the thread that
// serves the public pages, on a machine whose two cores are shared: their p99 rose with it
// (bench:http's login flood). The HashingQueue in front bounds how many wait; this thread takes
// them one at a time. It starts on first use; idle, it never keeps the process alive.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../worker-spawn.ts';
import type { HashAnswer, HashJob } from './hash.worker.ts';

type Pending = { resolve(value: string | boolean): void; reject(err: Error): void };
type Job = { op: 'hash'; password: string } | { op: 'verify'; stored: string; password: string };

export class HashThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private tid: Promise<number | null> | null = null;

  hash(password: string): Promise<string> {
    return this.send({ op: 'hash', password }) as Promise<string>;
  }

  verify(stored: string, password: string): Promise<boolean> {
    return this.send({ op: 'verify', stored, password }) as Promise<boolean>;
  }

  /** The worker's OS thread id once it runs (null where its priority could not be lowered). */
  threadId(): Promise<number | null> {
    this.start();
    return this.tid!;
  }

  /** Ends the worker; hashes not yet done fail. A later hash starts a new one. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.tid = null;
    this.failAll(new Error('the hashing thread was closed'));
    await w?.terminate();
  }

  private send(job: Job): Promise<string | boolean> {
    const w = this.start();
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.ref(); // a hash under way keeps the process alive until it is done, an idle thread does not
      w.postMessage({ id, ...job } satisfies HashJob);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = spawnWorker(import.meta.url, 'hash.worker');
    this.worker = w;
    let ready!: (tid: number | null) => void;
    this.tid = new Promise((resolve) => (ready = resolve));
    w.on('message', (m: HashAnswer) => {
      if ('ready' in m) return ready(m.tid);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) w.unref();
      if ('error' in m) p.reject(new Error(m.error));
      else p.resolve(m.value);
    });
    w.on('error', (err) => {
      // A thread that dies fails what it had; the next hash starts another.
      if (this.worker !== w) return;
      this.worker = null;
      this.tid = null;
      ready(null);
      this.failAll(err);
    });
    w.on('exit', () => {
      if (this.worker !== w) return;
      this.worker = null;
      this.tid = null;
      this.failAll(new Error('the hashing thread stopped'));
    });
    // After the listeners: adding a 'message' listener refs the worker again.
    w.unref();
    return w;
  }

  private failAll(err: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }
}

const shared = new HashThread();

/** The process's hashing thread (passwords.ts hashes on it). */
export function hashThread(): HashThread {
  return shared;
}

/** Ends the shared hashing thread (a service that stops). */
export function closeHashThread(): Promise<void> {
  return shared.close();
}
