// Two service processes on one PostgreSQL reading one IMAP mailbox, as an operator scales out:
// every mail is stored once, becomes one sheet version and is answered once, and when one
// instance dies (SIGKILL) mid-intake the other reads everything left, so no mail stays unread.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/dovecot.ts';
import { mailboxWorld } from '../harness/mailbox-world.ts';
import { ServiceProcess } from '../harness/service-process.ts';
import { startSmtpCapture } from '../harness/smtp.ts';
import { Cleanups } from '../support/cleanups.ts';
import { eventually } from '../support/eventually.ts';

const MAILS = 120;
const DOMAIN = 'sf.example';
const PLAYERS = ['anna', 'bruno', 'carla', 'dario'].map((n) => `${n}@example.org`);
const FACTIONS = ['Hutt', 'Aristocrats', 'Sith', 'Knights'];
const secretOf = (i: number) => `twoimap${'abcd'[i]}Q7x`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const cleanups = new Cleanups();
afterAll(() => cleanups.run(), 60_000);

/** Every body different (a vote, and a set of factions declared hostile), as each player's sheets are. */
function orderBody(n: number): string {
  const k = n >> 2;
  const hostile = FACTIONS.filter((_, b) => (k >> 2) & (1 << b));
  return [`V: ${FACTIONS[k % 4]}`, ...(hostile.length ? [`H: ${hostile.join(', ')}`] : [])].join('\r\n');
}

function orderMail(n: number): string {
  const p = n % PLAYERS.length;
  return [
    `From: <${PLAYERS[p]}>`,
    `To: orders+${secretOf(p)}@${DOMAIN}`,
    `Subject: orders ${n}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <two-imap-${n}@example.org>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    orderBody(n),
    '',
  ].join('\r\n');
}

describe('two service processes on one IMAP mailbox', () => {
  it(
    `store, read and answer each of ${MAILS} mails once, and leave none unread when one of them dies`,
    { timeout: 10 * 60_000 },
    async () => {
      const { dovecot, pool, count, serviceEnv } = await mailboxWorld(cleanups, {
        name: 'Two Readers',
        players: PLAYERS.map((email) => ({ email, lang: 'en' })),
        domain: DOMAIN,
        secretOf,
      });
      const smtp = await startSmtpCapture();
      cleanups.push(() => smtp.stop());

      const services: ServiceProcess[] = [];
      for (let i = 0; i < 2; i++) {
        const dataDir = await mkdtemp(join(tmpdir(), `sf-two-imap-${i}-`));
        cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
        const port = await freePort();
        const s = new ServiceProcess(
          { ...serviceEnv, DATA_DIR: dataDir, SMTP_URL: smtp.url, HTTP_HOST: '127.0.0.1', HTTP_PORT: String(port) },
          port,
        );
        cleanups.push(() => s.stop('SIGKILL'));
        services.push(s);
      }
      const [a, b] = services as [ServiceProcess, ServiceProcess];
      for (const s of services) s.start();
      await Promise.all(services.map((s) => s.waitUp(240_000))); // a long guard: a busy machine starts slowly

      // Mail arrives while both read; halfway, one instance is killed (and not restarted).
      for (let n = 0; n < MAILS; n++) {
        await dovecot.append('orders', 'INBOX', orderMail(n));
        if (n === MAILS / 2) {
          await eventually(async () => expect(await count('select count(*) as n from inbound_messages')).toBeGreaterThan(0), {
            timeoutMs: 120_000,
            why: 'intake under way',
          });
          expect(await a.stop('SIGKILL')).toBe('SIGKILL');
        }
        await sleep(20);
      }
      await eventually(
        async () => {
          expect(await count(`select count(*) as n from inbound_messages where status <> 'pending'`)).toBe(MAILS);
          expect(await dovecot.listUids('orders', 'INBOX')).toEqual([]);
          expect(await count(`select count(*) as n from outbox where status <> 'sent'`)).toBe(0);
        },
        { timeoutMs: 240_000, intervalMs: 500, why: 'every mail read, processed and answered by the instance left' },
      );
      expect(b.alive, b.tail()).toBe(true);
      // Read by two instances at once, a player's earlier sheet may be read after a later one: it is
      // then stored as superseded, and the player told so (D-MAIL-20); each mail is one or the other.
      const outcomes = (
        await pool.query<{ status: string; outcome: string; n: string }>(
          'select status, outcome, count(*) as n from inbound_messages group by 1, 2',
        )
      ).rows;
      const sheetsRead = Number(outcomes.find((o) => o.outcome === 'sheet')?.n ?? 0);
      for (const o of outcomes)
        expect([o.status, o.outcome], b.tail()).toEqual(o.outcome === 'sheet' ? ['processed', 'sheet'] : ['rejected', 'superseded']);
      expect(await b.stop('SIGTERM', 120_000)).toBe(0);

      expect(await count('select count(*) as n from inbound_messages')).toBe(MAILS);
      expect(await count('select count(distinct message_id) as n from inbound_messages')).toBe(MAILS);
      expect(await count('select count(*) as n from sheets')).toBe(sheetsRead);
      expect(await count('select count(distinct inbound_id) as n from sheets')).toBe(sheetsRead);
      // One answer a mail: an acknowledgement, or the note that a later sheet stands.
      expect(await count(`select count(*) as n from outbox where kind <> 'welcome'`)).toBe(MAILS);
      expect(await count(`select count(distinct dedupe_key) as n from outbox where kind <> 'welcome'`)).toBe(MAILS);
      expect((await dovecot.listUids('orders', 'Processed')).length).toBe(MAILS);
      // Answered once each: a mail the killed instance had in the relay's hands may go again, with its Message-ID.
      const acks = (await pool.query<{ message_id: string }>(`select message_id from outbox where kind <> 'welcome'`)).rows.map(
        (r) => `<${r.message_id}>`,
      );
      const delivered = smtp.messages.map((m) => m.messageId);
      expect(new Set(delivered.filter((id) => acks.includes(id ?? ''))).size).toBe(MAILS);
    },
  );
});
