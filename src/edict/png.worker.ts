// The worker of png-pool.ts: draws one map PNG at a time (resvg: layout, raster and PNG encoding
// all here), so that a thousand edicts due at once keep every core busy and the event loop free.
import { parentPort } from 'node:worker_threads';
import { renderMapPng } from './map-png.ts';

const port = parentPort!;
port.on('message', (m: { id: number; svg: string }) => {
  try {
    const png = renderMapPng(m.svg);
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    port.postMessage({ id: m.id, png: bytes }, [bytes.buffer as ArrayBuffer]);
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
