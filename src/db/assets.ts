// Files attached to outgoing mail (an edict's map and JSON): stored once, whatever the number of
// recipients, and found again by their content, so closing a turn twice never stores them twice.
import { createHash } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db } from './client.ts';
import { mailAssets } from './schema.ts';

export type MailAsset = typeof mailAssets.$inferSelect;

/** What an outbox row says about one of its files; the bytes stay in mail_assets. */
export interface AttachmentRef {
  assetId: number;
  filename: string;
  contentType: string;
  /** Content-ID, for a file the HTML part shows inline (`cid:`). */
  cid?: string;
}

/** Stores the bytes unless the same bytes are there already; returns the asset's id. */
export async function putAsset(db: Db, contentType: string, bytes: Buffer): Promise<number> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const [row] = await db
    .insert(mailAssets)
    .values({ sha256, contentType, bytes })
    .onConflictDoUpdate({ target: mailAssets.sha256, set: { sha256 } })
    .returning({ id: mailAssets.id });
  return row!.id;
}

export async function findAssets(db: Db, ids: readonly number[]): Promise<Map<number, MailAsset>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(mailAssets).where(inArray(mailAssets.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}
