// The outbox sender on PGlite, writing real .eml files: attachments read once per batch, every
// mail sent once, a claim handed back rather than sent late.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { putAssets } from '../../src/db/assets.ts';
import type { Database, Db } from '../../src/db/client.ts';
import { insertGame } from '../../src/db/games.ts';
import { enqueueMany, findOutbox, listOutbox, type OutboxInput } from '../../src/db/outbox.ts';
import { mailAssets } from '../../src/db/schema.ts';
import { SEND_LEASE_MS, sendAllDue, sendDueMail } from '../../src/mail/send/outbox-sender.ts';
import { createFileTransport } from '../../src/mail/send/file-transport.ts';
import type { MailTransport } from '../../src/mail/send/types.ts';
import { addReferee, assignReferee } from '../../src/referee/accounts.ts';
import { plainGame } from '../db/tables.ts';
import { openTestPglite } from '../harness/pglite.ts';

/** One file stored as the edict's are (putAssets), its id. */
const putAssetOf = async (db: Db, contentType: string, bytes: Buffer) => (await putAssets(db, [{ contentType, bytes }]))[0]!;

const log = pino({ level: 'silent' });
let database: Database;
const dir = mkdtempSync(join(tmpdir(), 'sf-outbox-'));
beforeAll(async () => {
  database = await openTestPglite();
});
afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

const mail = (i: number, attachments: OutboxInput['attachments'] = null): OutboxInput => ({
  kind: 'edict',
  gameId: null,
  toAddress: `p${i}@example.org`,
  subject: `Edict ${i}`,
  messageId: `m${i}-${Math.random()}@sf.test`,
  bodyText: `Edict for ${i}`,
  bodyHtml: '<p><img src="cid:map@sf" alt="map"></p>',
  attachments,
  dedupeKey: `k${i}-${Math.random()}`,
});

