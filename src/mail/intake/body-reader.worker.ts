// The worker of body-reader.ts: reads the mails of a request one at a time, in order, with the same
// extractMail as ever, off the event loop that serves intake and HTTP, and answers them together.
// Its time and memory are the parent's to limit.
import { parentPort } from 'node:worker_threads';
import { extractMail, type ExtractedMail, type ExtractOptions } from '../read/extract.ts';

export interface ReadRequest {
  id: number;
  raws: Uint8Array[];
  options: ExtractOptions;
}

export type ReadReply = { ready: true } | { id: number; reads: Array<{ mail: ExtractedMail } | { error: string }> };

const port = parentPort!;
port.on('message', (m: ReadRequest) => {
  void (async () => {
    const reads: Array<{ mail: ExtractedMail } | { error: string }> = [];
    for (const raw of m.raws) {
      reads.push(
        await extractMail(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), m.options).then(
          (mail) => ({ mail }),
          (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }),
        ),
      );
    }
    port.postMessage({ id: m.id, reads } satisfies ReadReply);
  })();
});
port.postMessage({ ready: true } satisfies ReadReply);
