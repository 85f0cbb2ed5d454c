// How intake reads a batch of stored mail: the headers first, for everyone — who wrote,
// to which address, for which game, whether a robot did — and the body only of mail whose sender
// is a registered player, since nothing a stranger writes in a body changes what we do with it
// (we do not answer strangers, and a code is looked for in the addresses). So a stranger's body
// costs nothing. A player's body is read, in a worker with a budget when intake has one
// (body-reader.ts); a body over the budget is reported in `bodyFailure`, and answered as such.
// Who wrote is read first, alone: a player's mail is then read once, whole, by the reader, and
// only the others have their headers read here. (Reading every head here, then players' again in
// the worker, took a fifth of the event loop's time per mail.)
import type { Db } from '../../db/client.ts';
import { readableSenders } from '../../db/players.ts';
import { addresses, header, readHead } from '../read/extract-headers.ts';
import { extractMail, type ExtractedMail, type ExtractOptions } from '../read/extract.ts';
import type { BodyFailure, BodyRead, BodyReader } from './body-reader.ts';
import { fingerprint } from './echo-guard.ts';

export interface ReadMail extends ExtractedMail {
  /** Set when the body could not be read within its budget: the mail is answered, not read. */
  bodyFailure?: { failure: BodyFailure; detail: string };
  /** The fingerprint of its sheet text (echo-guard.ts), taken while reading, ahead of deciding. */
  echoPrint: string;
}

/**
 * The From address as extractMail reads it (the same parser; a NUL is dropped by it too), or null
 * when the head cannot be read, as extractMail then answers.
 */
function senderOf(raw: Buffer): string | null {
  try {
    return addresses(header(readHead(raw), 'from'))[0]?.address.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

// maxBytes -1: every mail is "too large", so only its headers are read (D-MAIL-12's path).
const headOf = (raw: Buffer, options: ExtractOptions) => extractMail(raw, { ...options, maxBytes: -1 });

export async function readMails(db: Db, raws: Buffer[], options: ExtractOptions, reader: BodyReader | null): Promise<ReadMail[]> {
  const fits = (raw: Buffer) => raw.byteLength <= options.maxBytes;
  const senders = raws.map(senderOf);
  // Referees' mail is read too: they answer players' messages by replying to them (D-PRESS-4).
  const players = await readableSenders(
    db,
    senders.flatMap((s) => (s ? [s] : [])),
  );
  // A player's mail is read whole (automatic mail too: the reader then skips its body, as the
  // head-only read does); the others by their headers.
  const heads = await Promise.all(raws.map((raw, i) => (fits(raw) && senders[i] && players.has(senders[i]) ? null : headOf(raw, options))));
  const whole = raws.filter((_, i) => !heads[i]);
  // One request for the batch's bodies: the worker reads them one at a time anyway.
  const bodies = reader ? await reader.readMany(whole, options) : await readInProcess(whole, options);
  let next = 0;
  const read: Array<Omit<ReadMail, 'echoPrint'>> = [];
  for (const [i, raw] of raws.entries()) {
    const head = heads[i];
    if (head) {
      read.push({ ...head, oversized: !fits(raw) });
      continue;
    }
    const body = bodies[next++]!;
    read.push(
      body.ok
        ? body.mail
        : { ...(await headOf(raw, options)), oversized: false, bodyFailure: { failure: body.failure, detail: body.detail } },
    );
  }
  return read.map((m) => Object.assign(m, { echoPrint: fingerprint(m.sheetText) }));
}

/** Without a reader (tests, `sf ingest`): read here, one after the other (reading is CPU). */
async function readInProcess(raws: Buffer[], options: ExtractOptions): Promise<BodyRead[]> {
  const reads: BodyRead[] = [];
  for (const raw of raws) reads.push({ ok: true, mail: await extractMail(raw, options) });
  return reads;
}
