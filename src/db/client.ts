// Opens the database named by the configuration and brings its schema up to date. PGlite (embedded,
// the default) and PostgreSQL share one Drizzle type, so repositories are written once.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import { initializeApart } from './pglite-init.ts';
import { connectWithRetry, isTransient, rootCause } from './retry.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** A Drizzle handle on either driver. A transaction is one too, so repositories take either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** One round trip: throws when the database does not answer (the health check). */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// Resolved from this file, not the working directory, so `sf` works from anywhere.
const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Any fixed 64-bit number; it only has to be the same for every instance of this program.
const MIGRATION_LOCK = 0x5f_5354_4152_5453n; // "_STARTS"

/** A migration failed: the schema could not be brought up to date. `cause`: the database's own error. */
export class MigrationError extends AppError {
  override name = 'MigrationError';
  constructor(err: unknown) {
    const cause = rootCause(err);
    const code = (cause as { code?: unknown }).code;
    super(
      'migration-failed',
      `migration failed: ${typeof code === 'string' ? `${code} ` : ''}${cause instanceof Error ? cause.message : String(cause)}`,
      undefined,
      { cause },
    );
  }
}

/** Runs the migrations; a lost connection stays itself (it may be retried), anything else is a MigrationError. */
async function migrating(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    throw isTransient(err) ? err : new MigrationError(err);
  }
}

/**
 * PGlite's PostgreSQL keeps its default 128 MB of shared buffers inside the WebAssembly memory,
 * which never shrinks: touched once, they stay resident (~130 MiB of the service's idle RSS).
 * A game's working set is a few hundred kilobytes; 16 MB holds it many times over (idle
 * memory measured by bench/memory.bench.ts).
 */
export const PGLITE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * `log`: where a lost connection and each retry of the first connection are reported. Without
 * one, PostgreSQL is tried once: retrying in silence would look like a hang.
 */
export async function openDatabase(config: { database: DatabaseConfig }, log?: Logger): Promise<Database> {
  const c = config.database;
  return c.kind === 'pglite' ? openPglite(c.dataDir) : openPostgres(c.url, log, log ? (c.connectRetryMs ?? 0) : 0);
}

/**
 * V8 compiles PGlite's WebAssembly twice, a quick baseline and then optimised code for what runs
 * hot, and keeps both: ~60 MiB of the idle RSS. The baseline compiler alone is enough for a
 * service whose queries are small: bench:ingest on PGlite ran as fast, within
 * its noise (idle memory: bench/memory.bench.ts). The flag must be set before the module is
 * compiled; it only concerns WebAssembly.
 */
let baselineWasmOnly = false;
function compileWasmLean(): void {
  if (baselineWasmOnly) return;
  // On the command line --liftoff-only implies the other two; set at run time (Node 24's V8) it
  // does not, and alone it changed nothing: TurboFan still compiled the whole module a second
  // after start (idle ~290 MiB, a peak of ~800 MiB while it compiled; bench:memory).
  for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering']) setFlagsFromString(flag);
  baselineWasmOnly = true;
}

async function openPglite(dataDir: string): Promise<Database> {
  compileWasmLean();
  if (!dataDir.includes('://')) {
    await mkdir(dataDir, { recursive: true });
    await initializeApart(dataDir, PGLITE_START_PARAMS);
  }
  const client = await PGlite.create(dataDir, { startParams: [...PGLITE_START_PARAMS] });
  try {
    const db = drizzlePglite({ client, schema });
    await migrating(() => migratePglite(db, { migrationsFolder }));
    return { db, kind: 'pglite', close: () => client.close() };
  } catch (err) {
    await client.close();
    throw err;
  }
}

async function openPostgres(url: string, log: Logger | undefined, retryForMs: number): Promise<Database> {
  // A server that drops packets instead of refusing would hold every query (and /health) for
  // the kernel's TCP timeout, minutes; ten seconds is long for a connection that will come.
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 10_000 });
  survivesDisconnects(pool, log);
  try {
    await connectWithRetry(() => migrateUnderLock(pool), { retryForMs, log });
  } catch (err) {
    await pool.end();
    throw err;
  }
  return { db: originalErrorsOfTransactions(drizzleNodePg({ client: pool, schema })), kind: 'postgres', close: () => pool.end() };
}

/**
 * A transaction whose connection was lost fails, and so does the ROLLBACK that Drizzle then sends
 * on the dead connection: Drizzle throws the second error ("not queryable"), which says nothing
 * of what happened. The first error, the one that says why, is thrown instead.
 */
function originalErrorsOfTransactions(db: Db): Db {
  const transaction = db.transaction.bind(db);
  const guarded: typeof transaction = async (work, config) => {
    let failure: { err: unknown } | null = null;
    try {
      return await transaction(async (tx) => {
        try {
          return await work(tx);
        } catch (err) {
          failure = { err };
          throw err;
        }
      }, config);
    } catch (err) {
      throw failure ? (failure as { err: unknown }).err : err;
    }
  };
  db.transaction = guarded;
  return db;
}

/**
 * A server restart, a failover or pg_terminate_backend ends connections under us. pg reports it
 * as an `error` event on the pool (an idle client) or on the client itself (one checked out, say
 * between two statements of a transaction); unheard, either kills the process. The
 * query in flight fails on its own and its caller retries; the pool drops the broken client and
 * opens a new one on next use, so listening is all it takes to carry on.
 */
function survivesDisconnects(pool: pg.Pool, log: Logger | undefined): void {
  pool.on('error', (err) => log?.warn({ err: err.message }, 'lost a database connection; a new one is opened on next use'));
  pool.on('connect', (client) => {
    client.on('error', (err) => log?.debug({ err: err.message }, 'database connection error'));
  });
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
      await migrating(() => migrateNodePg(drizzleNodePg({ client: conn, schema }), { migrationsFolder }));
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
    }
  } finally {
    conn.release();
  }
}
