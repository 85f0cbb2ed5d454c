// One owner for the embedded database, end to end with the real `sf serve` and `sf`
// commands as child processes on one temp DATA_DIR: with the service running, every command goes
// through its control socket and the service sees the change at once; a second service refuses
// to start; without a service, commands take turns on the lock (one waits, saying so) and no
// game is lost.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDatabase } from '../../src/control/db-lock.ts';
import { freePort } from '../harness/dovecot.ts';
import { Cleanups } from '../support/cleanups.ts';
import { eventually } from '../support/eventually.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const cleanups = new Cleanups();
afterAll(() => cleanups.run());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(env: NodeJS.ProcessEnv, args: string[], onStderr?: (all: string) => void): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, ['bin/sf.js', ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    onStderr?.(stderr);
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

const PLAYERS = 'ann@example.com,bob@example.com,cy@example.com,di@example.com';

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sf-owner-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('with the service running', () => {
  let env: NodeJS.ProcessEnv;
  let base: string;
  let service: ReturnType<typeof start>;
  const sf = (...args: string[]) => start(env, args).done;
  const status = async (game: string) => {
    const res = await fetch(`${base}/games/${game}/status`);
    return { code: res.status, body: (await res.json()) as { ordersReceived?: Record<string, string> } };
  };

  beforeAll(async () => {
    const port = await freePort();
    env = { DATA_DIR: await newDataDir(), HTTP_PORT: String(port), LOG_LEVEL: 'warn', MAIL_DOMAIN: 'sf.example', DATABASE_URL: '' };
    base = `http://127.0.0.1:${port}`;
    service = start(env, ['serve']);
    cleanups.push(async () => {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
    });
    await eventually(async () => expect((await fetch(`${base}/health`)).ok).toBe(true), {
      timeoutMs: 90_000,
      intervalMs: 250,
      why: 'the service answers',
    });
    await eventually(() => expect(existsSync(join(env.DATA_DIR!, 'sf.sock'))).toBe(true), { why: 'the control socket is there' });
  });

  it('creates, joins, lists and ingests through the service, which sees each change at once', async () => {
    const created = await sf(
      'game',
      'create',
      '--name',
      'Owner Galaxy',
      '--players',
      PLAYERS,
      '--tz',
      'Europe/Rome',
      '--deadline',
      'sun 20:00',
      '--show-secrets',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    const game = JSON.parse(created.stdout) as {
      game: { id: string };
      players: Array<{ faction: string; email: string; lang: string; address: string }>;
    };
    expect(game.game.id).toBe('owner-galaxy');
    expect(game.players.map((p) => p.lang)).toEqual(['en', 'en', 'en', 'en']); // English unless the game says otherwise
    expect((await status('owner-galaxy')).code).toBe(200);

    const joined = await sf('game', 'join', 'owner-galaxy', 'eve@example.com');
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain('eve@example.com joins owner-galaxy as merchants');

    const listed = await sf('game', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^owner-galaxy .* 5 players /m);

    const hutt = game.players[0]!;
    const mail = join(env.DATA_DIR!, 'orders.eml');
    await writeFile(
      mail,
      `From: ${hutt.email}\r\nTo: ${hutt.address}\r\nSubject: orders\r\nMessage-ID: <owner-1@example.com>\r\n\r\nV: Hutt\r\n`,
    );
    const ingested = await sf('ingest', mail);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(JSON.parse(ingested.stdout)).toMatchObject({ duplicate: false, status: 'processed', outcome: 'sheet' });
    expect((await status('owner-galaxy')).body.ordersReceived).toMatchObject({ hutt: 'valid', aristocrats: 'none' });

    const shown = await sf('game', 'show', 'owner-galaxy');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('merchants    eve@example.com  (en)');
    expect(shown.stdout).not.toMatch(/secret \S/); // only with --show-secrets
    expect(shown.stdout).toContain('(secrets and private addresses: --show-secrets)');
  });

  it('adds an observer, and runs the referee’s dispute commands through the service too: pause, resume (the same code as the console)', async () => {
    const observed = await sf('game', 'observe', 'owner-galaxy', 'Fan@Example.org', '--lang', 'it');
    expect(observed.code, observed.stderr).toBe(0);
    expect(observed.stdout).toContain('fan@example.org now observes owner-galaxy');
    expect((await sf('game', 'observe', 'owner-galaxy', 'not-an-address')).code).not.toBe(0);
    const replayed = await sf('turn', 'replay', 'owner-galaxy');
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('owner-galaxy: 0 turns replayed');
    const paused = await sf('referee', 'pause', 'owner-galaxy', '--reason', 'a dispute to settle');
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain('owner-galaxy is paused');
    expect((await sf('referee', 'pause', 'owner-galaxy', '--reason', 'again')).code).not.toBe(0);
    const resumed = await sf('referee', 'resume', 'owner-galaxy', '--reason', 'settled');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/runs again, due 20\d\d-/);
    const amend = await sf('referee', 'amend', 'owner-galaxy', '1', '--advance', 'I8=L8', '--reason', 'x');
    expect(amend.code).not.toBe(0);
    expect(amend.stderr.trim().split('\n')).toHaveLength(1);
    expect(amend.stderr).toContain('has not been adjudicated');
  });
  it('says what is wrong in one line, in the flags’ terms, through the service too', async () => {
    const cet = await sf('game', 'create', '--name', 'Zone', '--players', PLAYERS, '--tz', 'CET', '--deadline', 'sun 20:00');
    expect(cet.code).toBe(2);
    expect(cet.stderr).toBe(
      "sf game create: --tz: CET is another name for Europe/Brussels: write that, or your own city's zone (like Europe/Rome)\n",
    );
    const empty = await sf('game', 'create', '--name', '', '--players', PLAYERS, '--tz', 'Europe/Rome', '--deadline', 'sun 20:00');
    expect(empty.stderr).toBe('sf game create: --name: must not be empty\n');
    const noGame = await sf('game', 'show', 'nowhere');
    expect(noGame.code).toBe(2);
    expect(noGame.stderr).toBe('sf game show: there is no game "nowhere" (sf game list shows them)\n');
  });

  it('a second service on the same DATA_DIR refuses at once with one line', async () => {
    const second = await start({ ...env, HTTP_PORT: String(await freePort()) }, ['serve']).done;
    expect(second.code).not.toBe(0);
    const lines = second.stderr.trim().split('\n');
    expect(lines, second.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/another sf serve \(pid \d+\) already uses DATA_DIR/);
    expect((await fetch(`${base}/health`)).ok).toBe(true); // the first one carries on
  });

  it('stopping the service lets go of the lock and the socket; the games are all there', async () => {
    service.child.kill('SIGTERM');
    expect((await service.done).code).toBe(0);
    expect(existsSync(join(env.DATA_DIR!, 'sf.sock'))).toBe(false);
    expect(existsSync(join(env.DATA_DIR!, 'db.lock'))).toBe(false);
    const listed = await sf('game', 'list'); // now on the database directly
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^owner-galaxy .* 5 players /m);
  });
});

