// A bounce recorded against the mail it is about: that outbox mail becomes `failed` with
// the report's reason, and its address shows among the referee's bouncing addresses. Anyone can
// write a report to the orders address, so what one report can do is bounded:
// - only mail already handed to the mail server (`sent`) is ever marked: a bounce cannot stop a
//   mail that is still to be sent, or any later one;
// - by address, only mail created in the last BOUNCE_WINDOW_MS, and only when exactly one address
//   we mailed matches (each of our mails has one recipient, so a real report names one); then
//   only the newest mail to it, so repeating a forged report marks nothing more;
// - only a permanent failure (5.x.x) marks anything.
// The worst a forger can do is put one address on the referee's list with a reason that says how
// it was matched; no player is cut off by it.
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { outbox } from './schema.ts';

export type BounceSeverity = 'permanent' | 'transient' | 'unknown';

export interface Bounce {
  /** Our Message-IDs the report names, bare (as the outbox stores them). */
  messageIds: string[];
  /** The recipients its machine-readable part names as failed, lower-case. */
  recipients: string[];
  /** The addresses in its human-readable text, lower-case: a last resort (src/db/bounces.ts bounds it). */
  mentioned: string[];
  /** 5.x.x permanent, 4.x.x transient; unknown when the report gives no class (never marks). */
  severity: BounceSeverity;
  /** `Status: 5.1.1` and the diagnostic, as the report gives them, for the referee. */
  reason: string;
}

/** How far back a report may be about: MTAs retry for up to 5 days (Postfix, Sendmail) before bouncing. */
export const BOUNCE_WINDOW_MS = 7 * 86_400_000;

export type BounceMatch = 'message-id' | 'recipient' | 'mentioned';

export interface BounceRecord {
  /** The outbox mails marked failed. */
  marked: number[];
  /** How the mail was found; null when nothing was marked. */
  by: BounceMatch | null;
  /** Why nothing was marked, for the log. */
  skipped?: 'not permanent' | 'not sent' | 'no mail of ours' | 'ambiguous' | 'already failed';
}

export async function recordBounce(db: Db, bounce: Bounce): Promise<BounceRecord> {
  if (bounce.severity !== 'permanent') return { marked: [], by: null, skipped: 'not permanent' };
  if (bounce.messageIds.length) {
    const known = await db
      .select({ id: outbox.id, status: outbox.status })
      .from(outbox)
      .where(inArray(outbox.messageId, bounce.messageIds));
    if (known.length) {
      // The report names the very mail: only it may be marked, and only once it was sent.
      const sent = known.filter((m) => m.status === 'sent').map((m) => m.id);
      if (sent.length === 0) return { marked: [], by: null, skipped: 'not sent' };
      await db
        .update(outbox)
        .set({ status: 'failed', lastError: bounce.reason.slice(0, 2000) })
        .where(and(inArray(outbox.id, sent), eq(outbox.status, 'sent')));
      return { marked: sent, by: 'message-id' };
    }
    // A Message-ID at our domain that we never used: the report may still name the recipient.
  }
  for (const [by, addresses] of [
    ['recipient', bounce.recipients],
    ['mentioned', bounce.mentioned],
  ] as const) {
    if (addresses.length === 0) continue;
    const r = await markNewestTo(db, addresses, bounce.reason, by);
    // Ambiguous recipients are not resolved by the looser human text.
    if (r.by || r.skipped !== 'no mail of ours') return r;
  }
  return { marked: [], by: null, skipped: 'no mail of ours' };
}

async function markNewestTo(db: Db, addresses: readonly string[], reason: string, by: 'recipient' | 'mentioned'): Promise<BounceRecord> {
  const wanted = new Set(addresses.map((a) => a.toLowerCase()));
  // Stored addresses keep the case a player typed: ask for both spellings, so the recipient index answers.
  const spellings = [...new Set([...addresses, ...wanted])];
  const rows = await db
    .select({ id: outbox.id, to: outbox.toAddress, status: outbox.status })
    .from(outbox)
    .where(
      and(
        inArray(outbox.toAddress, spellings),
        gte(outbox.createdAt, sql`now() - make_interval(secs => ${BOUNCE_WINDOW_MS / 1000})`),
        inArray(outbox.status, ['sent', 'failed']),
      ),
    )
    .orderBy(desc(outbox.createdAt), desc(outbox.id));
  const matched = rows.filter((r) => wanted.has(r.to.toLowerCase()));
  const distinct = new Set(matched.map((r) => r.to.toLowerCase()));
  if (distinct.size === 0) return { marked: [], by: null, skipped: 'no mail of ours' };
  if (distinct.size > 1) return { marked: [], by: null, skipped: 'ambiguous' };
  const newest = matched[0]!;
  if (newest.status !== 'sent') return { marked: [], by: null, skipped: 'already failed' };
  const how = by === 'recipient' ? 'matched by the recipient the report names' : 'matched by an address in the report text';
  await db
    .update(outbox)
    .set({ status: 'failed', lastError: `${reason} [${how}]`.slice(0, 2000) })
    .where(and(eq(outbox.id, newest.id), eq(outbox.status, 'sent')));
  return { marked: [newest.id], by };
}
