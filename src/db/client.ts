// Opens the database named by the configuration and brings its schema up to date. PGlite (embedded,
// the default) and PostgreSQL share one Drizzle type, so repositories are written once.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** A Drizzle handle on either driver. A transaction is one too, so repositories take either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// Resolved from this file, not the working directory, so `sf` works from anywhere.
const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Any fixed 64-bit number; it only has to be the same for every instance of this program.
const MIGRATION_LOCK = 0x5f_5354_4152_5453n; // "_STARTS"

export async function openDatabase(config: { database: DatabaseConfig }): Promise<Database> {
  const c = config.database;
  return c.kind === 'pglite' ? openPglite(c.dataDir) : openPostgres(c.url);
}

async function openPglite(dataDir: string): Promise<Database> {
  if (!dataDir.includes('://')) await mkdir(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    return { db, kind: 'pglite', close: () => client.close() };
  } catch (err) {
    await client.close();
    throw err;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url });
  try {
    await migrateUnderLock(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  return { db: drizzleNodePg({ client: pool, schema }), kind: 'postgres', close: () => pool.end() };
}

/**
 * Several service instances may start at once against one PostgreSQL. Migrating on one
 * connection that holds a session advisory lock makes the others wait, then find nothing to do.
 */
async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const conn = await pool.connect();
  try {
    await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      await migrateNodePg(drizzleNodePg({ client: conn, schema }), { migrationsFolder });
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
    }
  } finally {
    conn.release();
  }
}
