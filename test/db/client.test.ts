// Migrations on PGlite: in memory, and in a data directory that is opened again.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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

  it(
    'compiles its WebAssembly once, with the baseline compiler only: no optimised copy, no peak while it is made',
    async () => {
      // In a process of its own, as the service opens it; V8 optimises a module a second or two
      // after it starts (~500 MiB while it does, before the flags were set right on Node 24).
      // A data directory (one in memory would be created in the process itself, initdb's own peak).
      const dir = await mkdtemp(path.join(tmpdir(), 'sf-pglite-wasm-'));
      dirs.push(dir);
      const client = new URL('../../src/db/client.ts', import.meta.url).href;
      const script = `const { openDatabase } = await import(${JSON.stringify(client)});
      const database = await openDatabase({ database: { kind: 'pglite', dataDir: ${JSON.stringify(dir)} } });
      await new Promise((r) => setTimeout(r, 4000));
      const status = (await import('node:fs')).readFileSync('/proc/self/status', 'utf8');
      await database.close();
      process.stdout.write(String(Number(/^VmHWM:\\s*(\\d+)/m.exec(status)[1]) / 1024));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
      expect(Number(stdout)).toBeGreaterThan(50);
      expect(Number(stdout)).toBeLessThan(400);
    },
    SLOW,
  );

  it(
    'applies every migration to a fresh in-memory database',
    async () => {
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
    },
    SLOW,
  );

  it(
    'creates its data directory, and opening it again migrates nothing and keeps the data',
    async () => {
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
    },
    SLOW,
  );
});
