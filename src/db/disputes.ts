// Disputes of an edict (R-TURN-2 step 5, docs/press.md §5): taken from a player's mail, settled by
// a referee (amended or rejected), or lapsed when the next turn closes (D-PRESS-15).
import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { disputes } from './schema.ts';

export type Dispute = typeof disputes.$inferSelect;
export type NewDispute = Omit<
  typeof disputes.$inferInsert,
  'id' | 'status' | 'settledAt' | 'settledBy' | 'settlementReason' | 'amendedVersion'
>;

/** Stores a dispute; the same (mail, block) again returns the stored one (`duplicate`): a mail is applied once. */
export async function insertDispute(db: Db, d: NewDispute): Promise<{ dispute: Dispute; duplicate: boolean }> {
  const [row] = await db
    .insert(disputes)
    .values(d)
    .onConflictDoNothing({ target: [disputes.inboundId, disputes.block] })
    .returning();
  if (row) return { dispute: row, duplicate: false };
  if (d.inboundId == null) throw new Error('a dispute without a mail cannot conflict');
  const [seen] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.inboundId, d.inboundId), eq(disputes.block, d.block ?? 0)));
  if (!seen) throw new Error(`dispute ${d.inboundId}/${d.block} conflicted but cannot be found`);
  return { dispute: seen, duplicate: true };
}

/** The game's open disputes, of one turn or of all, oldest first: the console's list. */
export async function openDisputes(db: Db, gameId: string, turn?: number): Promise<Dispute[]> {
  return db
    .select()
    .from(disputes)
    .where(and(eq(disputes.gameId, gameId), turn === undefined ? undefined : eq(disputes.turn, turn), eq(disputes.status, 'open')))
    .orderBy(asc(disputes.turn), asc(disputes.receivedAt), asc(disputes.id));
}

/** The dispute a mail's block made, if any: taking the same mail again finds it (a mail is applied once). */
export async function disputeOfMail(db: Db, inboundId: number, block: number): Promise<Dispute | null> {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.inboundId, inboundId), eq(disputes.block, block)));
  return row ?? null;
}

/** Every dispute of the game, the open ones first, then by turn and arrival: the console's list. */
export async function gameDisputes(db: Db, gameId: string): Promise<Dispute[]> {
  return db
    .select()
    .from(disputes)
    .where(eq(disputes.gameId, gameId))
    .orderBy(desc(sql`${disputes.status} = 'open'`), asc(disputes.turn), asc(disputes.receivedAt), asc(disputes.id));
}

export async function findDispute(db: Db, id: number): Promise<Dispute | null> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
  return row ?? null;
}

/** Whether a dispute is open on the turn: the game page says so, never who or why (D-PRESS-16). */
export async function hasOpenDispute(db: Db, gameId: string, turn: number): Promise<boolean> {
  const [row] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(eq(disputes.gameId, gameId), eq(disputes.turn, turn), eq(disputes.status, 'open')))
    .limit(1);
  return row !== undefined;
}

/** The player's disputes of the turn, whatever became of them: at most 3 (D-PRESS-14). */
export async function countDisputes(db: Db, gameId: string, turn: number, playerId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(disputes)
    .where(and(eq(disputes.gameId, gameId), eq(disputes.turn, turn), eq(disputes.playerId, playerId)));
  return row?.n ?? 0;
}

export type Settlement = { status: 'rejected'; reason: string } | { status: 'amended'; version: number; reason?: string | null };

/**
 * A referee settles an open dispute: rejected with a reason, or amended by an edict version. Null
 * when it is not open (settled already, or lapsed): a dispute is settled once.
 */
export async function settleDispute(db: Db, id: number, s: Settlement, by: string, at: Date = new Date()): Promise<Dispute | null> {
  if (s.status === 'rejected' && !s.reason.trim()) throw new Error('a rejected dispute needs a reason');
  const [row] = await db
    .update(disputes)
    .set({
      status: s.status,
      settledAt: at,
      settledBy: by,
      settlementReason: s.reason ?? null,
      amendedVersion: s.status === 'amended' ? s.version : null,
    })
    .where(and(eq(disputes.id, id), eq(disputes.status, 'open')))
    .returning();
  return row ?? null;
}

/** The next turn closed: disputes still open on turns before `beforeTurn` lapse, the edict stands (D-PRESS-15); returns them, to tell the disputers. */
export async function lapseDisputes(db: Db, gameId: string, beforeTurn: number, at: Date = new Date()): Promise<Dispute[]> {
  return db
    .update(disputes)
    .set({ status: 'lapsed', settledAt: at, settledBy: 'system' })
    .where(and(eq(disputes.gameId, gameId), lt(disputes.turn, beforeTurn), eq(disputes.status, 'open')))
    .returning();
}
