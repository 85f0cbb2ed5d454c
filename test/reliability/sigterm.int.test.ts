// SIGTERM stops the service in every state (`docker compose stop`, Ctrl-C on `npm start`): the
// real service (`sf serve`, a child process) exits with 0 once it has closed a turn and drawn its
// map (and hashed a login), on the embedded database and on PostgreSQL, and while many games close at once. The guard
// on each stop only catches a hang (a process that never exits); it is no time budget.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/dovecot.ts';
import { dueGames } from '../harness/due-games.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { ServiceProcess, sessionsGone } from '../harness/service-process.ts';
import { startSmtpCapture, type SmtpCapture } from '../harness/smtp.ts';
import { Cleanups } from '../support/cleanups.ts';
import { eventually } from '../support/eventually.ts';

const DOMAIN = 'sf.example';
/** Far beyond a clean stop, even on a busy machine: only a process that never exits reaches it. */
const HANG_GUARD_MS = 120_000;
const cleanups = new Cleanups();
afterAll(() => cleanups.run(), 60_000);

const edictMails = (smtp: SmtpCapture) => smtp.messages.filter((m) => /Imperial Edict|Editto Imperiale/.test(m.subject ?? '')).length;

/** A wrong password posted to the referee console (with its CSRF token): its hash runs on the hashing thread. */
async function failedLogin(base: string): Promise<number> {
  const form = await fetch(`${base}/referee/login`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${base}/referee/login`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, email: 'guess@example.org', password: 'not the password' }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}

async function service(env: NodeJS.ProcessEnv, smtp: SmtpCapture, dataDir: string, port?: number): Promise<ServiceProcess> {
  const httpPort = port ?? (await freePort());
  const s = new ServiceProcess(
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(httpPort),
      MAIL_DOMAIN: DOMAIN,
      LOG_LEVEL: 'warn',
      ...env,
    },
    httpPort,
  );
  cleanups.push(() => s.stop('SIGKILL'));
  return s;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sf-sigterm-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function postgres(): Promise<string> {
  const database = await freshDatabase();
  cleanups.push(async () => {
    await sessionsGone(database.url);
    await database.drop();
  });
  return database.url;
}

describe('SIGTERM', () => {
  it('ends the service with exit code 0 after a closed turn, on the embedded database', { timeout: 6 * 60_000 }, async () => {
    const dataDir = await tempDir();
    const { players } = await dueGames({ pgliteDir: join(dataDir, 'db') }, { count: 2, name: 'Quiet', domain: DOMAIN });
    const smtp = await startSmtpCapture();
    cleanups.push(() => smtp.stop());
    const httpPort = await freePort();
    const s = await service({}, smtp, dataDir, httpPort);
    s.start();
    await s.waitUp();
    // Every edict sent: the turns closed and their maps were drawn.
    await eventually(() => expect(edictMails(smtp)).toBe(players), { timeoutMs: 240_000, why: 'every edict sent' });
    // And a login was hashed: the hashing thread, idle now, must not hold the process either.
    expect(await failedLogin(`http://127.0.0.1:${httpPort}`)).toBe(401);
    expect(await s.stop('SIGTERM', HANG_GUARD_MS), s.tail()).toBe(0);
  });

  it('ends the service with exit code 0 after a closed turn, on PostgreSQL', { timeout: 6 * 60_000 }, async () => {
    const url = await postgres();
    const { players } = await dueGames(url, { count: 2, name: 'Quiet', domain: DOMAIN });
    const smtp = await startSmtpCapture();
    cleanups.push(() => smtp.stop());
    const s = await service({ DATABASE_URL: url }, smtp, await tempDir());
    s.start();
    await s.waitUp();
    await eventually(() => expect(edictMails(smtp)).toBe(players), { timeoutMs: 240_000, why: 'every edict sent' });
    expect(await s.stop('SIGTERM', HANG_GUARD_MS), s.tail()).toBe(0);
  });

  it('ends the service with exit code 0 in a deadline storm, every turn closed whole or not at all', { timeout: 6 * 60_000 }, async () => {
    const GAMES = 40;
    const url = await postgres();
    await dueGames(url, { count: GAMES, name: 'Storm', domain: DOMAIN, votes: true });
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    cleanups.push(() => pool.end());
    const count = async (q: string): Promise<number> => Number((await pool.query<{ n: string }>(q)).rows[0]!.n);
    const smtp = await startSmtpCapture({ delayMs: 50 });
    cleanups.push(() => smtp.stop());
    const s = await service({ DATABASE_URL: url }, smtp, await tempDir());
    s.start();
    await s.waitUp();
    // In the middle of the storm: some turns closed (maps drawn), others still to close.
    await eventually(async () => expect(await count(`select count(*) as n from edicts`)).toBeGreaterThan(0), {
      timeoutMs: 240_000,
      why: 'a first turn closed',
    });
    const closedBefore = await count(`select count(*) as n from edicts`);
    expect(await s.stop('SIGTERM', HANG_GUARD_MS), s.tail()).toBe(0);
    // What stopped, stopped cleanly: each game has its edict and turn 2, or neither.
    const edicts = await count(`select count(*) as n from edicts`);
    expect(edicts).toBeGreaterThanOrEqual(closedBefore);
    expect(await count(`select count(*) as n from turns where number = 2`)).toBe(edicts);
    expect(await count(`select count(*) as n from turns where number = 1 and status = 'open'`)).toBe(GAMES - edicts);
  });
});
