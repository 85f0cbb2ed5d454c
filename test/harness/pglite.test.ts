// The unit tier's databases: loaded from the template that the global setup migrated, they must be
// what the service would have made of an empty directory (every migration, nothing else), and
// emptying one must leave it as new.
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit, recordAudit } from '../../src/db/audit.ts';
import type { Database } from '../../src/db/client.ts';
import { findGame, insertGame } from '../../src/db/games.ts';
import { appliedMigrations, plainGame, publicTables, TABLES } from '../db/tables.ts';
import { databasePerFile, emptyDatabase, openTestPglite } from './pglite.ts';

const migrationFiles = async () => (await readdir(new URL('../../drizzle/', import.meta.url))).filter((f) => f.endsWith('.sql')).length;
const audit = (action: string) => ({ actor: 'test', gameId: null, action, detail: {} });

describe('openTestPglite', () => {
  let a: Database;
  let b: Database;
  beforeAll(async () => {
    [a, b] = await Promise.all([openTestPglite(), openTestPglite()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('opens a database with every migration applied and no rows', async () => {
    expect(await publicTables(a.db)).toEqual(TABLES);
    expect(await appliedMigrations(a.db)).toBe(await migrationFiles());
    expect(await listAudit(a.db)).toEqual([]);
  });

  it('gives each caller a database of its own', async () => {
    await insertGame(a.db, plainGame('only-in-a', 'Only in A'));
    expect(await findGame(a.db, 'only-in-a')).not.toBeNull();
    expect(await findGame(b.db, 'only-in-a')).toBeNull();
  });

  it('emptyDatabase removes every row and starts ids again from 1, and keeps the migrations', async () => {
    await insertGame(b.db, plainGame('gone', 'Gone'));
    await recordAudit(b.db, audit('first'));
    await recordAudit(b.db, audit('second'));
    await emptyDatabase(b.db);
    expect(await findGame(b.db, 'gone')).toBeNull();
    expect(await listAudit(b.db)).toEqual([]);
    expect((await recordAudit(b.db, audit('again'))).id).toBe(1);
    expect(await appliedMigrations(b.db)).toBe(await migrationFiles());
  });
});

describe('databasePerFile', () => {
  const perFile = databasePerFile();

  it('hands back the same database, emptied, on every call', async () => {
    const first = await perFile.fresh();
    await insertGame(first.db, plainGame('left-over', 'Left over'));
    const second = await perFile.fresh();
    expect(second).toBe(first);
    expect(await findGame(second.db, 'left-over')).toBeNull();
  });
});
