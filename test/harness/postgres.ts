// One fresh PostgreSQL database per integration test file, on the local server
// (127.0.0.1:5432, user postgres, trust auth; .ci/run starts it when it is down).
// PG_ADMIN_URL names another server or user.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
