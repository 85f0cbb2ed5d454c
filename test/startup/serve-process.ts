// Spawns the real `sf serve` (as `npm start` and the Dockerfile do) with a temporary environment,
// for the start-up and signal tests. Nothing here waits on a clock: callers wait for an event
// (exit, /health answering), bounded by the test's own timeout.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

export const SF_BIN = new URL('../../bin/sf.js', import.meta.url).pathname;
export const REPO = new URL('../../', import.meta.url).pathname;

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  stdout: string;
}

export interface Running {
  child: ChildProcess;
  stderr(): string;
  finished: Promise<Finished>;
}

/**
 * The environment a test service runs with: only what it needs, nothing from the developer's shell.
 * Its own HTTP_PORT and DATA_DIR always: the defaults (8080, ./data) may belong to a service the
 * developer runs beside the tests, and a test on them fails, or worse, writes into that one.
 */
export function serviceEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  for (const name of ['HTTP_PORT', 'DATA_DIR']) {
    if (!vars[name]) throw new Error(`a test service needs its own ${name}, never the default`);
  }
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...vars };
}

export function spawnService(vars: Record<string, string>, options: SpawnOptions = {}, argv = [SF_BIN, 'serve']): Running {
  const child = spawn(process.execPath, argv, { cwd: REPO, env: serviceEnv(vars), stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const finished = new Promise<Finished>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr, stdout })));
  return { child, stderr: () => stderr, finished };
}

/** The lines of stderr that are not pino's JSON log lines: what an operator reads. */
export const plainLines = (stderr: string) => stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/** Resolves once GET /health answers 200; rejects if the process ends first. */
export async function healthy(port: number, running: Running): Promise<void> {
  let ended = false;
  void running.finished.then(() => (ended = true));
  for (;;) {
    if (ended) throw new Error(`the service ended before answering /health:\n${running.stderr()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
