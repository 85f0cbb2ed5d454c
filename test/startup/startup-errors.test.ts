// Start-up failures in the operator's words: one line naming the cause and the variable
// to change. The real processes are spawned in startup.int.test.ts; here, the wording and the
// retry policy, without a server.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { MigrationError } from '../../src/db/client.ts';
import { connectWithRetry, isTransient } from '../../src/db/retry.ts';
import { checkDirectories, describeStartupError } from '../../src/startup-errors.ts';

const errno = (code: string, message = code, extra: object = {}) => Object.assign(new Error(message), { code, ...extra });
const pgConfig = loadConfig({ DATABASE_URL: 'postgres://sf@db.example.org:5433/sf', DATABASE_PASSWORD: 'hunter2', HTTP_PORT: '8081' });
const pgliteConfig = loadConfig({ DATA_DIR: '/srv/sf' });

/**
 * checkDirectories(DATA_DIR=dir) in a child process, as "nobody" when the tests run as root (as CI
 * does: root writes anywhere, a container's service user does not): the error's message, or "ok".
 */
async function checkDirectoriesAsUnprivileged(dir: string): Promise<string> {
  const repo = new URL('../../', import.meta.url);
  const script = `
    const { loadConfig } = await import(${JSON.stringify(new URL('src/config.ts', repo).href)});
    const { checkDirectories } = await import(${JSON.stringify(new URL('src/startup-errors.ts', repo).href)});
    await checkDirectories(loadConfig({ DATA_DIR: process.argv[1] })).then(() => console.log('ok'), (e) => console.log(e.message));`;
  const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], {
    cwd: repo,
    env: { PATH: process.env.PATH },
    ...nobody,
  });
  return stdout.trim();
}

describe('describeStartupError', () => {
  it('names the variable to change for each cause, in one line, never the password', () => {
    const cases: [unknown, typeof pgConfig, string][] = [
      [
        errno('EADDRINUSE', 'listen EADDRINUSE: address already in use 127.0.0.1:8081'),
        pgConfig,
        'HTTP port 8081 on 127.0.0.1 is already in use: stop what uses it, or set HTTP_PORT',
      ],
      [errno('EADDRNOTAVAIL'), pgConfig, 'set HTTP_HOST'],
      [errno('EACCES', 'listen EACCES', { syscall: 'listen' }), pgConfig, 'set HTTP_PORT to 1024 or above'],
      [
        errno('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:5433'),
        pgConfig,
        'database unreachable at db.example.org:5433/sf (ECONNREFUSED): start PostgreSQL, or set DATABASE_URL',
      ],
      [new Error('Connection terminated unexpectedly'), pgConfig, 'database unreachable at db.example.org:5433/sf'],
      [
        errno('28P01', 'password authentication failed for user "sf"'),
        pgConfig,
        'refused the login (password authentication failed for user "sf"): set the user in DATABASE_URL and the password in DATABASE_PASSWORD',
      ],
      [
        errno('3D000', 'database "sf" does not exist'),
        pgConfig,
        'the database at db.example.org:5433/sf does not exist: create it, or set DATABASE_URL',
      ],
      [
        new MigrationError(errno('42P07', 'relation "games" already exists')),
        pgConfig,
        'could not bring the database at db.example.org:5433/sf up to date (42P07 relation "games" already exists): repair it or restore a backup, or set DATABASE_URL to another database',
      ],
      [
        new MigrationError(new Error('Failed query: CREATE x', { cause: new Error('syntax error\nat line 3') })),
        pgliteConfig,
        'could not bring the embedded database in /srv/sf/db up to date (syntax error): repair it or restore a backup, or set DATA_DIR to another database',
      ],
      [
        new Error('RuntimeError: Aborted(). Build with -sASSERTIONS for more info.\n' + 'x'.repeat(10_000)),
        pgliteConfig,
        'the embedded database in /srv/sf/db could not be opened',
      ],
      [new Error('something else\n    at stack (file.ts:1:1)'), pgliteConfig, 'could not start: something else'],
    ];
    for (const [err, config, text] of cases) {
      const line = describeStartupError(err, config);
      expect(line).toContain(text);
      expect(line).not.toContain('\n');
      expect(line).not.toContain('hunter2');
      expect(line.length).toBeLessThan(500);
    }
  });
});

