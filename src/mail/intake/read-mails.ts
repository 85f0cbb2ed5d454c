// How intake reads a batch of stored mail (issue 8): the headers first, for everyone — who wrote,
// to which address, for which game, whether a robot did — and the body only of mail whose sender
// is a registered player, since nothing a stranger writes in a body changes what we do with it
// (we do not answer strangers, and a code is looked for in the addresses). So a stranger's body
// costs nothing. A player's body is read, in a worker with a budget when intake has one
// (body-reader.ts); a body over the budget is reported in `bodyFailure`, and answered as such.
import type { Db } from '../../db/client.ts';
import { registeredAddresses } from '../../db/players.ts';
import { extractMail, type ExtractedMail, type ExtractOptions } from '../read/extract.ts';
import type { BodyFailure, BodyReader } from './body-reader.ts';

export interface ReadMail extends ExtractedMail {
  /** Set when the body could not be read within its budget: the mail is answered, not read. */
  bodyFailure?: { failure: BodyFailure; detail: string };
}

export async function readMails(db: Db, raws: Buffer[], options: ExtractOptions, reader: BodyReader | null): Promise<ReadMail[]> {
  // maxBytes -1: every mail is "too large", so only its headers are read (D-MAIL-12's path).
  const heads = await Promise.all(raws.map((raw) => extractMail(raw, { ...options, maxBytes: -1 })));
  const players = await registeredAddresses(db, heads.flatMap((h) => (h.from ? [h.from] : [])));
  const read: ReadMail[] = [];
  // One after the other: the worker reads one mail at a time anyway, and in-process reading is CPU.
  for (const [i, raw] of raws.entries()) {
    const head = heads[i]!;
    const oversized = raw.byteLength > options.maxBytes;
    const worthReading = !head.automatic && !oversized && head.from !== null && players.has(head.from.trim().toLowerCase());
    if (!worthReading) {
      read.push({ ...head, oversized });
      continue;
    }
    if (!reader) {
      read.push(await extractMail(raw, options));
      continue;
    }
    const body = await reader.read(raw, options);
    read.push(body.ok ? body.mail : { ...head, oversized, bodyFailure: { failure: body.failure, detail: body.detail } });
  }
  return read;
}
