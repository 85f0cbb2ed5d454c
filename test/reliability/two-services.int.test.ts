// Two real service processes (`sf serve`) on one PostgreSQL, through several deadlines of many
// games at once: every turn is closed once, every edict mail queued once and sent once.
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
import { eventually } from '../support/eventually.ts';

const GAMES = 12;
const DEADLINES = 3;
const DOMAIN = 'sf.example';
const cleanups = new Cleanups();
afterAll(() => cleanups.run(), 60_000);

describe('two service processes on one PostgreSQL', () => {
  it(
    `close each of ${GAMES} games' turns once through ${DEADLINES} deadlines, and send each edict once`,
    { timeout: 8 * 60_000 },
    async () => {
      const database = await freshDatabase();
      cleanups.push(async () => {
        await sessionsGone(database.url);
        await database.drop();
      });
      const { players } = await dueGames(database.url, { count: GAMES, name: 'Pair', domain: DOMAIN });
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      cleanups.push(() => pool.end());
      const count = async (q: string): Promise<number> => Number((await pool.query<{ n: string }>(q)).rows[0]!.n);
      const smtp = await startSmtpCapture();
      cleanups.push(() => smtp.stop());

      const services: ServiceProcess[] = [];
      for (let i = 0; i < 2; i++) {
        const dataDir = await mkdtemp(join(tmpdir(), `sf-two-${i}-`));
        cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
        const port = await freePort();
        const s = new ServiceProcess(
          {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            TMPDIR: process.env.TMPDIR,
            DATABASE_URL: database.url,
            DATA_DIR: dataDir,
            SMTP_URL: smtp.url,
            HTTP_HOST: '127.0.0.1',
            HTTP_PORT: String(port),
            MAIL_DOMAIN: DOMAIN,
            LOG_LEVEL: 'warn',
          },
          port,
        );
        cleanups.push(() => s.stop('SIGKILL'));
        services.push(s);
      }
      for (const s of services) s.start();
      await Promise.all(services.map((s) => s.waitUp()));

      for (let d = 1; d <= DEADLINES; d++) {
        // Every game's turn d is due now; both services race to close them.
        if (d > 1)
          await pool.query(
            `update turns set deadline = now() - interval '1 minute', declaration_deadline = now() - interval '2 minutes' where number = $1 and status = 'open'`,
            [d],
          );
        await eventually(
          async () => expect(await count(`select count(*) as n from turns where number = ${d} and status = 'open'`)).toBe(0),
          { timeoutMs: 120_000, why: `turn ${d} closed everywhere` },
        );
      }
      await eventually(async () => expect(await count(`select count(*) as n from outbox where status <> 'sent'`)).toBe(0), {
        timeoutMs: 120_000,
        why: 'every mail sent',
      });
      for (const s of services) expect(s.alive, s.tail()).toBe(true);
      await Promise.all(services.map((s) => s.stop('SIGTERM')));

      // Once each: one edict per game and turn, one next turn, one mail per player and edict, sent once.
      expect(await count(`select count(*) as n from edicts`)).toBe(GAMES * DEADLINES);
      expect(await count(`select count(*) as n from (select game_id, turn from edicts group by game_id, turn having count(*) > 1) x`)).toBe(
        0,
      );
      expect(await count(`select count(*) as n from turns where status = 'open'`)).toBe(GAMES);
      expect(await count(`select count(*) as n from audit_log where action = 'turn.close'`)).toBe(GAMES * DEADLINES);
      expect(await count(`select count(*) as n from outbox where kind = 'edict'`)).toBe(players * DEADLINES);
      const edictMails = smtp.messages.filter((m) => /Imperial Edict|Editto Imperiale/.test(m.subject ?? ''));
      expect(edictMails).toHaveLength(players * DEADLINES);
      expect(new Set(edictMails.map((m) => m.messageId)).size).toBe(edictMails.length);
    },
  );
});
