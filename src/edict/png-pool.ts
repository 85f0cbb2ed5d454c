// Map PNGs drawn on worker threads, one per core (at most 4): drawing (bench:map) and the
// PNG encoding run on the calling thread (resvg encodes there even in its async API), so at a busy
// deadline the event loop would be the bottleneck (bench:deadline). Workers start on first use; an
// idle one never keeps the process alive.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../worker-spawn.ts';
import type { MapLayers } from './map-svg.ts';

/** A whole SVG (renderMapPng), or maps as bands drawn together (renderMapPngs: an edict's languages). */
type Work = { svg: string } | { maps: readonly MapLayers[] };

interface Job {
  work: Work;
  resolve(pngs: Buffer[]): void;
  reject(err: Error): void;
}

export class PngPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private started = 0;
  private seq = 0;

  constructor(private readonly size = Math.max(1, Math.min(4, availableParallelism()))) {}

  async render(svg: string): Promise<Buffer> {
    return (await this.run({ svg }))[0]!;
  }

  /** The PNGs of maps given as bands, in one worker, so that what they share is drawn once. */
  renderLayers(maps: readonly MapLayers[]): Promise<Buffer[]> {
    return this.run({ maps });
  }

  private run(work: Work): Promise<Buffer[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      this.pump();
    });
  }

  /** Ends the workers; maps not yet drawn fail. The pool starts new workers if asked again. */
  async close(): Promise<void> {
    const all = [...this.idle, ...this.busy.keys()];
    const unfinished = [...this.busy.values(), ...this.queue];
    this.idle.length = 0;
    this.busy.clear();
    this.queue.length = 0;
    this.started = 0;
    for (const job of unfinished) job.reject(new Error('the map pool was closed'));
    await Promise.all(all.map((w) => w.terminate()));
  }

  private pump(): void {
    while (this.queue.length) {
      let w = this.idle.pop();
      if (!w && this.started < this.size) w = this.start();
      if (!w) return;
      const job = this.queue.shift()!;
      this.busy.set(w, job);
      w.ref(); // a map being drawn keeps the process alive until it is done, an idle worker does not
      w.postMessage({ id: ++this.seq, ...job.work });
    }
  }

  private start(): Worker {
    this.started++;
    const w = spawnWorker(import.meta.url, 'png.worker');
    w.on('message', (m: { pngs?: Uint8Array[]; error?: string }) => {
      const job = this.busy.get(w);
      if (!job) return; // an answer that arrives after close(): the worker is being ended
      this.busy.delete(w);
      w.unref();
      this.idle.push(w);
      if (m.pngs) job.resolve(m.pngs.map((png) => Buffer.from(png.buffer, png.byteOffset, png.byteLength)));
      else job.reject(new Error(m.error ?? 'the map could not be drawn'));
      this.pump();
    });
    w.on('error', (err) => {
      // A worker that dies fails its map (the edict goes without one) and is replaced on demand.
      const job = this.busy.get(w);
      if (!job && !this.idle.includes(w)) return; // ended by close(), already forgotten
      this.busy.delete(w);
      const at = this.idle.indexOf(w);
      if (at >= 0) this.idle.splice(at, 1);
      this.started--;
      job?.reject(err);
      this.pump();
    });
    // After the listeners: adding a 'message' listener refs the worker's channel again, and an idle
    // pool that kept the process alive would stop it exiting on SIGTERM once a map was drawn.
    w.unref();
    return w;
  }
}

const shared = new PngPool();

/** A map's PNG, drawn on the shared pool. */
export function renderMapPngOffThread(svg: string): Promise<Buffer> {
  return shared.render(svg);
}

/** The PNGs of maps given as bands (an edict's languages), drawn together on the shared pool. */
export function renderMapPngsOffThread(maps: readonly MapLayers[]): Promise<Buffer[]> {
  return shared.renderLayers(maps);
}

/**
 * Ends the shared pool's workers (a process that stops: the service, a CLI command that is done);
 * close() leaves the pool ready to start workers again if a later map asks.
 */
export function closeMapPool(): Promise<void> {
  return shared.close();
}
