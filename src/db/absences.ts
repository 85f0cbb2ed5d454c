// Absences players announced (D-ABS-1): the rows, and the mails intake accepted as one but not yet
// recorded. What an absence does to a deadline is src/games/absence-record.ts.
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { absences, inboundMessages } from './schema.ts';

export type Absence = typeof absences.$inferSelect;
export type NewAbsence = typeof absences.$inferInsert;

/** Mails intake accepted as an absence (outcome `absence`) that no absence row records yet, at most `limit`. */
export async function unrecordedAbsenceMail(
  db: Db,
  limit: number,
): Promise<Array<{ id: number; gameId: string | null; playerId: number | null; detail: unknown }>> {
  return db
    .select({
      id: inboundMessages.id,
      gameId: inboundMessages.gameId,
      playerId: inboundMessages.playerId,
      detail: inboundMessages.outcomeDetail,
    })
    .from(inboundMessages)
    .leftJoin(absences, eq(absences.inboundId, inboundMessages.id))
    .where(and(eq(inboundMessages.outcome, 'absence'), isNull(absences.id)))
    .limit(limit);
}

/** Stores one absence; a second row for the same mail fails on the unique index (23505). */
export async function insertAbsence(db: Db, absence: NewAbsence): Promise<void> {
  await db.insert(absences).values(absence);
}

/** Every absence of a game, past ones included: the limits count them all. */
export async function absencesOfGame(db: Db, gameId: string): Promise<Absence[]> {
  return db.select().from(absences).where(eq(absences.gameId, gameId));
}

/**
 * A player's absences not over by `today` end on `yesterday` (YYYY-MM-DD): one not begun shrinks
 * to that day.
 */
export async function endAbsencesOf(db: Db, playerId: number, today: string, yesterday: string): Promise<void> {
  await db
    .update(absences)
    .set({ fromDay: sql`least(${absences.fromDay}, ${yesterday})`, toDay: yesterday })
    .where(and(eq(absences.playerId, playerId), gte(absences.toDay, today)));
}
