// Public pages under load: `npm run bench:http`. One process serves three things on PGlite in
// memory, each measured in turn by autocannon (in a child process, so that the load generator does
// not share the server's event loop): a bare Fastify route returning a constant, a game's page
// (8 players, mid-game, the map inline) and the same game through the JSON API. Prints requests per
// second, the ratio of each to the bare route (target ≥ 0.5) and p99 latency (target < 50 ms).
// The three are measured in turn, BENCH_ROUNDS times (default 3), and each keeps its best round:
// on a shared machine the others' load only ever slows a round down. The server's own CPU time per
// request is printed too (the steadier figure when the load generator is the bottleneck).
// BENCH_SECONDS (default 3) per measure, BENCH_CONNECTIONS (default 10). Always exits 0.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import pino from 'pino';
import { openDatabase } from '../src/db/client.ts';
import { buildApp } from '../src/http/app.ts';
import { buildWorld } from '../test/http/public-world.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Result {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
  bytes: number;
  /** Server CPU (this process) per request, µs. */
  cpuUs: number;
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Result> {
  const args = [autocannonBin, '-c', String(CONNECTIONS), '-d', String(SECONDS), '--json'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  const cpu0 = process.cpuUsage();
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 24 });
  const cpu = process.cpuUsage(cpu0);
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p99: number; p50: number };
    errors: number;
    non2xx: number;
    throughput: { average: number };
  };
  const total = Math.max(1, r.requests.average * SECONDS);
  return {
    rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, errors: r.errors, non2xx: r.non2xx,
    bytes: r.throughput.average / Math.max(1, r.requests.average), cpuUs: (cpu.user + cpu.system) / total,
  };
}

const database = await openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } });
const world = await buildWorld(database.db, { players: 8, turns: 4, name: 'Bench Game' });
const app = await buildApp({ db: database.db, log: pino({ level: 'silent' }) });
const base = await app.listen({ host: '127.0.0.1', port: 0 });
// The page as it goes on the wire to a browser (Brotli, once it is made: ask until it is).
let wire = await app.inject({ url: `/games/${world.gameId}`, headers: { 'accept-language': 'en', 'accept-encoding': 'gzip, deflate, br' } });
for (let i = 0; i < 500 && wire.headers['content-encoding'] !== 'br'; i++) {
  await new Promise((r) => setTimeout(r, 10));
  wire = await app.inject({ url: `/games/${world.gameId}`, headers: { 'accept-language': 'en', 'accept-encoding': 'gzip, deflate, br' } });
}
const pageBytes = wire.rawPayload;
const bare = Fastify();
bare.get('/', async () => 'ok');
// A reference, not a target: a constant as big as the compressed page, to tell the cost of the
// bytes (loopback and the load generator) from the cost of the page.
bare.get('/sized', async (_req, reply) => reply.type('text/html; charset=utf-8').header('content-encoding', String(wire.headers['content-encoding'])).send(pageBytes));
const bareBase = await bare.listen({ host: '127.0.0.1', port: 0 });

try {
  const page = `${base}/games/${world.gameId}`;
  const api = `${base}/api/games/${world.gameId}`;
  // Warm up: the first render draws the map; later ones reuse it.
  for (const u of [page, api]) await fetch(u).then((r) => r.arrayBuffer());
  const html = await (await fetch(page)).text();
  console.log(`http bench: ${CONNECTIONS} connections, ${SECONDS} s per measure, game page ${(html.length / 1024).toFixed(0)} KiB with ${html.includes('<svg') ? 'the map inline' : 'NO MAP'}`);
  // As a browser asks: language and compression.
  const browser = { 'accept-language': 'en', 'accept-encoding': 'gzip, deflate, br' };
  const targets: Array<[string, () => Promise<Result>]> = [
    ['bare route (constant)', () => measure(bareBase)],
    [`bare route, ${(pageBytes.length / 1024).toFixed(1)} KiB constant`, () => measure(`${bareBase}/sized`, browser)],
    ['game page (HTML, en)', () => measure(page, browser)],
    ['game JSON API', () => measure(api, { 'accept-encoding': 'gzip, deflate, br' })],
  ];
  const best = new Map<string, Result>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of targets) {
      const r = await run();
      if (!best.has(name) || r.rps > best.get(name)!.rps) best.set(name, r);
    }
  }
  const bareResult = best.get(targets[0]![0])!;
  for (const [name] of targets) {
    const r = best.get(name)!;
    const ratio = r.rps / bareResult.rps;
    const verdict = r === bareResult || name.startsWith('bare') ? (r === bareResult ? '' : `  ratio ${ratio.toFixed(2)} (reference)`) : `  ratio ${ratio.toFixed(2)} ${ratio >= 0.5 ? 'ok' : 'BELOW 0.5'} (CPU ratio ${(bareResult.cpuUs / r.cpuUs).toFixed(2)})  p99 ${r.p99 < 50 ? 'ok' : 'ABOVE 50 ms'}`;
    console.log(`${name.padEnd(24)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  server CPU ${r.cpuUs.toFixed(0)} µs/req  ${(r.bytes / 1024).toFixed(1)} KiB/req  errors ${r.errors} non-2xx ${r.non2xx}${verdict}`);
  }
} finally {
  await app.close();
  await bare.close();
  await database.close();
}
