// The worker of png-pool.ts: draws one map PNG at a time (resvg: layout, raster and PNG encoding
// all here), so that a thousand edicts due at once keep every core busy and the event loop free.
import { parentPort } from 'node:worker_threads';
import { renderMapPng } from './map-png.ts';

const port = parentPort!;
port.on('message', (m: { id: number; svg: string }) => {
  try {
    const png = renderMapPng(m.svg);
    // A Buffer's memory may be Node's shared pool, which cannot be transferred (Node 22+ refuses
    // it): the PNG is copied once into memory of its own, which moves to the caller without a copy.
    const bytes = new Uint8Array(png.byteLength);
    bytes.set(png);
    port.postMessage({ id: m.id, png: bytes }, [bytes.buffer]);
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
