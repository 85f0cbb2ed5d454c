// Every start-up failure of `sf serve` is one line naming the cause and the variable to change,
// and the process exits non-zero without hanging. Each case spawns the real service;
// "at once" is bounded by the test's timeout, never measured.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../harness/postgres.ts';
import { eventually } from '../support/eventually.ts';
import { freePort, healthy, plainLines, spawnService } from './serve-process.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sf-startup-'));
  await chmod(root, 0o755); // the unwritable case runs the service as another user
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

/** Runs the service to its end and returns the one line it printed. */
async function failure(vars: Record<string, string>, asUser?: { uid: number; gid: number }): Promise<string> {
  const run = spawnService(vars, asUser ?? {});
  const { code, stderr } = await run.finished;
  expect(code, stderr).toBe(1);
  const lines = plainLines(stderr);
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
  return lines[0]!;
}

/** GET /health once: its status and body. */
async function health(port: number): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  return { status: res.status, body: await res.json() };
}

/** A TCP relay from `port` to `target`: PostgreSQL "appearing" on a port where nothing listened. */
async function relay(port: number, target: URL): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => [client, upstream].forEach((x) => x.destroy()));
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('sf serve while PostgreSQL is not there yet', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('listens at once: /health and pages answer 503 until the database appears, then 200; SIGTERM stops it cleanly', async () => {
    const dbPort = await freePort(); // nothing listens there yet
    const httpPort = await freePort();
    const url = new URL(fresh.url);
    const target = new URL(fresh.url);
    url.port = String(dbPort);
    const run = spawnService({
      DATA_DIR: path.join(root, 'pg-later'),
      DATABASE_URL: url.toString(),
      DATABASE_CONNECT_RETRY_SECONDS: '3600',
      HTTP_PORT: String(httpPort),
    });
    let proxy: { close(): Promise<void> } | null = null;
    try {
      await eventually(() => expect(run.stderr()).toContain('attempt 2; retrying'), { timeoutMs: 90_000 });
      expect(await health(httpPort)).toEqual({ status: 503, body: { ok: false, database: 'starting' } });
      const page = await fetch(`http://127.0.0.1:${httpPort}/`, { headers: { 'accept-language': 'it' } });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('Avvio in corso');

      proxy = await relay(dbPort, target);
      await healthy(httpPort, run); // the next retry reaches it, migrates, starts the loops
      expect(await health(httpPort)).toEqual({ status: 200, body: { ok: true } });
      expect((await fetch(`http://127.0.0.1:${httpPort}/`)).status).toBe(200);

      run.child.kill('SIGTERM');
      const { code, stderr } = await run.finished;
      expect(code, stderr).toBe(0);
      expect(plainLines(stderr)).toEqual([]);
    } finally {
      run.child.kill('SIGKILL');
      await proxy?.close();
    }
  });
});

