// What the migrations made, asked of the database itself.
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/db/client.ts';
import type { NewGame } from '../../src/db/games.ts';
import * as schema from '../../src/db/schema.ts';

/** Every table the schema declares, by name: the migrations must make exactly these. */
export const TABLES = (Object.values(schema) as unknown[])
  .filter((x): x is PgTable => is(x, PgTable))
  .map((t) => getTableName(t))
  .sort();

async function rows(db: Db, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  // Both drivers answer with `{ rows }`; the shared Drizzle type cannot say so.
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

export async function publicTables(db: Db): Promise<string[]> {
  const r = await rows(db, sql`select table_name as name from information_schema.tables where table_schema = 'public'`);
  return r.map((x) => String(x.name)).sort(); // sorted as TABLES is, whatever the server's collation
}

export async function appliedMigrations(db: Db): Promise<number> {
  const r = await rows(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(r[0]!.n);
}

/** A plain game row, straight to the repository: for tests about storage, not about games. */
export function plainGame(id: string, name: string): NewGame {
  return {
    id,
    name,
    map: 'classic',
    timeZone: 'Europe/Rome',
    weeklyDeadline: 'sun 20:00',
    declarationLeadMinutes: 0,
    reminderMinutes: [],
    disputeWindowMinutes: 0,
    victoryPlanets: 12,
    nmrHostility: 'keep',
    status: 'active',
    currentTurn: 1,
  };
}
