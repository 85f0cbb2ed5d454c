// Order sheets: every version a player sends is kept; the newest one counts (R-TURN-4).
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { sheets } from './schema.ts';
import { lockTurn } from './turns.ts';

export type Sheet = typeof sheets.$inferSelect;

export interface SheetInput {
  gameId: string;
  turn: number;
  faction: string;
  text: string;
  parsed: unknown;
  status: Sheet['status'];
  receivedAt: Date;
  inboundId: number | null;
}

export type AddSheetResult =
  | { ok: true; sheet: Sheet; previousReceivedAt: Date | null }
  | { ok: false; reason: 'no-turn' | 'turn-closed' };

/**
 * Adds the next version of a faction's sheet. The turn row is locked, so versions never collide
 * and a sheet cannot slip in while the turn is being adjudicated (which locks the same row).
 * Whether the sheet is on time is the caller's judgement, from receivedAt and the deadline.
 */
export async function addSheetVersion(db: Db, input: SheetInput): Promise<AddSheetResult> {
  return db.transaction(async (tx) => {
    const turn = await lockTurn(tx, input.gameId, input.turn);
    if (!turn) return { ok: false, reason: 'no-turn' } as const;
    if (turn.status !== 'open') return { ok: false, reason: 'turn-closed' } as const;
    const previous = await latestSheet(tx, input.gameId, input.turn, input.faction);
    const [sheet] = await tx
      .insert(sheets)
      .values({ ...input, version: (previous?.version ?? 0) + 1 })
      .returning();
    return { ok: true, sheet: sheet!, previousReceivedAt: previous?.receivedAt ?? null } as const;
  });
}

export async function latestSheet(db: Db, gameId: string, turn: number, faction: string): Promise<Sheet | null> {
  const [row] = await db
    .select()
    .from(sheets)
    .where(and(eq(sheets.gameId, gameId), eq(sheets.turn, turn), eq(sheets.faction, faction)))
    .orderBy(desc(sheets.version))
    .limit(1);
  return row ?? null;
}

/** The newest version of every faction's sheet for a turn: what adjudication reads. */
export async function latestSheets(db: Db, gameId: string, turn: number): Promise<Sheet[]> {
  return db
    .selectDistinctOn([sheets.faction])
    .from(sheets)
    .where(and(eq(sheets.gameId, gameId), eq(sheets.turn, turn)))
    .orderBy(asc(sheets.faction), desc(sheets.version));
}

/** Every version of one faction's sheet, oldest first (the referee console). */
export async function sheetHistory(db: Db, gameId: string, turn: number, faction: string): Promise<Sheet[]> {
  return db
    .select()
    .from(sheets)
    .where(and(eq(sheets.gameId, gameId), eq(sheets.turn, turn), eq(sheets.faction, faction)))
    .orderBy(asc(sheets.version));
}
