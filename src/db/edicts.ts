// Imperial Edicts: version 1 is the adjudicated turn; each amendment after a dispute is a new
// version naming what changed and why, and the earlier versions stay in the archive (R-EDICT-3).
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Edict } from '../adjudicator/types.ts';
import { recordAudit } from './audit.ts';
import type { Db } from './client.ts';
import { edicts } from './schema.ts';
import { lockTurn } from './turns.ts';

type EdictRow = typeof edicts.$inferSelect;
export type EdictVersion = Omit<EdictRow, 'json'> & { json: Edict };

export interface EdictInput {
  gameId: string;
  turn: number;
  json: Edict;
  textIt: string;
  textEn: string;
  /** Required for an amendment (version 2 and later). */
  reason: string | null;
  /** `system` for the adjudicated edict, else the person (their change is audited). */
  createdBy: string;
}

const asVersion = (row: EdictRow): EdictVersion => ({ ...row, json: row.json as Edict });

/** Adds the next version of a turn's edict; null when the turn does not exist. */
export async function addEdictVersion(db: Db, input: EdictInput): Promise<EdictVersion | null> {
  return db.transaction(async (tx) => {
    // The turn's lock orders concurrent amendments so version numbers never collide.
    if (!(await lockTurn(tx, input.gameId, input.turn))) return null;
    const previous = await latestEdict(tx, input.gameId, input.turn);
    const version = (previous?.version ?? 0) + 1;
    if (version > 1 && !input.reason?.trim()) throw new Error('an amended edict needs a reason (R-EDICT-3)');
    const [row] = await tx
      .insert(edicts)
      .values({ ...input, version })
      .returning();
    if (input.createdBy !== 'system') {
      await recordAudit(tx, {
        actor: input.createdBy,
        gameId: input.gameId,
        action: version === 1 ? 'edict.publish' : 'edict.amend',
        detail: { turn: input.turn, version, reason: input.reason },
      });
    }
    return asVersion(row!);
  });
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
  const rows = await db
    .select()
    .from(edicts)
    .where(eq(edicts.gameId, gameId))
    .orderBy(asc(edicts.turn), asc(edicts.version));
  return rows.map(asVersion);
}
