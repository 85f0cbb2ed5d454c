// Crash safety of the weekly turn: the real service (`sf serve`, a child process) on
// PostgreSQL finds 50 games due at once, closes their turns and sends every edict through a slow
// SMTP relay, and is killed with SIGKILL at random moments (a seeded PRNG; at least 20 kills),
// each time restarted. At the end every turn is closed exactly once, and every player has every
// edict at least once; a mail arrives twice only when a kill fell inside its SMTP transaction, and
// then with the same Message-ID.
//
// TURN_SIGKILL_SEED=<n> replays another schedule of kills.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/dovecot.ts';
import { dueGames } from '../harness/due-games.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { ServiceProcess, sessionsGone } from '../harness/service-process.ts';
import { startSmtpCapture } from '../harness/smtp.ts';
import { Cleanups } from '../support/cleanups.ts';
import { seededRandom } from '../support/seeded-random.ts';

const GAMES = 50;
const MIN_KILLS = 20;
const SEED = Number(process.env.TURN_SIGKILL_SEED ?? 0x7e5d1e);
const DOMAIN = 'sf.example';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const cleanups = new Cleanups();
afterAll(() => cleanups.run(), 60_000);

describe('SIGKILL at random moments while 50 turns close and their edicts go out', () => {
  it('closes every turn once and delivers every edict, duplicates only with the same Message-ID', { timeout: 10 * 60_000 }, async () => {
    const random = seededRandom(SEED);
    const database = await freshDatabase();
    cleanups.push(async () => {
      await sessionsGone(database.url);
      await database.drop();
    });
    // 50 games of 4 to 8 players, created ten days ago: turn 1 is due, with most votes in.
    const { players } = await dueGames(database.url, { count: GAMES, name: 'Crash', domain: DOMAIN, votes: true });
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanups.push(() => pool.end());
    const count = async (q: string): Promise<number> => Number((await pool.query<{ n: string }>(q)).rows[0]!.n);

    // A slow relay (a tenth of a second a mail) keeps sending going through many kills.
    const smtp = await startSmtpCapture({ delayMs: 100 });
    cleanups.push(() => smtp.stop());
    const dataDir = await mkdtemp(join(tmpdir(), 'sf-turn-sigkill-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const httpPort = await freePort();
    const service = new ServiceProcess(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: process.env.TMPDIR,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(httpPort),
        MAIL_DOMAIN: DOMAIN,
        LOG_LEVEL: 'warn',
      },
      httpPort,
    );
    cleanups.push(() => service.stop('SIGKILL'));

    const done = async () =>
      (await count(`select count(*) as n from turns where number = 1 and status = 'open'`)) === 0 &&
      (await count(`select count(*) as n from outbox where kind = 'edict' and status <> 'sent'`)) === 0;
    let kills = 0;
    service.start();
    await service.waitUp();
    while (kills < MIN_KILLS || !(await done())) {
      if (kills >= MIN_KILLS) {
        await sleep(500);
        continue;
      }
      await sleep(100 + Math.floor(random() * 900));
      await service.stop('SIGKILL');
      kills++;
      service.start();
      await service.waitUp();
    }
    await service.stop('SIGTERM');

    // Every turn closed exactly once: one edict, one next turn, per game.
    expect(await count(`select count(*) as n from edicts where turn = 1 and version = 1`)).toBe(GAMES);
    expect(await count(`select count(*) as n from edicts`)).toBe(GAMES);
    expect(await count(`select count(*) as n from turns where number = 2 and status = 'open'`)).toBe(GAMES);
    expect(await count(`select count(*) as n from games where current_turn = 2`)).toBe(GAMES);

    // Every player got the edict; more than once only with the same Message-ID.
    const rows = (
      await pool.query<{ to_address: string; message_id: string; game_id: string }>(
        `select to_address, message_id, game_id from outbox where kind = 'edict'`,
      )
    ).rows;
    expect(rows).toHaveLength(players);
    const captured = smtp.messages.filter((m) => /Imperial Edict|Editto Imperiale/.test(m.subject ?? ''));
    const byRecipient = new Map<string, Set<string>>();
    for (const m of captured) {
      const key = `${m.envelope.to.join(',')} ${m.subject}`;
      byRecipient.set(key, (byRecipient.get(key) ?? new Set()).add(m.messageId ?? ''));
    }
    for (const r of rows)
      expect(
        captured.some((m) => m.messageId === `<${r.message_id}>`),
        `edict to ${r.to_address}`,
      ).toBe(true);
    expect([...byRecipient.values()].filter((ids) => ids.size > 1)).toEqual([]);
    const duplicates = captured.length - rows.length;
    console.info(
      `turn SIGKILL: ${kills} kills, ${GAMES} games, ${rows.length} edict mails, ${duplicates} resent (same Message-ID), seed ${SEED}`,
    );
    expect(duplicates).toBeLessThanOrEqual(kills * 3); // at most the mails in flight at each kill
  });
});
