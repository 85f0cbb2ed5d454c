// Migrations on PostgreSQL, including two service instances starting at the same moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { appliedMigrations, publicTables, TABLES } from './tables.ts';

describe('openDatabase on PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('migrates once when several instances start together (advisory lock)', async () => {
    const config = { database: { kind: 'postgres' as const, url: fresh.url } };
    const instances = await Promise.all([openDatabase(config), openDatabase(config), openDatabase(config)]);
    try {
      for (const i of instances) expect(i.kind).toBe('postgres');
      expect(await publicTables(instances[0]!.db)).toEqual(TABLES);
      const applied = await appliedMigrations(instances[1]!.db);
      expect(applied).toBeGreaterThan(0);
      // A later start finds nothing to do.
      const later = await openDatabase(config);
      expect(await appliedMigrations(later.db)).toBe(applied);
      await later.close();
    } finally {
      await Promise.all(instances.map((i) => i.close()));
    }
  });

  it('reports a server that is not there', async () => {
    await expect(openDatabase({ database: { kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' } })).rejects.toThrow();
  });
});
