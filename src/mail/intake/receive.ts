// The two steps every mail goes through: store it durably (before anything else happens, so
// nothing is ever lost), then process it. A mail that fails processing stays pending in the
// database and is retried by the sweep; the mail source may move on once it is stored.
import type { InboundSource } from '../../db/inbound.ts';
import { loggableDbError } from '../../db/errors.ts';
import { listPendingInbound, noteProcessingFailure, storeInboundBatch } from '../../db/inbound.ts';
import { processInboundBatch, type IntakeDeps, type IntakeResult, type ReadBatch, type StoredMail } from './process-inbound.ts';

export interface ArrivedMail {
  raw: Buffer;
  source: InboundSource;
  sourceKey: string;
  receivedAt: Date;
}

export interface Received {
  id: number;
  duplicate: boolean;
  /** Null when processing failed: the mail stays pending and the sweep retries it. */
  result: IntakeResult | null;
}

/** Store, then process. Throws only when the mail could not be stored (the source retries it). */
export async function receiveMail(deps: IntakeDeps, mail: ArrivedMail): Promise<Received> {
  return (await receiveMails(deps, [mail]))[0]!;
}

/**
 * receiveMail for a batch: stored (a throw means not all were, and the source retries the batch,
 * which the store dedupes), then processed together.
 */
export async function receiveMails(deps: IntakeDeps, mails: ArrivedMail[]): Promise<Received[]> {
  const items = await storeMails(deps, mails);
  const results = await processStored(deps, items);
  return items.map((s, i) => ({ id: s.id, duplicate: s.duplicate, result: results[i]! }));
}

/** The first step alone: stored (see storeInboundBatch), ready for processStored. */
export async function storeMails(deps: IntakeDeps, mails: ArrivedMail[]): Promise<Array<StoredMail & { duplicate: boolean }>> {
  const stored = await storeInboundBatch(deps.db, mails).catch((err: unknown) => {
    throw loggableDbError(err); // the source logs it: not with every mail of the batch in it
  });
  // A duplicate may be processed already: only a fresh row skips the read-back.
  return stored.map((s, i) => (s.duplicate ? s : { ...s, raw: mails[i]!.raw }));
}

/**
 * Processes mail left pending (a crash, a failure), oldest first, a page of `pageSize` at a time
 * until none is left: the whole backlog of a restart is read before any mail fetched after it, so
 * a player's earlier sheet is never read after a later one (D-MAIL-20 would call it superseded).
 * Mail that fails stays pending for the next sweep, tried once in this one.
 * Returns how many were handled.
 */
export async function processPending(deps: IntakeDeps, pageSize = 100): Promise<number> {
  let handled = 0;
  const failed: number[] = []; // tried once in this sweep is enough: each try counts as an attempt
  for (;;) {
    const rows = await listPendingInbound(deps.db, pageSize, failed);
    // Listed as pending: the locked re-check decides.
    const results = await processStored(
      deps,
      rows.map((r) => ({ id: r.id, raw: r.raw })),
    );
    results.forEach((r, i) => (r === null ? failed.push(rows[i]!.id) : handled++));
    if (rows.length < pageSize || results.every((r) => r === null)) return handled;
  }
}

/** SQLSTATEs of failures that are the moment's, not the mail's: not counted as attempts. */
const TRANSIENT = new Set(['40001', '40P01', '55P03', '57014']);

/**
 * One transaction for the whole batch; if it fails, one per mail, so that a mail that cannot be
 * processed (a bug, a constraint) stays pending alone instead of holding up the others.
 * `read`: the batch being read already (IntakeQueue reads ahead); a failed read counts as the
 * batch failing.
 */
export async function processStored(deps: IntakeDeps, items: StoredMail[], read?: Promise<ReadBatch>): Promise<Array<IntakeResult | null>> {
  if (items.length === 0) return [];
  try {
    return await processInboundBatch(deps, items, await read);
  } catch (thrown) {
    const err = loggableDbError(thrown);
    if (items.length === 1) {
      const id = items[0]!.id;
      // A deadlock, a serialisation failure or a lock time-out says nothing about the mail.
      const setAside = TRANSIENT.has((err as { code?: string }).code ?? '')
        ? false
        : await noteProcessingFailure(deps.db, id, err.message, deps.now()).catch(() => false);
      if (setAside)
        deps.log.error({ err, inbound: id }, 'processing failed again; the mail is set aside as unprocessable for the referee (D-MAIL-21)');
      else deps.log.error({ err, inbound: id }, 'processing failed; the mail stays pending and will be retried');
      return [null];
    }
    deps.log.warn({ err, mails: items.length }, 'processing a batch failed; processing its mails one by one');
  }
  // What was read stays read: only a failed read is done again, mail by mail.
  const done = await read?.catch(() => undefined);
  const results: Array<IntakeResult | null> = [];
  for (const [i, item] of items.entries()) {
    const one = done ? Promise.resolve({ raws: [done.raws[i]!], mails: [done.mails[i]!] }) : undefined;
    results.push(...(await processStored(deps, [item], one)));
  }
  return results;
}
