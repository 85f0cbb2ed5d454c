// Turns: the position before each turn (the adjudicator's GameState), its deadlines and status.
import { and, asc, eq, or } from 'drizzle-orm';
import type { GameState } from '../adjudicator/types.ts';
import type { Db } from './client.ts';
import { sheets, turns } from './schema.ts';

type TurnRow = typeof turns.$inferSelect;
export type Turn = Omit<TurnRow, 'state'> & { state: GameState };
export type NewTurn = Omit<typeof turns.$inferInsert, 'state'> & { state: GameState };

// jsonb comes back as unknown; the state is only ever written by this module, from a GameState.
const asTurn = (row: TurnRow): Turn => ({ ...row, state: row.state as GameState });

export async function insertTurn(db: Db, turn: NewTurn): Promise<Turn> {
  const [row] = await db.insert(turns).values(turn).returning();
  return asTurn(row!);
}

export async function findTurn(db: Db, gameId: string, number: number): Promise<Turn | null> {
  const [row] = await db
    .select()
    .from(turns)
    .where(and(eq(turns.gameId, gameId), eq(turns.number, number)));
  return row ? asTurn(row) : null;
}

/**
 * The turn row locked until the transaction ends (take the game's lock first: see lockGame, and
 * why NO KEY UPDATE: sheets reference turns).
 */
export async function lockTurn(tx: Db, gameId: string, number: number): Promise<Turn | null> {
  const [row] = await tx
    .select()
    .from(turns)
    .where(and(eq(turns.gameId, gameId), eq(turns.number, number)))
    .for('no key update');
  return row ? asTurn(row) : null;
}

/** lockTurn for several turns, locked in (game, number) order so that concurrent lockers never deadlock. */
export async function lockTurns(tx: Db, wanted: Array<{ gameId: string; number: number }>): Promise<Turn[]> {
  if (wanted.length === 0) return [];
  const rows = await tx
    .select()
    .from(turns)
    .where(or(...wanted.map((w) => and(eq(turns.gameId, w.gameId), eq(turns.number, w.number)))))
    .orderBy(asc(turns.gameId), asc(turns.number))
    .for('no key update');
  return rows.map(asTurn);
}

export async function updateTurn(
  db: Db,
  gameId: string,
  number: number,
  change: Partial<Pick<Turn, 'state' | 'election' | 'status' | 'adjudicatedAt' | 'deadline' | 'declarationDeadline' | 'earlyAt'>>,
): Promise<Turn | null> {
  const [row] = await db
    .update(turns)
    .set(change)
    .where(and(eq(turns.gameId, gameId), eq(turns.number, number)))
    .returning();
  return row ? asTurn(row) : null;
}

/** Every open turn, soonest deadline first: what the turn job looks at (closing, reminders, notices). */
export async function openTurns(db: Db): Promise<Turn[]> {
  const rows = await db.select().from(turns).where(eq(turns.status, 'open')).orderBy(asc(turns.deadline), asc(turns.gameId));
  return rows.map(asTurn);
}

export async function listTurns(db: Db, gameId: string): Promise<Turn[]> {
  const rows = await db.select().from(turns).where(eq(turns.gameId, gameId)).orderBy(asc(turns.number));
  return rows.map(asTurn);
}

/** Deletes a turn and the sheets sent for it (a roll-back: they answered a position that no longer stands). */
export async function deleteTurnAndSheets(tx: Db, gameId: string, number: number): Promise<void> {
  await tx.delete(sheets).where(and(eq(sheets.gameId, gameId), eq(sheets.turn, number)));
  await tx.delete(turns).where(and(eq(turns.gameId, gameId), eq(turns.number, number)));
}
