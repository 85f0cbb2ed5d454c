// In-memory PGlite for unit tests, migrated once per run (pglite-template.setup.ts) and loaded
// from that template here: a fraction of a second instead of an initdb and the migrations.
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, inject } from 'vitest';
import { openDatabase, PGLITE_START_PARAMS, type Database, type Db } from '../../src/db/client.ts';
import * as schema from '../../src/db/schema.ts';

let template: Promise<Blob> | undefined;

/** A fresh, migrated, empty in-memory database of its own; close it when done. */
export async function openTestPglite(): Promise<Database> {
  const file = inject('pgliteTemplate');
  // Outside the unit tier (no global setup) there is no template: migrate as the service does.
  if (!file) return openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } });
  template ??= readFile(file).then((bytes) => new Blob([bytes]));
  // Started as the service starts it (its shared_buffers included), from the migrated data.
  const client = await PGlite.create({ loadDataDir: await template, startParams: [...PGLITE_START_PARAMS] });
  return { db: drizzle({ client, schema }), kind: 'pglite', close: () => client.close() };
}

/**
 * Empties every table and restarts its ids, as if just migrated. Cheaper than loading the
 * template again, for files that give each test a clean database.
 */
export async function emptyDatabase(db: Db): Promise<void> {
  const { rows } = (await db.execute(sql`select tablename from pg_tables where schemaname = 'public'`)) as unknown as {
    rows: { tablename: string }[];
  };
  if (rows.length === 0) return;
  const tables = sql.join(
    rows.map((r) => sql.identifier(r.tablename)),
    sql`, `,
  );
  await db.execute(sql`truncate ${tables} restart identity cascade`);
}

/**
 * One database for the whole test file, opened on first use and closed after the file's tests;
 * `fresh()` hands it back emptied. Call at the top level of a test file (or of a module that a
 * test file imports), where vitest hooks may be registered.
 */
export function databasePerFile(): { fresh(): Promise<Database> } {
  let opened: Promise<Database> | undefined;
  afterAll(async () => {
    const database = await opened?.catch(() => undefined); // a failed open failed its test already
    opened = undefined;
    await database?.close();
  });
  return {
    async fresh() {
      if (!opened) {
        opened = openTestPglite();
        return opened;
      }
      const database = await opened;
      await emptyDatabase(database.db);
      return database;
    },
  };
}