describe('sendDueMail', () => {
  it('sends each mail once with its stored attachments, the map inline by its Content-ID', async () => {
    const db = database.db;
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const map = await putAssetOf(db, 'image/png', png);
    const json = await putAssetOf(db, 'application/json', Buffer.from('{"turn":1}'));
    expect(await putAssetOf(db, 'image/png', png)).toBe(map); // stored once
    const refs = [
      { assetId: json, filename: 'edict.json', contentType: 'application/json' },
      { assetId: map, filename: 'map.png', contentType: 'image/png', cid: 'map@sf' },
    ];
    await enqueueMany(
      db,
      [1, 2, 3, 4, 5].map((i) => mail(i, refs)),
    );
    const out = join(dir, 'a');
    const transport = createFileTransport(out, log);
    expect(await sendDueMail({ db, transport, from: 'orders@sf.test', log })).toBe(5);
    expect(await sendDueMail({ db, transport, from: 'orders@sf.test', log })).toBe(0);
    const files = readdirSync(out).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(5);
    for (const f of files) {
      const parsed = await simpleParser(readFileSync(join(out, f)));
      expect(parsed.attachments.find((a) => a.filename === 'edict.json')?.content.toString()).toBe('{"turn":1}');
      const img = parsed.attachments.find((a) => a.contentType === 'image/png');
      expect(img?.cid).toBe('map@sf');
      expect(img?.content.equals(png)).toBe(true);
    }
  });

  it('hands back what it could not start within half the lease: sent later, never twice', async () => {
    const db = database.db;
    await enqueueMany(
      db,
      [11, 12, 13, 14, 15, 16].map((i) => mail(i)),
    );
    const sent: string[] = [];
    let t = 0;
    // Each send takes a third of the lease on the lease's clock: after two rounds the rest go back.
    const slow: MailTransport = {
      async send(m) {
        sent.push(String(m.to));
        t += SEND_LEASE_MS / 3;
        return { messageId: m.messageId };
      },
    };
    const first = await sendDueMail({ db, transport: slow, from: 'orders@sf.test', log, leaseClock: () => t });
    expect(first).toBeLessThan(6);
    const pending = (await listOutbox(db)).filter((r) => r.status === 'pending');
    expect(pending).toHaveLength(6 - first);
    expect(pending.every((r) => r.attempts === 0)).toBe(true);
    t = 0;
    let rest = 0;
    for (let i = 0; i < 5 && rest < 6 - first; i++) {
      t = 0;
      rest += await sendDueMail({ db, transport: slow, from: 'orders@sf.test', log, leaseClock: () => t });
    }
    expect(first + rest).toBe(6);
    expect(new Set(sent).size).toBe(sent.length);
  });

  it('reads an attachment once for every batch that sends it, and never another database’s', async () => {
    const db = database.db;
    const png = Buffer.from('89504e470d0a1a0a00000001', 'hex');
    const id = await putAssetOf(db, 'image/png', png);
    const refs = [{ assetId: id, filename: 'map.png', contentType: 'image/png' }];
    await enqueueMany(
      db,
      [21, 22, 23, 24].map((i) => mail(i, refs)),
    );
    const out = join(dir, 'cache');
    const transport = createFileTransport(out, log);
    expect(await sendDueMail({ db, transport, from: 'orders@sf.test', log }, 2)).toBe(2);
    // Stored assets never change (they are found by their content): changed behind the sender's
    // back here, only to see that the next batch does not read them again.
    await db
      .update(mailAssets)
      .set({ bytes: Buffer.from('changed') })
      .where(eq(mailAssets.id, id));
    expect(await sendDueMail({ db, transport, from: 'orders@sf.test', log }, 2)).toBe(2);
    for (const f of readdirSync(out).filter((n) => n.endsWith('.eml'))) {
      const parsed = await simpleParser(readFileSync(join(out, f)));
      expect(parsed.attachments[0]?.content.equals(png), f).toBe(true);
    }

    // Another database with an asset of the same id: its own bytes, not the cached ones.
    const other = await openTestPglite();
    try {
      const mine = Buffer.from('another database');
      const otherId = await putAssetOf(other.db, 'image/png', mine);
      expect(otherId).toBe(1);
      const sameId = await putAssetOf(db, 'image/png', Buffer.from('89504e47'));
      await enqueueMany(other.db, [mail(31, [{ assetId: otherId, filename: 'map.png', contentType: 'image/png' }])]);
      await enqueueMany(db, [mail(32, [{ assetId: sameId, filename: 'map.png', contentType: 'image/png' }])]);
      const out2 = join(dir, 'other');
      expect(await sendDueMail({ db: other.db, transport: createFileTransport(out2, log), from: 'orders@sf.test', log })).toBe(1);
      const [file] = readdirSync(out2).filter((n) => n.endsWith('.eml'));
      expect((await simpleParser(readFileSync(join(out2, file!)))).attachments[0]?.content.equals(mine)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('sendAllDue', () => {
  // Its own database: what it claims depends on everything that is due.
  let own: Database;
  beforeAll(async () => {
    own = await openTestPglite();
  });
  afterAll(async () => {
    await own?.close();
  });
  /** A relay that holds every mail until `open()`: what the sender does meanwhile can be seen. */
  const gated = () => {
    const sent: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const transport: MailTransport = {
      async send(m) {
        sent.push(String(m.to));
        await gate;
        return { messageId: m.messageId };
      },
    };
    return { transport, sent, open };
  };

  it('claims the next batch while the last mails of one are with the relay, and sends every mail once, in order', async () => {
    const db = own.db;
    const mails = [41, 42, 43, 44, 45, 46, 47, 48].map((i) => mail(i));
    await enqueueMany(db, mails);
    const relay = gated();
    const done = sendAllDue({ db, transport: relay.transport, from: 'orders@sf.test', log }, { limit: 4 });
    // All four of the first batch, and the first of the next, are with the relay: none is answered yet.
    await vi.waitFor(() => expect(relay.sent).toHaveLength(5));
    const rows = (await listOutbox(db)).filter((r) => mails.some((m) => m.dedupeKey === r.dedupeKey));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(mails.map(() => ['pending', 1]));
    relay.open();
    expect(await done).toBe(8);
    expect(relay.sent).toEqual(mails.map((m) => m.toAddress));
    // Recorded as sent before it returns, though written a few at a time.
    const after = (await listOutbox(db)).filter((r) => mails.some((m) => m.dedupeKey === r.dedupeKey));
    expect(after.every((r) => r.status === 'sent' && r.sentAt !== null)).toBe(true);
    expect(await sendAllDue({ db, transport: relay.transport, from: 'orders@sf.test', log })).toBe(0);
  });

  it('claims nothing more once its signal is aborted, and sends what it had claimed', async () => {
    const db = own.db;
    const mails = [51, 52, 53, 54, 55, 56].map((i) => mail(i));
    await enqueueMany(db, mails);
    const stop = new AbortController();
    const sent: string[] = [];
    const transport: MailTransport = {
      async send(m) {
        sent.push(String(m.to));
        stop.abort(); // as SIGTERM would, while the first batch is being sent
        return { messageId: m.messageId };
      },
    };
    expect(await sendAllDue({ db, transport, from: 'orders@sf.test', log }, { limit: 2, signal: stop.signal })).toBe(2);
    expect(sent).toEqual(['p51@example.org', 'p52@example.org']);
    const rows = (await listOutbox(db)).filter((r) => mails.some((m) => m.dedupeKey === r.dedupeKey));
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([['sent', 1], ['sent', 1], ...mails.slice(2).map(() => ['pending', 0])]);
    // The rest go with the next pass.
    expect(await sendAllDue({ db, transport, from: 'orders@sf.test', log }, { limit: 2 })).toBe(4);
  });

  it('claims no more in a pass after a batch’s worth of refusals in a row: a relay that is down is not handed the whole queue at once', async () => {
    const db = own.db;
    const mails = [61, 62, 63, 64, 65, 66, 67, 68, 69, 70].map((i) => mail(i));
    await enqueueMany(db, mails);
    let tries = 0;
    const down: MailTransport = {
      send() {
        tries++;
        return Promise.reject(Object.assign(new Error('451 not now'), { responseCode: 451 }));
      },
    };
    expect(await sendAllDue({ db, transport: down, from: 'orders@sf.test', log }, { limit: 2 })).toBe(0);
    // Batches claimed ahead before the first refusals came back are tried too; none after them.
    expect(tries).toBeLessThan(mails.length);
    const rows = (await listOutbox(db)).filter((r) => mails.some((m) => m.dedupeKey === r.dedupeKey));
    expect(rows.filter((r) => r.attempts === 0)).toHaveLength(mails.length - tries);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
  });
});

describe('a relay that does not take a mail', () => {
  /** Answers every mail as an SMTP server answering `code` would (nodemailer's error shape). */
  const refusing = (code: number, to: string): MailTransport & { tries: number } => ({
    tries: 0,
    send(m) {
      if (m.to === to) this.tries++;
      return Promise.reject(Object.assign(new Error(`${code} not now`), { responseCode: code }));
    },
  });
  const DAY = 24 * 3_600_000;

  async function gameWithReferee(id: string): Promise<void> {
    const db = database.db;
    await insertGame(db, plainGame(id, `Game ${id}`));
    await assignReferee(db, id, (await addReferee(db, `ref@${id}.example`, 'test')).referee.email, 'test');
  }

  async function failing(id: string, code: number, days: number): Promise<{ row: Awaited<ReturnType<typeof findOutbox>>; tries: number }> {
    const db = database.db;
    await gameWithReferee(id);
    const m = { ...mail(1), gameId: id, toAddress: `p@${id}.example`, messageId: `m-${id}@sf.test` };
    await enqueueMany(db, [m]);
    const created = (await listOutbox(db, { gameId: id }))[0]!;
    const transport = refusing(code, m.toAddress);
    let t = created.createdAt.getTime() + 1_000;
    // Each try when the mail is due again, for `days` days.
    for (;;) {
      await sendDueMail({ db, transport, from: 'orders@sf.test', log, now: () => new Date(t), leaseClock: () => 0 });
      const row = (await findOutbox(db, created.id))!;
      if (row.status !== 'pending' || row.nextAttemptAt.getTime() - created.createdAt.getTime() > days * DAY)
        return { row, tries: transport.tries };
      t = row.nextAttemptAt.getTime();
    }
  }

  const notices = async (id: string) =>
    (await listOutbox(database.db, { gameId: id, kind: 'undelivered' })).map((r) => ({
      to: r.toAddress,
      subject: r.subject,
      body: r.bodyText,
    }));

  it('is retried for a long weekend, never more than an hour apart, and not given up (D-MAIL-34)', async () => {
    const { row, tries } = await failing('weekend', 451, 3);
    expect(row).toMatchObject({ status: 'pending' });
    expect(tries).toBeGreaterThan(60);
    expect(await notices('weekend')).toEqual([]);
  });

  it('is given up after five days of refusals, and the referees of its game are told once (D-MAIL-35)', async () => {
    const { row } = await failing('fivedays', 451, 30);
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.nextAttemptAt.getTime() - row!.createdAt.getTime()).toBeGreaterThanOrEqual(5 * DAY);
    expect(row!.nextAttemptAt.getTime() - row!.createdAt.getTime()).toBeLessThan(5 * DAY + 2 * 3_600_000);
    const told = await notices('fivedays');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ to: 'ref@fivedays.example', subject: '[SF fivedays] Mail not delivered to p@fivedays.example' });
    expect(told[0]!.body).toContain('451 not now');
    expect(told[0]!.body).toContain(`sf referee retry-mail fivedays ${row!.id}`);
  });

  it('refused for good (5xx) is given up at once, and the referees are told', async () => {
    const { row, tries } = await failing('refused', 550, 30);
    expect(row).toMatchObject({ status: 'failed' });
    expect(tries).toBe(1);
    expect(await notices('refused')).toHaveLength(1);
  });
});
