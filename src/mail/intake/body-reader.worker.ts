// The worker of body-reader.ts: reads one mail at a time with the same extractMail as ever, off
// the event loop that serves intake and HTTP. Its time and memory are the parent's to limit.
import { parentPort } from 'node:worker_threads';
import { extractMail, type ExtractOptions } from '../read/extract.ts';

export interface ReadRequest {
  id: number;
  raw: Uint8Array;
  options: ExtractOptions;
}

const port = parentPort!;
port.on('message', (m: ReadRequest) => {
  extractMail(Buffer.from(m.raw.buffer, m.raw.byteOffset, m.raw.byteLength), m.options).then(
    (mail) => port.postMessage({ id: m.id, mail }),
    (err: unknown) => port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
port.postMessage({ ready: true });
