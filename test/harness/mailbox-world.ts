// The world of the reliability tests that run the real service on a mailbox: a Dovecot with the
// orders mailbox and its Processed folder, a fresh PostgreSQL database holding one game, and a
// pool to count rows with. Everything is handed to `cleanups`, newest first.
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';
import { createGame } from '../../src/games/index.ts';
import type { Lang } from '../../src/adjudicator/types.ts';
import type { Cleanups } from '../support/cleanups.ts';
import { startDovecot, type DovecotServer } from './dovecot.ts';
import { freshDatabase } from './postgres.ts';
import { sessionsGone } from './service-process.ts';

export interface MailboxWorld {
  dovecot: DovecotServer;
  databaseUrl: string;
  pool: pg.Pool;
  /** The number in the column `n` of the query's one row. */
  count(query: string): Promise<number>;
  /** The environment of `sf serve` reading this mailbox into this database, less its own DATA_DIR, ports and SMTP. */
  serviceEnv: Record<string, string | undefined>;
}

export async function mailboxWorld(
  cleanups: Cleanups,
  game: { name: string; players: { email: string; lang: Lang }[]; domain: string; secretOf: (i: number) => string },
): Promise<MailboxWorld> {
  const dovecot = await startDovecot();
  cleanups.push(() => dovecot.stop());
  await dovecot.addUser('orders', 'orders-secret');
  await dovecot.createMailbox('orders', 'Processed');
  const database = await freshDatabase();
  cleanups.push(async () => {
    await sessionsGone(database.url);
    await database.drop();
  });
  const setup = await openDatabase({ database: { kind: 'postgres', url: database.url } });
  try {
    let s = 0;
    await createGame(
      setup.db,
      { name: game.name, players: game.players, timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' },
      { actor: 'test', mail: { domain: game.domain, ordersLocalPart: 'orders' }, newSecret: () => game.secretOf(s++) },
    );
  } finally {
    await setup.close();
  }
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  cleanups.push(() => pool.end());
  const imap = dovecot.settings('orders');
  return {
    dovecot,
    databaseUrl: database.url,
    pool,
    count: async (q) => Number((await pool.query<{ n: string }>(q)).rows[0]!.n),
    serviceEnv: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      DATABASE_URL: database.url,
      IMAP_HOST: imap.host,
      IMAP_PORT: String(imap.port),
      IMAP_USER: imap.user,
      IMAP_PASSWORD: imap.pass,
      IMAP_SECURE: 'false',
      MAIL_DOMAIN: game.domain,
      REPLY_RATE_LIMIT_PER_HOUR: '100000',
      LOG_LEVEL: 'warn',
    },
  };
}