describe('connectWithRetry', () => {
  const fakeClock = () => {
    let t = 0;
    const waits: number[] = [];
    return { now: () => t, sleep: async (ms: number) => void (waits.push(ms), (t += ms)), waits };
  };

  it('retries a server that is not there yet with growing waits, and returns once it answers', async () => {
    const clock = fakeClock();
    let calls = 0;
    const result = await connectWithRetry(
      async () => {
        if (++calls < 5) throw errno('ECONNREFUSED');
        return 'connected';
      },
      { retryForMs: 60_000, ...clock },
    );
    expect(result).toBe('connected');
    expect(clock.waits).toEqual([500, 1000, 2000, 4000]);
  });

  it('gives up with the last error once the time is spent', async () => {
    const clock = fakeClock();
    await expect(
      connectWithRetry(() => Promise.reject(errno('ECONNREFUSED', 'refused')), { retryForMs: 10_000, maxDelayMs: 4000, ...clock }),
    ).rejects.toThrow('refused');
    expect(clock.waits).toEqual([500, 1000, 2000, 4000, 2500]);
  });

  it('never retries what waiting cannot fix, nor anything when told 0', async () => {
    for (const [err, retryForMs] of [
      [errno('28P01'), 60_000],
      [new MigrationError(new Error('bad sql')), 60_000],
      [errno('ECONNREFUSED'), 0],
    ] as const) {
      const clock = fakeClock();
      let calls = 0;
      await expect(connectWithRetry(() => (calls++, Promise.reject(err)), { retryForMs, ...clock })).rejects.toBe(err);
      expect(calls).toBe(1);
    }
  });

  it('tells transient errors apart', () => {
    expect(isTransient(errno('57P03'))).toBe(true);
    expect(isTransient(new AggregateError([errno('ECONNREFUSED')]))).toBe(true);
    expect(isTransient(errno('42601'))).toBe(false);
    expect(isTransient('ECONNREFUSED')).toBe(false);
  });
});

describe('checkDirectories', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const temp = async () => {
    const d = await mkdtemp(path.join(tmpdir(), 'sf-startup-'));
    dirs.push(d);
    return d;
  };

  it('creates a missing DATA_DIR and leaves nothing behind', async () => {
    const dir = path.join(await temp(), 'a', 'b');
    await checkDirectories(loadConfig({ DATA_DIR: dir }));
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a DATA_DIR that is a file, or inside one', async () => {
    const file = path.join(await temp(), 'file');
    await writeFile(file, '');
    await expect(checkDirectories(loadConfig({ DATA_DIR: file }))).rejects.toThrow(
      `DATA_DIR ${file} is a file, not a directory: set DATA_DIR to a directory`,
    );
    await expect(checkDirectories(loadConfig({ DATA_DIR: path.join(file, 'sub') }))).rejects.toThrow(
      /^DATA_DIR .* lies below a file, not a directory \(ENOTDIR\): set DATA_DIR to a directory$/,
    );
  });

  it('checks a MAILDIR outside DATA_DIR too, unless IMAP is used', async () => {
    const file = path.join(await temp(), 'maildir-file');
    await writeFile(file, '');
    const data = await temp();
    await expect(checkDirectories(loadConfig({ DATA_DIR: data, MAILDIR: file }))).rejects.toThrow('MAILDIR');
    await checkDirectories(loadConfig({ DATA_DIR: data, MAILDIR: file, IMAP_HOST: 'h', IMAP_USER: 'u', IMAP_PASSWORD: 'p' }));
  });

  it('refuses a DATA_DIR it cannot write', async () => {
    const parent = await temp();
    await chmod(parent, 0o755);
    const dir = path.join(parent, 'read-only');
    await mkdir(dir, { mode: 0o555 });
    expect(await checkDirectoriesAsUnprivileged(dir)).toMatch(/^DATA_DIR .*\/read-only is not writable by this user \(EACCES\)/);
  });
});