describe('sf serve refuses to start, in one line', () => {
  it('when the HTTP port is in use', async () => {
    const port = await freePort();
    const squatter: Server = createServer();
    await new Promise<void>((r) => squatter.listen(port, '127.0.0.1', r));
    try {
      const line = await failure({ DATA_DIR: path.join(root, 'port'), HTTP_PORT: String(port) });
      expect(line).toBe(
        `sf serve: HTTP port ${port} on 127.0.0.1 is already in use: stop what uses it, or set HTTP_PORT (or HTTP_HOST) to another`,
      );
    } finally {
      squatter.close();
    }
  });

  it('when DATA_DIR is a file, or below one', async () => {
    const file = path.join(root, 'a-file');
    await writeFile(file, 'not a directory');
    expect(await failure({ DATA_DIR: file, HTTP_PORT: String(await freePort()) })).toBe(
      `sf serve: DATA_DIR ${file} is a file, not a directory: set DATA_DIR to a directory`,
    );
    expect(await failure({ DATA_DIR: path.join(file, 'data'), HTTP_PORT: String(await freePort()) })).toMatch(
      /^sf serve: DATA_DIR .*a-file\/data .*\(ENOTDIR\): set DATA_DIR to a directory/,
    );
  });

  describe('when DATA_DIR cannot be written or created', () => {
    // Root may write anywhere: the service runs as "nobody" then, as it would in a container.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    it('an existing read-only directory', async () => {
      const dir = path.join(root, 'read-only');
      await mkdir(dir);
      await chmod(dir, 0o555);
      expect(await failure({ DATA_DIR: dir, HTTP_PORT: String(await freePort()) }, asUser)).toMatch(
        new RegExp(`^sf serve: DATA_DIR ${dir} is not writable by this user \\(EACCES\\): fix its owner or permissions, or set DATA_DIR`),
      );
    });
    it('a database directory left behind by another user', async () => {
      const dir = path.join(root, 'foreign-db');
      await mkdir(path.join(dir, 'db'), { recursive: true });
      await chmod(dir, 0o777);
      await chmod(path.join(dir, 'db'), 0o555);
      expect(await failure({ DATA_DIR: dir, HTTP_PORT: String(await freePort()) }, asUser)).toMatch(
        new RegExp(
          `^sf serve: DATA_DIR ${dir}/db is not writable by this user \\(EACCES\\): fix its owner or permissions, or set DATA_DIR`,
        ),
      );
    });
    it('a missing directory below a read-only one', async () => {
      const dir = path.join(root, 'read-only-parent');
      await mkdir(dir);
      await chmod(dir, 0o555);
      expect(await failure({ DATA_DIR: path.join(dir, 'data'), HTTP_PORT: String(await freePort()) }, asUser)).toMatch(
        /^sf serve: DATA_DIR .*read-only-parent\/data does not exist and cannot be created \(EACCES\): create it, or set DATA_DIR/,
      );
    });
  });

  it('when PostgreSQL cannot be reached, after the retries it was told to make', async () => {
    const port = await freePort(); // nobody listens there
    const run = spawnService({
      DATA_DIR: path.join(root, 'pg-down'),
      DATABASE_URL: `postgres://sf@127.0.0.1:${port}/sf`,
      DATABASE_PASSWORD: 'hunter2',
      DATABASE_CONNECT_RETRY_SECONDS: '2',
      HTTP_PORT: String(await freePort()),
    });
    const { code, stderr } = await run.finished;
    expect(code).toBe(1);
    // Each retry is a log line; the end is the one plain line.
    expect(stderr).toMatch(/"msg":"database unreachable \(DATABASE_URL\), attempt 1; retrying in/);
    expect(plainLines(stderr)).toEqual([
      `sf serve: database unreachable at 127.0.0.1:${port}/sf (ECONNREFUSED): start PostgreSQL, or set DATABASE_URL (waited DATABASE_CONNECT_RETRY_SECONDS=2)`,
    ]);
    expect(stderr).not.toContain('hunter2');
  });

  it('when told to stop while it waits for PostgreSQL (it answers /health 503 meanwhile)', async () => {
    const port = await freePort();
    const httpPort = await freePort();
    const run = spawnService({
      DATA_DIR: path.join(root, 'pg-wait'),
      DATABASE_URL: `postgres://sf@127.0.0.1:${port}/sf`,
      DATABASE_CONNECT_RETRY_SECONDS: '3600',
      HTTP_PORT: String(httpPort),
    });
    await eventually(() => expect(run.stderr()).toContain('attempt 1; retrying'), { timeoutMs: 90_000 });
    expect(await health(httpPort)).toEqual({ status: 503, body: { ok: false, database: 'starting' } });
    run.child.kill('SIGTERM');
    const { code, stderr } = await run.finished;
    expect(code).toBe(1);
    expect(plainLines(stderr)).toEqual(['sf serve: stopped while starting (waiting for the database in DATABASE_URL)']);
  });

  describe('on a real PostgreSQL', () => {
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    beforeAll(async () => {
      fresh = await freshDatabase();
    });
    afterAll(async () => {
      await fresh?.drop();
    });

    it('when the database does not exist', async () => {
      const url = new URL(fresh.url);
      url.pathname = '/sf_no_such_database';
      expect(
        await failure({ DATA_DIR: path.join(root, 'pg-nodb'), DATABASE_URL: url.toString(), HTTP_PORT: String(await freePort()) }),
      ).toMatch(/^sf serve: the database at .*\/sf_no_such_database does not exist: create it, or set DATABASE_URL$/);
    });

    it('when a migration fails', async () => {
      // A table of the first migration already there, unknown to the migrations' journal.
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      await client.query('create table audit_log (id int)');
      await client.end();
      expect(
        await failure({ DATA_DIR: path.join(root, 'pg-migration'), DATABASE_URL: fresh.url, HTTP_PORT: String(await freePort()) }),
      ).toMatch(
        /^sf serve: could not bring the database at .* up to date \(42P07 relation "audit_log" already exists\): repair it or restore a backup, or set DATABASE_URL to another database$/,
      );
    });
  });
});
