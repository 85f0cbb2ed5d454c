// Imperial Edicts: version 1 is the adjudicated turn; each amendment after a dispute is a new
// version naming what changed and why, and the earlier versions stay in the archive (R-EDICT-3).
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Edict } from '../adjudicator/types.ts';
import type { Db } from './client.ts';
import { edicts } from './schema.ts';

type EdictRow = typeof edicts.$inferSelect;
export type EdictVersion = Omit<EdictRow, 'json'> & { json: Edict };

/** One version of a turn's edict as stored; `json` is the adjudicator's Edict. */
export type NewEdictVersion = Omit<typeof edicts.$inferInsert, 'json'> & { json: Edict };

const asVersion = (row: EdictRow): EdictVersion => ({ ...row, json: row.json as Edict });

/**
 * Stores a version of a turn's edict. The caller holds the turn's lock (closing, amending or
 * re-closing a rolled-back turn), which orders versions; an amendment needs a reason (R-EDICT-3).
 */
export async function insertEdictVersion(tx: Db, values: NewEdictVersion): Promise<EdictVersion> {
  if (values.version > 1 && !values.reason?.trim()) throw new Error('an amended edict needs a reason (R-EDICT-3)');
  const [row] = await tx.insert(edicts).values(values).returning();
  return asVersion(row!);
}

export async function latestEdict(db: Db, gameId: string, turn: number): Promise<EdictVersion | null> {
  const [row] = await db
    .select()
    .from(edicts)
    .where(and(eq(edicts.gameId, gameId), eq(edicts.turn, turn)))
    .orderBy(desc(edicts.version))
    .limit(1);
  return row ? asVersion(row) : null;
}

/** The archive: every version of every edict of a game, by turn then version. */
export async function listEdicts(db: Db, gameId: string): Promise<EdictVersion[]> {
  const rows = await db.select().from(edicts).where(eq(edicts.gameId, gameId)).orderBy(asc(edicts.turn), asc(edicts.version));
  return rows.map(asVersion);
}
