// One fresh PostgreSQL database per integration test file, on the local server
// (127.0.0.1:5432, user postgres, trust auth; .ci/run starts it when it is down).
// PG_ADMIN_URL names another server or user.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';

const adminUrl = () => process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sf_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin(async (c) => {
        // Pools that were just closed may still be leaving: wait for their sessions to end, so
        // that dropping does not kill them (their clients would see 57P01 as an unhandled error).
        for (let i = 0; i < 50; i++) {
          const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        // FORCE: a test that failed may have left a pool open.
        await c.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

/**
 * A fresh database for the enclosing `describe`: created before its tests, dropped after them.
 * `open()` opens an instance of the service's database on it (the caller closes it).
 */
export function freshDatabaseForSuite(): { url(): string; open(): Promise<Database> } {
  let fresh: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });
  const url = () => {
    if (!fresh) throw new Error('the fresh database is made in beforeAll: use it inside a test or hook');
    return fresh.url;
  };
  return { url, open: () => openDatabase({ database: { kind: 'postgres', url: url() } }) };
}

/** Two instances on one database for the enclosing `describe`, as two services would hold it. */
export function twoInstances(open: () => Promise<Database>): { a(): Database; b(): Database } {
  let a: Database | undefined;
  let b: Database | undefined;
  beforeAll(async () => {
    [a, b] = await Promise.all([open(), open()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  return { a: () => a!, b: () => b! };
}
