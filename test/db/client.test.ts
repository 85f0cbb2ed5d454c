// Migrations on PGlite: in memory, and in a data directory that is opened again.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { findGame, insertGame } from '../../src/db/games.ts';
import { appliedMigrations, publicTables, TABLES, plainGame } from './tables.ts';

// Starting PGlite takes seconds, more on a busy machine.
const SLOW = 60_000;

const migrationFiles = async () => (await readdir(new URL('../../drizzle/', import.meta.url))).filter((f) => f.endsWith('.sql')).length;

describe('openDatabase on PGlite', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true, maxRetries: 3 });
  });

  it('applies every migration to a fresh in-memory database', async () => {
    const database = await openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } });
    try {
      expect(database.kind).toBe('pglite');
      expect(await publicTables(database.db)).toEqual(TABLES);
      expect(await appliedMigrations(database.db)).toBe(await migrationFiles());
      // Small shared buffers: PGlite keeps them resident for good (idle memory, bench:memory).
      const { rows } = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
      expect(rows[0]?.shared_buffers).toBe('16MB');
    } finally {
      await database.close();
    }
  }, SLOW);

  it('creates its data directory, and opening it again migrates nothing and keeps the data', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'sf-pglite-'));
    dirs.push(parent);
    const config = { database: { kind: 'pglite' as const, dataDir: path.join(parent, 'data', 'db') } };
    const first = await openDatabase(config);
    await insertGame(first.db, plainGame('kept', 'Kept'));
    await first.close();
    const second = await openDatabase(config);
    try {
      expect((await findGame(second.db, 'kept'))?.name).toBe('Kept');
      expect(await appliedMigrations(second.db)).toBe(await migrationFiles());
    } finally {
      await second.close();
    }
  }, SLOW);
});
