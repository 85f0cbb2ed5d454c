// `npm start`, stopped by its pid, stops the service (npm once ran the script through sh,
// passed SIGTERM to sh alone, and `node bin/sf.js serve` stayed up holding the port).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, healthy, REPO, type Running } from './serve-process.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sf-npm-start-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
});

/** The pids whose parent is `pid` (from /proc, as ps does). */
async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) found.push(Number(entry));
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('stops the service when npm is sent SIGTERM', async () => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, HTTP_PORT: String(port), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const npm = spawn('npm', ['start'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  npm.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'exit', not 'close': a service left behind would hold npm's pipes open, and 'close' never come.
  const finished = new Promise<{ code: number | null }>((resolve) => npm.once('exit', (code) => resolve({ code })));
  const running: Running = {
    child: npm,
    stderr: () => stderr,
    finished: finished.then((f) => ({ ...f, signal: null, stderr, stdout: '' })),
  };
  const service: number[] = [];
  try {
    await healthy(port, running);
    // The service: npm's child, or its grandchild below a shell (tsx's esbuild helper, one level
    // further down, ends by itself once its parent has gone, and is not the service).
    const below = await childrenOf(npm.pid!);
    for (const pid of [...below]) below.push(...(await childrenOf(pid)));
    for (const pid of below) if ((await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('bin/sf.js\0serve')) service.push(pid);
    expect(service).toHaveLength(1);

    npm.kill('SIGTERM');
    const { code } = await finished;
    // npm waits for its script to end before it exits itself: nothing of it may be left.
    expect(service.filter(alive)).toEqual([]);
    expect(code).not.toBeNull();
    // And the port is free again.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', resolve));
    probe.close();
  } finally {
    for (const pid of service.filter(alive)) process.kill(pid, 'SIGKILL');
    if (npm.exitCode === null) npm.kill('SIGKILL');
  }
});
