// The service (`sf serve`) as a child process, for crash tests: started, killed, restarted, its
// output kept for the report.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The service as a child process, with its output kept for the report. */
export class ServiceProcess {
  child: ChildProcess | null = null;
  starts = 0;
  readonly lines: string[] = [];
  private exitPromise: Promise<number | string | null> | null = null;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly httpPort: number,
  ) {}

  start(): void {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'sf.js'), 'serve'], {
      cwd: REPO,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.starts++;
    const instance = this.starts;
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(`#${instance} ${line}`);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exitPromise = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    this.child = child;
  }

  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves when /health answers 200; throws if the process dies or takes longer than `timeoutMs`. */
  async waitUp(timeoutMs = 60_000): Promise<number> {
    const started = Date.now();
    for (;;) {
      if (!this.alive) throw new Error(`the service exited before it was up:\n${this.tail()}`);
      try {
        const res = await fetch(`http://127.0.0.1:${this.httpPort}/health`, { signal: AbortSignal.timeout(1_000) });
        if (res.ok) return Date.now() - started;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > timeoutMs) throw new Error(`the service was not up after ${timeoutMs} ms:\n${this.tail()}`);
      await sleep(50);
    }
  }

  async stop(signal: NodeJS.Signals, timeoutMs = 20_000): Promise<number | string | null> {
    const child = this.child;
    if (!child || !this.exitPromise) return null;
    if (this.alive) child.kill(signal);
    const timeout = sleep(timeoutMs).then(() => 'timeout' as const);
    const how = await Promise.race([this.exitPromise, timeout]);
    if (how === 'timeout') {
      child.kill('SIGKILL');
      await this.exitPromise;
    }
    this.child = null;
    return how;
  }

  tail(n = 40): string {
    return this.lines.slice(-n).join('\n');
  }
}

/**
 * Waits (briefly) until no session is left on the database. `pool.end()` resolves before the
 * server has let go of the connections; DROP … WITH (FORCE) would then terminate them and the
 * closing client would raise 57P01 as an unhandled error.
 */
export async function sessionsGone(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  try {
    for (let i = 0; i < 50; i++) {
      const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
      if (Number(rows[0]!.n) === 0) return;
      await sleep(100);
    }
  } finally {
    await admin.end();
  }
}
