// What the migrations made, asked of the database itself.
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import type { NewGame } from '../../src/db/games.ts';

export const TABLES = [
  'audit_log',
  'edicts',
  'games',
  'inbound_messages',
  'mailbox_cursors',
  'outbox',
  'players',
  'sheets',
  'turns',
];

async function rows(db: Db, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  // Both drivers answer with `{ rows }`; the shared Drizzle type cannot say so.
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

export async function publicTables(db: Db): Promise<string[]> {
  const r = await rows(db, sql`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`);
  return r.map((x) => String(x.name));
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
