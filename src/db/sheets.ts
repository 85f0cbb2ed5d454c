// Order sheets: every version a player sends is kept; the newest one counts (R-TURN-4).
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { pgArray, rowsOf, recordsetInsert } from './arrays.ts';
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

export type AddSheetResult = { ok: true; sheet: Sheet; previousReceivedAt: Date | null } | { ok: false; reason: 'no-turn' | 'turn-closed' };

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

/** Inserts sheets built by the caller (versions decided under the turn's lock); returns their ids by inbound id. */
export async function insertSheets(db: Db, rows: Array<SheetInput & { version: number }>): Promise<Map<number, number>> {
  if (rows.length === 0) return new Map();
  const spec = {
    gameId: 'text',
    turn: 'integer',
    faction: 'text',
    version: 'integer',
    text: 'text',
    parsed: 'jsonb',
    status: 'text',
    receivedAt: 'timestamptz',
    inboundId: 'bigint',
  } as const;
  const ids = await rowsOf<{ id: string | number; inboundId: string | number | null }>(
    db,
    recordsetInsert(sheets, spec, rows, { returning: { id: sheets.id, inboundId: sheets.inboundId } }),
  );
  // Raw rows: bigint comes back as a string from node-postgres.
  return new Map(ids.flatMap((r) => (r.inboundId === null ? [] : [[Number(r.inboundId), Number(r.id)] as const])));
}

/**
 * The newest version of each of these factions' sheets: one index probe per faction (a turn's
 * versions are never all read, however many a player sent).
 */
export async function latestSheetsOf(db: Db, wanted: Array<{ gameId: string; turn: number; faction: string }>): Promise<Sheet[]> {
  if (wanted.length === 0) return [];
  const newest = sql`(
    select s.id from unnest(${pgArray(wanted.map((w) => w.gameId))}::text[], ${pgArray(wanted.map((w) => w.turn))}::integer[],
      ${pgArray(wanted.map((w) => w.faction))}::text[]) as k(game_id, turn, faction)
    cross join lateral (
      select ${sheets.id} as id from ${sheets} where ${sheets.gameId} = k.game_id and ${sheets.turn} = k.turn and ${sheets.faction} = k.faction
      order by ${sheets.version} desc limit 1
    ) s)`;
  return db.select().from(sheets).where(inArray(sheets.id, newest));
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

/**
 * The sheets that stand at a deadline (R-TURN-4, D-MAIL-20): each faction's newest version received
 * by then. Intake refuses later mail, so this is normally the newest version; the date keeps a clock
 * skew between instances from letting a late one through.
 */
export async function standingSheets(db: Db, gameId: string, turn: number, deadline: Date): Promise<Sheet[]> {
  return db
    .selectDistinctOn([sheets.faction])
    .from(sheets)
    .where(and(eq(sheets.gameId, gameId), eq(sheets.turn, turn), lte(sheets.receivedAt, deadline)))
    .orderBy(asc(sheets.faction), desc(sheets.version));
}

export async function sheetsById(db: Db, ids: readonly number[]): Promise<Sheet[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(sheets)
    .where(inArray(sheets.id, [...ids]));
}

/** Every version of one faction's sheet, oldest first (the referee console). */
export async function sheetHistory(db: Db, gameId: string, turn: number, faction: string): Promise<Sheet[]> {
  return db
    .select()
    .from(sheets)
    .where(and(eq(sheets.gameId, gameId), eq(sheets.turn, turn), eq(sheets.faction, faction)))
    .orderBy(asc(sheets.version));
}
