// The embedded default, end to end: no IMAP, no SMTP, no PostgreSQL server. The real service
// (startService) on a temporary DATA_DIR keeps PGlite in DATA_DIR/db, reads the Maildir
// DATA_DIR/mail/inbox and writes every outgoing mail as an .eml file to DATA_DIR/mail/outbox.
// Two corpus mails are delivered into new/ as an MDA would (written to tmp/, renamed into new/):
// an English sheet, which is acknowledged, and a vacation auto-reply, which is not.
import { mkdir, mkdtemp, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser, type ParsedMail } from 'mailparser';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { headerMessageId } from '../../src/db/inbound.ts';
import { inboundMessages, outbox, sheets } from '../../src/db/schema.ts';
import { createGame } from '../../src/games/index.ts';
import { startService, type Service } from '../../src/service.ts';
import { corpusGame } from './corpus-options.ts';
import { eventually } from '../support/eventually.ts';
import { Cleanups } from '../support/cleanups.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const SHEET = '02-gmail-android-reply-en';
const AUTOMATIC = '23-vacation-auto-submitted';

const cleanups = new Cleanups();
afterAll(() => cleanups.run(), 60_000);

/** Delivers as an MDA does: the whole file in tmp/, then one rename into new/; mtime is the arrival. */
async function deliver(maildir: string, name: string, raw: Buffer, at: Date): Promise<void> {
  const tmp = path.join(maildir, 'tmp', name);
  await writeFile(tmp, raw);
  await utimes(tmp, at, at);
  await rename(tmp, path.join(maildir, 'new', name));
}

describe('the service on its embedded defaults (PGlite, Maildir in, .eml files out)', () => {
  it('acknowledges a sheet dropped into inbox/new with an .eml in outbox/, and moves the mail to cur/', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sf-service-maildir-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dataDir, MAIL_DOMAIN: 'sf.example', LOG_LEVEL: 'silent' });
    expect(config.database).toEqual({ kind: 'pglite', dataDir: path.join(dataDir, 'db') });
    expect(config.mail.imap).toBeNull();
    expect(config.mail.smtpUrl).toBeNull();

    // The corpus game, created before the service opens the same PGlite directory.
    const setup = await openDatabase(config);
    const game = corpusGame();
    const created = await createGame(setup.db, game.input, {
      actor: 'test',
      mail: { domain: 'sf.example', ordersLocalPart: 'orders' },
      newSecret: game.newSecret,
    });
    await setup.close();

    let service: Service | null = await startService(config, pino({ level: 'silent' }), {
      listen: false,
      pollIntervalMs: 100,
      sendIntervalMs: 100,
      sweepIntervalMs: 1_000,
    });
    cleanups.push(async () => service?.stop());

    const inbox = config.mail.maildir;
    expect(inbox).toBe(path.join(dataDir, 'mail', 'inbox'));
    await mkdir(path.join(inbox, 'tmp'), { recursive: true });
    await mkdir(path.join(inbox, 'new'), { recursive: true });
    const sheetRaw = await readFile(path.join(FIXTURES, `${SHEET}.eml`));
    const autoRaw = await readFile(path.join(FIXTURES, `${AUTOMATIC}.eml`));
    const arrived = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000); // the file's time is the one that counts (D-MAIL-16)
    await deliver(inbox, `1700000001.M1P1.mx.sf.example`, sheetRaw, arrived);
    await deliver(inbox, `1700000002.M2P1.mx.sf.example`, autoRaw, arrived);

    const outboxDir = config.mail.outboxDir;
    const sheetId = headerMessageId(sheetRaw)!;
    // Six welcomes and one acknowledgement; the auto-reply gets nothing.
    const written = await eventually(
      async () => {
        const names = (await readdir(outboxDir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
        const mails = await Promise.all(names.map(async (n) => simpleParser(await readFile(path.join(outboxDir, n)))));
        expect(mails.length).toBe(created.players.length + 1);
        expect(await readdir(path.join(inbox, 'new'))).toEqual([]);
        return mails;
      },
      { timeoutMs: 30_000, why: 'the acknowledgement was not written' },
    );
    const cur = await readdir(path.join(inbox, 'cur'));
    expect(cur.sort()).toEqual(['1700000001.M1P1.mx.sf.example:2,S', '1700000002.M2P1.mx.sf.example:2,S']);

    const acks = written.filter((m: ParsedMail) => m.inReplyTo === `<${sheetId}>`);
    expect(acks).toHaveLength(1);
    const ack = acks[0]!;
    expect(ack.to && !Array.isArray(ack.to) ? ack.to.value.map((a) => a.address) : null).toEqual(['tom@baker.co.uk']);
    expect(ack.from?.value[0]?.address).toBe('orders@sf.example');
    expect(ack.subject).toBe('Re: [SF andromeda] Turn 4: orders received');
    expect(ack.references).toContain(`<${sheetId}>`);
    expect(ack.headers.get('x-sf-origin')).toBe('starts-foundation');
    expect(ack.headers.get('auto-submitted')).toBe('auto-replied');
    expect(ack.text).toContain('Orders received: Merchants, turn 1 of "Andromeda".');
    expect(ack.text).toMatch(/ORDERS AS UNDERSTOOD\n {2}T12-U13 .*\n {2}U12-V12 /);
    expect(ack.text).toContain("Line 5: 'Cheers, Tom': text ignored, not an order.");
    expect(written.filter((m) => m.inReplyTo !== undefined)).toHaveLength(1);

    // Stopped, the database tells the same story.
    const running = service;
    service = null;
    await running.stop();
    const check = await openDatabase(config);
    try {
      const rows = await check.db.select().from(inboundMessages);
      const byId = new Map(rows.map((r) => [r.messageId, r]));
      expect(byId.get(sheetId)).toMatchObject({ source: 'maildir', status: 'processed', outcome: 'sheet', receivedAt: arrived });
      expect(byId.get(headerMessageId(autoRaw)!)).toMatchObject({ source: 'maildir', status: 'ignored', outcome: 'automatic' });
      const stored = await check.db.select().from(sheets);
      expect(stored.map((s) => [s.faction, s.version, s.inboundId])).toEqual([['merchants', 1, byId.get(sheetId)!.id]]);
      expect((await check.db.select().from(outbox)).every((m) => m.status === 'sent')).toBe(true);
    } finally {
      await check.close();
    }
  });
});
