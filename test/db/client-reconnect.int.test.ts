// The service survives its PostgreSQL going away: connections killed under it by
// pg_terminate_backend are logged and replaced, and a server that is not reachable at start is
// waited for, with a log line per attempt. The real `sf serve` runs against the local server; a
// TCP proxy the test controls plays the server that is down, then up.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { createGame } from '../../src/games/index.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { freePort, healthy, spawnService, type Running } from '../startup/serve-process.ts';
import { eventually } from '../support/eventually.ts';

const WAIT = { timeoutMs: 90_000 };
let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let root: string;
const running: Running[] = [];

beforeAll(async () => {
  fresh = await freshDatabase();
  root = await mkdtemp(path.join(tmpdir(), 'sf-reconnect-'));
});
afterAll(async () => {
  for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGTERM');
  await Promise.all(running.map((r) => r.finished));
  await fresh?.drop();
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

/** Ends every session of the test database (the service's) as an administrator would. */
async function terminateBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: new URL('/postgres', fresh.url).toString() });
  await admin.connect();
  try {
    const db = new URL(fresh.url).pathname.slice(1);
    const { rows } = await admin.query(
      'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [db],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

/** A game created beside the service: its welcomes are mailed by the service's outbox loop. */
async function createGameBeside(name: string, url: string): Promise<number> {
  const database = await openDatabase({ database: { kind: 'postgres', url } });
  try {
    const players = ['a', 'b', 'c', 'd'].map((p) => ({ email: `${p}.${name.toLowerCase()}@example.org`, lang: 'en' as const }));
    const created = await createGame(
      database.db,
      { name, players, timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' },
      { actor: 'test', mail: { domain: 'localhost', ordersLocalPart: 'orders' } },
    );
    return created.players.length;
  } finally {
    await database.close();
  }
}

const emlCount = async (dataDir: string) =>
  (await readdir(path.join(dataDir, 'mail', 'outbox')).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).length;

/** A TCP proxy to the local PostgreSQL that can refuse (accept and drop) or cut every connection. */
function controllableProxy(target: URL) {
  let up = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: (port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', r)),
    setUp: (value: boolean) => {
      up = value;
      if (!value) for (const s of sockets) s.destroy();
    },
    close: () => {
      up = false;
      for (const s of sockets) s.destroy(); // server.close() waits for them otherwise
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('sf serve on PostgreSQL', () => {
  it('carries on after its connections are terminated, and keeps working', async () => {
    const dataDir = path.join(root, 'terminated');
    const port = await freePort();
    const service = spawnService({ DATA_DIR: dataDir, HTTP_PORT: String(port), DATABASE_URL: fresh.url });
    running.push(service);
    await healthy(port, service);
    const welcomes = await createGameBeside('Before', fresh.url);
    await eventually(async () => expect(await emlCount(dataDir)).toBe(welcomes), WAIT);

    for (let round = 1; round <= 3; round++) {
      expect(await terminateBackends()).toBeGreaterThan(0);
      // The service still answers, from new connections, and its loops still use the database.
      await healthy(port, service);
      const more = await createGameBeside(`After${round}`, fresh.url);
      await eventually(async () => expect(await emlCount(dataDir)).toBe(welcomes + round * more), WAIT);
    }
    expect(service.child.exitCode).toBeNull();
    expect(service.stderr()).toContain('lost a database connection');
    expect(service.stderr()).not.toContain('Connection terminated unexpectedly\n    at');
    // It still stops cleanly (and leaves the database's outbox to the next test's service).
    service.child.kill('SIGTERM');
    expect((await service.finished).code).toBe(0);
  });

  it('waits for a server that is not reachable at start, and starts once it is', async () => {
    const proxy = controllableProxy(new URL(fresh.url));
    const proxyPort = await freePort();
    await proxy.listen(proxyPort);
    try {
      const url = new URL(fresh.url);
      url.host = `127.0.0.1:${proxyPort}`;
      const port = await freePort();
      const dataDir = path.join(root, 'late');
      const service = spawnService({
        DATA_DIR: dataDir,
        HTTP_PORT: String(port),
        DATABASE_URL: url.toString(),
        DATABASE_CONNECT_RETRY_SECONDS: '600',
      });
      running.push(service);
      // Two attempts logged; meanwhile the service already listens and says what it waits for.
      await eventually(() => expect(service.stderr()).toMatch(/database unreachable \(DATABASE_URL\), attempt 2; retrying in/), WAIT);
      const waiting = await fetch(`http://127.0.0.1:${port}/health`);
      expect(waiting.status).toBe(503);
      expect(await waiting.json()).toEqual({ ok: false, database: 'starting' });
      expect(service.child.exitCode).toBeNull();

      proxy.setUp(true);
      await healthy(port, service);
      const welcomes = await createGameBeside('Late', fresh.url);
      await eventually(async () => expect(await emlCount(dataDir)).toBe(welcomes), WAIT);

      // Cut under it while running: /health fails while the server is away, and recovers.
      proxy.setUp(false);
      await eventually(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ ok: false, database: 'unreachable' });
      }, WAIT);
      proxy.setUp(true);
      await healthy(port, service);
      expect(service.child.exitCode).toBeNull();
      service.child.kill('SIGTERM');
      expect((await service.finished).code).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
