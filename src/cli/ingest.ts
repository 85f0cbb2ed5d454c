// `sf ingest <file.eml>`: feeds one mail to intake by hand, as if it had just arrived, and prints
// what became of it. Through the running service (in line with the mail it reads) or, with none,
// on the database directly. Replies go to the outbox like any other.
import { hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { InputError, UsageError } from './args.ts';
import { out, perform, type Leaf } from './command.ts';
import { cannotRead } from './files.ts';

export const ingest: Leaf = {
  spec: {
    name: 'sf ingest',
    summary: 'feed one mail to intake by hand, as if it had just arrived',
    args: '<file.eml>',
    options: {},
    notes: [
      'Prints one JSON line: the inbound id, whether it was a duplicate (the same file twice is taken once),',
      'and what became of it (status, outcome). Replies are queued in the outbox (sf outbox list).',
    ],
    examples: ['sf ingest ./orders.eml'],
  },
  async run(p) {
    if (p.positionals.length !== 1) throw new UsageError('give one mail file: sf ingest <file.eml>');
    const file = p.positionals[0]!;
    const raw = await readFile(file).catch((e: unknown) => {
      throw new InputError(cannotRead(file, e));
    });
    const sourceKey = `cli:${hash('sha256', raw, 'hex')}`;
    const r = await perform('sf ingest', 'mail.ingest', { rawBase64: raw.toString('base64'), sourceKey });
    out(JSON.stringify(r));
    return 0;
  },
};
