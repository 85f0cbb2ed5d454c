// Exactly once when PostgreSQL blinks: the connection is cut at the exact step (a trigger ends
// its own session, test/harness/pg-cut.ts) while a mail is stored, and while a mail the relay took
// is recorded as sent. Nothing is stored twice, nothing is sent twice.
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { storeInboundBatch, type InboundArrival } from '../../src/db/inbound.ts';
import { enqueue, findOutbox } from '../../src/db/outbox.ts';
import { inboundMessages } from '../../src/db/schema.ts';
import { sendDueMail } from '../../src/mail/send/outbox-sender.ts';
import { createSmtpTransport } from '../../src/mail/send/smtp-transport.ts';
import { cutAt, type Cut } from '../harness/pg-cut.ts';
import { freshDatabaseForSuite } from '../harness/postgres.ts';
import { startSmtpCapture, type SmtpCapture } from '../harness/smtp.ts';

const log = pino({ level: 'silent' });
const suite = freshDatabaseForSuite();
let database: Database;
let smtp: SmtpCapture;
beforeAll(async () => {
  database = await suite.open();
  smtp = await startSmtpCapture();
}, 120_000);
afterAll(async () => {
  await smtp?.stop();
  await database?.close();
});

const orderMail = (id: string) =>
  Buffer.from(`From: anna@example.org\r\nTo: orders@sf.example\r\nSubject: orders\r\nMessage-ID: <${id}>\r\n\r\nV: Sith\r\n`, 'latin1');
const arrival = (sourceKey: string, raw: Buffer): InboundArrival => ({ source: 'imap', sourceKey, raw });

describe('a connection cut while a mail is stored', () => {
  let cut: Cut;
  beforeAll(async () => {
    cut = await cutAt(suite.url(), 'store', 'inbound_messages', 'insert');
  });
  afterAll(() => cut?.close());

  it('fails the store, which the retry makes once, with its Message-ID: a second delivery of the mail is a duplicate', async () => {
    const raw = orderMail('blink-store@example.org');
    await cut.arm(1);
    await expect(storeInboundBatch(database.db, [arrival('imap:1:1', raw)])).rejects.toThrow();
    expect(await cut.cuts()).toBe(1);
    // The source retries the batch: stored now, with its Message-ID.
    const [again] = await storeInboundBatch(database.db, [arrival('imap:1:1', raw)]);
    expect(again!.duplicate).toBe(false);
    // The same mail delivered again (a copy to another address): recognised by Message-ID and body.
    const [copy] = await storeInboundBatch(database.db, [arrival('imap:1:2', raw)]);
    expect(copy).toEqual({ id: again!.id, duplicate: true });
    const rows = await database.db.select({ messageId: inboundMessages.messageId }).from(inboundMessages);
    expect(rows).toEqual([{ messageId: 'blink-store@example.org' }]);
  });

  it('a batch cut in the middle is stored whole by the retry, each mail once', async () => {
    const mails = [1, 2, 3].map((n) => arrival(`imap:1:${10 + n}`, orderMail(`blink-batch-${n}@example.org`)));
    const before = await cut.cuts();
    await cut.arm(1);
    await expect(storeInboundBatch(database.db, mails)).rejects.toThrow();
    expect(await cut.cuts()).toBe(before + 1);
    const stored = await storeInboundBatch(database.db, mails);
    expect(stored.map((s) => s.duplicate)).toEqual([false, false, false]);
    for (const n of [1, 2, 3]) {
      const rows = await database.db
        .select()
        .from(inboundMessages)
        .where(eq(inboundMessages.messageId, `blink-batch-${n}@example.org`));
      expect(rows).toHaveLength(1);
    }
  });
});

describe('a connection cut while a mail the relay took is recorded as sent', () => {
  let cut: Cut;
  beforeAll(async () => {
    cut = await cutAt(suite.url(), 'sent', 'outbox', 'update', `new.status = 'sent'`);
  });
  afterAll(() => cut?.close());

  const letter = (key: string) => ({
    kind: 'ack',
    gameId: null,
    toAddress: `${key}@example.org`,
    subject: key,
    messageId: `${key}@sf.example`,
    bodyText: 'received',
    dedupeKey: key,
  });
  const sentTo = (key: string) => smtp.messages.filter((m) => m.messageId === `<${key}@sf.example>`).length;

  async function sendThrough(key: string, cuts: number, markRetryMs: number[]): Promise<void> {
    const { mail } = await enqueue(database.db, letter(key));
    const transport = createSmtpTransport(smtp.url, log);
    let t = Date.now() + 1_000;
    const deps = { db: database.db, transport, from: 'orders@sf.example', log, now: () => new Date(t), markRetryMs };
    const before = await cut.cuts();
    try {
      await cut.arm(cuts);
      expect(await sendDueMail(deps)).toBe(1);
      // Long after the lease and any backoff: a mail recorded as anything but sent would go again.
      for (const later of [2, 10, 60]) {
        t = Date.now() + later * 60_000;
        expect(await sendDueMail(deps)).toBe(0);
      }
      expect(await cut.cuts()).toBe(before + cuts);
      expect(await findOutbox(database.db, mail.id)).toMatchObject({ status: 'sent' });
      expect(sentTo(key)).toBe(1);
    } finally {
      await transport.close();
    }
  }

  it('records it on a retry, and never sends it again', async () => {
    await sendThrough('blink-sent-once', 1, [50, 50]);
  });

  it('keeps it as sent in memory while the database stays away, records it first when it is back, and never sends it again', async () => {
    await sendThrough('blink-sent-long', 3, [50, 50]);
  });
});

describe('a connection lost inside a transaction', () => {
  it('is the error thrown, not the ROLLBACK that failed after it on the dead connection', async () => {
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
      })
      .catch((err: unknown) => err);
    const cause = (failure as Error & { cause?: { code?: string } }).cause ?? failure;
    expect((cause as { code?: string }).code, String(failure)).toBe('57P01');
    // The pool carries on with a new connection.
    expect(await database.db.execute(sql`select 1 as one`)).toBeTruthy();
  });
});