describe('without a service', () => {
  it('a command waits, saying for whom, while another holds the database, then does its work', async () => {
    const env = { DATA_DIR: await newDataDir(), LOG_LEVEL: 'warn', DATABASE_URL: '' };
    // This test holds the lock, as another `sf` command would.
    const held = await lockDatabase(join(env.DATA_DIR, 'db'), { role: 'cli', what: 'sf game create' });
    let release: Promise<void> | null = null;
    const waiting = start(
      env,
      ['game', 'create', '--name', 'Patient', '--players', PLAYERS, '--tz', 'Europe/Rome', '--deadline', 'sun 20:00'],
      (err) => {
        if (err.includes('waiting for') && !release) release = held.release();
      },
    );
    const r = await waiting.done;
    expect(release).not.toBeNull();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`waiting for another sf command (pid ${process.pid}, sf game create) to finish …\n`);
    expect(r.stdout).toContain('created game patient');
  });

  it('two commands at once both succeed and no game is lost', async () => {
    const env = { DATA_DIR: await newDataDir(), LOG_LEVEL: 'warn', DATABASE_URL: '' };
    const create = (name: string) =>
      start(env, ['game', 'create', '--name', name, '--players', PLAYERS, '--tz', 'Europe/Rome', '--deadline', 'sun 20:00']).done;
    const [a, b] = await Promise.all([create('First'), create('Second')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const listed = await start(env, ['game', 'list']).done;
    expect(listed.stdout).toMatch(/^first /m);
    expect(listed.stdout).toMatch(/^second /m);
    expect((await stat(join(env.DATA_DIR, 'db'))).isDirectory()).toBe(true);
    expect(existsSync(join(env.DATA_DIR, 'db.lock'))).toBe(false);
  });
});

describe('after a crash', () => {
  it('a service killed with SIGKILL leaves a lock the next command takes over, with every game there', async () => {
    const port = await freePort();
    const env = { DATA_DIR: await newDataDir(), HTTP_PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '' };
    const service = start(env, ['serve']);
    cleanups.push(async () => {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
    });
    await eventually(() => expect(existsSync(join(env.DATA_DIR, 'sf.sock'))).toBe(true), {
      timeoutMs: 90_000,
      intervalMs: 250,
      why: 'the control socket is there',
    });
    const created = await start(env, [
      'game',
      'create',
      '--name',
      'Survivor',
      '--players',
      PLAYERS,
      '--tz',
      'Europe/Rome',
      '--deadline',
      'sun 20:00',
    ]).done;
    expect(created.code, created.stderr).toBe(0);
    service.child.kill('SIGKILL');
    await service.done;
    expect(existsSync(join(env.DATA_DIR, 'db.lock'))).toBe(true); // nobody removed it

    const listed = await start(env, ['game', 'list']).done;
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^survivor /m);
    expect(listed.stderr).toMatch(/^(waiting for the lock left by a service that stopped \(pid \d+\) to expire \(at most 3 s\) …\n)?$/);
  });
});
