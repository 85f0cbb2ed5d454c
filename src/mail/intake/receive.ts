// The two steps every mail goes through: store it durably (before anything else happens, so
// nothing is ever lost), then process it. A mail that fails processing stays pending in the
// database and is retried by the sweep; the mail source may move on once it is stored.
import type { InboundSource } from '../../db/inbound.ts';
import { listPendingInbound, storeInbound } from '../../db/inbound.ts';
import { processInbound, type IntakeDeps, type IntakeResult } from './process-inbound.ts';

export interface ArrivedMail {
  raw: Buffer;
  source: InboundSource;
  sourceKey: string;
  receivedAt: Date;
}

export async function storeMail(deps: IntakeDeps, mail: ArrivedMail): Promise<{ id: number; duplicate: boolean }> {
  return storeInbound(deps.db, mail.raw, { source: mail.source, sourceKey: mail.sourceKey, receivedAt: mail.receivedAt });
}

/** Store, then process. Throws only when the mail could not be stored (the source retries it). */
export async function receiveMail(deps: IntakeDeps, mail: ArrivedMail): Promise<{ id: number; duplicate: boolean; result: IntakeResult | null }> {
  const stored = await storeMail(deps, mail);
  try {
    // A duplicate may be processed already: only a fresh row skips the read-back.
    return { ...stored, result: await processInbound(deps, stored.id, stored.duplicate ? undefined : mail.raw) };
  } catch (err) {
    deps.log.error({ err, inbound: stored.id }, 'processing failed; the mail stays pending and will be retried');
    return { ...stored, result: null };
  }
}

/** Processes mail left pending (a crash, a failure): oldest first. Returns how many were handled. */
export async function processPending(deps: IntakeDeps, limit = 100): Promise<number> {
  let done = 0;
  for (const row of await listPendingInbound(deps.db, limit)) {
    try {
      await processInbound(deps, row.id, row.raw); // listed as pending: the locked re-check decides
      done++;
    } catch (err) {
      deps.log.error({ err, inbound: row.id }, 'processing failed again; left pending');
    }
  }
  return done;
}
