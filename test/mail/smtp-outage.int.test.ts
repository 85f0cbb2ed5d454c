// The SMTP relay refusing connections for a while: the outbox keeps every mail, retries with
// backoff, and delivers everything once the relay is back. Nothing lost, nothing sent twice.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { enqueueMany, listOutbox } from '../../src/db/outbox.ts';
import { sendDueMail } from '../../src/mail/send/outbox-sender.ts';
import { createSmtpTransport } from '../../src/mail/send/smtp-transport.ts';
import { freePort } from '../harness/dovecot.ts';
import { startSmtpCapture, type SmtpCapture } from '../harness/smtp.ts';

const log = pino({ level: 'silent' });
let database: Database;
let smtp: SmtpCapture | null = null;
beforeAll(async () => {
  database = await openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } });
}, 120_000);
afterAll(async () => {
  await smtp?.stop();
  await database?.close();
});

describe('an SMTP outage', () => {
  it('delivers every mail after the relay comes back, each once', async () => {
    const db = database.db;
    const port = await freePort();
    const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, log);
    const mails = Array.from({ length: 12 }, (_, i) => ({
      kind: 'edict',
      gameId: null,
      toAddress: `p${i}@example.org`,
      subject: `Edict ${i}`,
      messageId: `outage-${i}@sf.test`,
      bodyText: `Edict ${i}`,
      dedupeKey: `outage:${i}`,
    }));
    await enqueueMany(db, mails);
    let t = Date.now(); // rows are due from the database's now
    const now = () => new Date(t);
    try {
      // Down: every attempt fails, and the mail waits (1, 2, 4 … minutes), never given up so soon.
      for (let i = 0; i < 4; i++) {
        expect(await sendDueMail({ db, transport, from: 'orders@sf.test', log, now }, 50)).toBe(0);
        t += 10 * 60_000;
      }
      const waiting = await listOutbox(db);
      expect(waiting.map((m) => [m.status, m.attempts > 0, Boolean(m.lastError)])).toEqual(mails.map(() => ['pending', true, true]));

      // Back: everything goes out, once.
      smtp = await startSmtpCapture({ port });
      t += 60 * 60_000;
      let total = 0;
      for (let i = 0; i < 5 && total < mails.length; i++)
        total += await sendDueMail({ db, transport, from: 'orders@sf.test', log, now }, 50);
      expect(total).toBe(mails.length);
      expect((await listOutbox(db)).every((m) => m.status === 'sent')).toBe(true);
      expect(smtp.messages.map((m) => m.messageId).sort()).toEqual(mails.map((m) => `<${m.messageId}>`).sort());
    } finally {
      await transport.close();
    }
  });
});
