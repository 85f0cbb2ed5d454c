// Idle memory of the service as deployed (`npm start`, with its node flags read from package.json):
// with one game on the embedded PGlite (the default) and on PostgreSQL, and on PGlite's first
// start, when the service creates its database. Prints the resident set size (RSS) once the
// service has answered /health and sat idle for a while. Target on PGlite: ≤ 250 MiB.
// Always exits 0 (a benchmark is never a failing test).
//
//   npm run bench:memory            BENCH_DB=pglite|postgres for one database only,
//                                   BENCH_IDLE_SECONDS=<n> to sit idle longer (default 15)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { createGame } from '../src/games/index.ts';
import { freshDatabase } from '../test/harness/postgres.ts';

const ONLY = process.env.BENCH_DB;
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 15) * 1000;
const TARGET_MIB = 250;
const bin = new URL('../bin/sf.js', import.meta.url).pathname;

/** The node flags of `npm start` (`exec node <flags> bin/sf.js serve`), so the figure is the deployed one. */
async function startFlags(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const m = /node((?: --?[\w-]+(?:=\S+)?)*) bin\/sf\.js serve/.exec(pkg.scripts.start);
  return m?.[1]?.trim().split(' ').filter(Boolean) ?? [];
}
const flags = await startFlags();

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rssMiB(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function healthy(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
}

/** `withGame`: the database and one game exist before the service starts; otherwise the service creates its database (a first start). */
async function measure(label: string, env: Record<string, string>, withGame = true): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sf-mem-'));
  const port = await freePort();
  const full = { ...process.env, DATA_DIR: dataDir, HTTP_PORT: String(port), LOG_LEVEL: 'warn', ...env };
  try {
    if (withGame) {
      // One game, created before the service starts (the service owns PGlite once it runs).
      const database = await openDatabase(loadConfig(full));
      const players = ['a', 'b', 'c', 'd'].map((p) => ({ email: `${p}@example.org`, lang: 'en' as const }));
      await createGame(
        database.db,
        { name: 'Memory', players, timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' },
        { actor: 'bench', mail: { domain: 'localhost', ordersLocalPart: 'orders' } },
      );
      await database.close();
    }

    const child = spawn(process.execPath, [...flags, bin, 'serve'], { env: full, stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      const started = Date.now();
      await healthy(`http://127.0.0.1:${port}`, child);
      const startMs = Date.now() - started;
      await sleep(IDLE_MS);
      const { rss, peak } = await rssMiB(child.pid!);
      const verdict = label.startsWith('pglite')
        ? rss <= TARGET_MIB
          ? `target ≤ ${TARGET_MIB} met`
          : `over the ${TARGET_MIB} MiB target`
        : '';
      console.log(
        `${label.padEnd(22)} idle RSS ${rss.toFixed(0).padStart(4)} MiB   peak ${peak.toFixed(0).padStart(4)} MiB   ready in ${(startMs / 1000).toFixed(1)} s   ${verdict}`,
      );
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

console.log(
  `idle memory of \`node ${[...flags, 'bin/sf.js serve'].join(' ')}\`, after ${IDLE_MS / 1000} s idle (target on PGlite ≤ ${TARGET_MIB} MiB)`,
);
if (ONLY !== 'postgres') {
  await measure('pglite, one game', {});
  await measure('pglite, first start', {}, false);
}
if (ONLY !== 'pglite') {
  const fresh = await freshDatabase();
  try {
    await measure('postgres, one game', { DATABASE_URL: fresh.url });
  } finally {
    await fresh.drop();
  }
}
