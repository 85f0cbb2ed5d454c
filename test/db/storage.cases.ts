// Repository cases, run on PGlite (storage.test.ts) and on PostgreSQL (storage.int.test.ts).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict } from '../../src/adjudicator/types.ts';
import { listAudit, recordAudit } from '../../src/db/audit.ts';
import type { Database } from '../../src/db/client.ts';
import { mailboxCursorStore } from '../../src/db/cursors.ts';
import { insertEdictVersion, latestEdict, listEdicts } from '../../src/db/edicts.ts';
import { insertGame } from '../../src/db/games.ts';
import { findInbound, headerMessageId, listPendingInbound, markProcessed, storeInbound } from '../../src/db/inbound.ts';
import { backoffMs, claimBatch, enqueue, findOutbox, markFailed, markSent, markSentMany, newMessageId } from '../../src/db/outbox.ts';
import { findByEmail, findBySecret, insertPlayer } from '../../src/db/players.ts';
import { addSheetVersion, latestSheets, sheetHistory } from '../../src/db/sheets.ts';
import { insertTurn, updateTurn } from '../../src/db/turns.ts';
import { outbox } from '../../src/db/schema.ts';
import { initialState } from '../../src/games/initial-state.ts';

const T0 = new Date('2025-03-20T10:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

const mail = (headers: string, body = 'H: Sith\r\nB2-C3\r\n') => Buffer.from(`${headers}\r\n\r\n${body}`, 'latin1');

/** A game with its open turn 1, straight through the repositories. */
async function seedGame(db: Database['db'], id: string) {
  const factions = ['hutt', 'aristocrats', 'sith', 'knights'];
  await insertGame(db, {
    id,
    name: id,
    map: 'classic',
    timeZone: 'Europe/Rome',
    weeklyDeadline: 'sun 20:00',
    declarationLeadMinutes: 1440,
    reminderMinutes: [1440, 120],
    disputeWindowMinutes: 1440,
    victoryPlanets: 12,
    nmrHostility: 'keep',
    status: 'active',
    currentTurn: 1,
  });
  await insertTurn(db, {
    gameId: id,
    number: 1,
    election: true,
    state: initialState(classicMap(), id, factions, { victoryPlanets: 12, nmrHostility: 'keep' }),
    deadline: minutes(3 * 24 * 60),
    declarationDeadline: minutes(2 * 24 * 60),
    status: 'open',
  });
}

export function storageCases(open: () => Promise<Database>): void {
  let database: Database;
  let db: Database['db'];
  beforeAll(async () => {
    database = await open();
    db = database.db;
    await seedGame(db, 'andromeda');
  }, 60_000); // starting PGlite takes seconds, more on a busy machine
  afterAll(async () => {
    await database?.close();
  });

  describe('players', () => {
    it('finds a player by secret ignoring case, and by address ignoring case', async () => {
      const p = await insertPlayer(db, {
        gameId: 'andromeda',
        faction: 'hutt',
        email: 'Jabba@Example.COM',
        lang: 'it',
        secret: 'k7Q2-x9Pm',
        joinedTurn: 1,
      });
      expect(p.email).toBe('jabba@example.com');
      expect((await findBySecret(db, 'K7q2-X9pM'))?.id).toBe(p.id);
      expect((await findByEmail(db, 'andromeda', ' JABBA@example.com'))?.id).toBe(p.id);
      expect(await findBySecret(db, 'zzzz-zzzz')).toBeNull();
      expect(await findByEmail(db, 'elsewhere', 'jabba@example.com')).toBeNull();
    });

    it('refuses a second player with the same secret in another case', async () => {
      await expect(
        insertPlayer(db, { gameId: 'andromeda', faction: 'sith', email: 's@x.it', lang: 'en', secret: 'K7Q2-X9PM', joinedTurn: 1 }),
      ).rejects.toThrow();
    });
  });

  describe('inbound messages', () => {
    const raw = mail('From: a@x.it\r\nMessage-ID:\r\n <one@x.it>\r\nSubject: orders');

    it('reads a folded Message-ID', () => {
      expect(headerMessageId(raw)).toBe('one@x.it');
      expect(headerMessageId(mail('From: a@x.it'))).toBeNull();
    });

    it('stores the raw bytes as they came', async () => {
      const bytes = Buffer.concat([mail('Message-ID: <bytes@x.it>'), Buffer.from([0xff, 0x00, 0xe8])]);
      const { id, duplicate } = await storeInbound(db, bytes, { source: 'cli', sourceKey: 'cli:bytes', receivedAt: T0 });
      expect(duplicate).toBe(false);
      const row = await findInbound(db, id);
      expect(Buffer.isBuffer(row?.raw)).toBe(true);
      expect(row?.raw.equals(bytes)).toBe(true);
      expect(row).toMatchObject({ size: bytes.length, status: 'pending', messageId: 'bytes@x.it', receivedAt: T0 });
    });

    it('stores a delivery once, however often it is offered (source key)', async () => {
      const first = await storeInbound(db, raw, { source: 'imap', sourceKey: 'imap:7:1' });
      const again = await storeInbound(db, raw, { source: 'imap', sourceKey: 'imap:7:1' });
      expect(again).toEqual({ id: first.id, duplicate: true });
    });

    it('stores a message once when it arrives twice with other trace headers (Message-ID and body)', async () => {
      const copy = mail('Delivered-To: orders@x.it\r\nFrom: a@x.it\r\nMessage-ID: <one@x.it>\r\nSubject: orders');
      const first = await storeInbound(db, raw, { source: 'imap', sourceKey: 'imap:7:1' });
      expect(await storeInbound(db, copy, { source: 'maildir', sourceKey: 'cur/1234.copy' })).toEqual({ id: first.id, duplicate: true });
      // Same Message-ID, other body: a different message (a client reusing ids must not lose a sheet).
      const edited = mail('Message-ID: <one@x.it>', 'B2-C4\r\n');
      expect((await storeInbound(db, edited, { source: 'imap', sourceKey: 'imap:7:2' })).duplicate).toBe(false);
    });

    it('does not merge messages without a Message-ID by their body', async () => {
      const a = await storeInbound(db, mail('From: a@x.it'), { source: 'maildir', sourceKey: 'new/a' });
      const b = await storeInbound(db, mail('From: a@x.it'), { source: 'maildir', sourceKey: 'new/b' });
      expect(a.duplicate || b.duplicate).toBe(false);
      expect(a.id).not.toBe(b.id);
    });

    it('records the outcome and leaves the pending list', async () => {
      const { id } = await storeInbound(db, mail('Message-ID: <done@x.it>'), { source: 'cli', sourceKey: 'cli:done' });
      expect((await listPendingInbound(db)).map((m) => m.id)).toContain(id);
      const row = await markProcessed(db, id, { status: 'ignored', outcome: 'auto-reply', detail: { header: 'Auto-Submitted' }, at: T0 });
      expect(row).toMatchObject({ status: 'ignored', outcome: 'auto-reply', outcomeDetail: { header: 'Auto-Submitted' }, processedAt: T0 });
      expect((await listPendingInbound(db)).map((m) => m.id)).not.toContain(id);
      expect(await markProcessed(db, 999_999, { status: 'processed', outcome: 'sheet' })).toBeNull();
    });
  });

  describe('sheets', () => {
    const sheet = (text: string, at: Date) => ({
      gameId: 'andromeda',
      turn: 1,
      faction: 'sith',
      text,
      parsed: { text },
      status: 'valid' as const,
      receivedAt: at,
      inboundId: null,
    });

    it('numbers versions 1, 2, 3 and returns the previous version’s time', async () => {
      const v1 = await addSheetVersion(db, sheet('V: Sith', minutes(1)));
      const v2 = await addSheetVersion(db, sheet('V: Hutt', minutes(2)));
      const v3 = await addSheetVersion(db, { ...sheet('V: Knights', minutes(3)), status: 'problems' });
      expect([v1, v2, v3].map((r) => (r.ok ? r.sheet.version : null))).toEqual([1, 2, 3]);
      expect(v1.ok && v1.previousReceivedAt).toBeNull();
      expect(v3.ok && v3.previousReceivedAt).toEqual(minutes(2));
      await addSheetVersion(db, { ...sheet('V: Sith', minutes(4)), faction: 'hutt' });
      const latest = await latestSheets(db, 'andromeda', 1);
      expect(latest.map((s) => [s.faction, s.version, s.text])).toEqual([
        ['hutt', 1, 'V: Sith'],
        ['sith', 3, 'V: Knights'],
      ]);
      expect((await sheetHistory(db, 'andromeda', 1, 'sith')).map((s) => s.version)).toEqual([1, 2, 3]);
    });

    it('keeps sheets out of a turn that is closed or does not exist', async () => {
      expect(await addSheetVersion(db, { ...sheet('x', T0), turn: 9 })).toEqual({ ok: false, reason: 'no-turn' });
      await seedGame(db, 'closed');
      await updateTurn(db, 'closed', 1, { status: 'adjudicated' });
      expect(await addSheetVersion(db, { ...sheet('x', T0), gameId: 'closed' })).toEqual({ ok: false, reason: 'turn-closed' });
    });
  });

  describe('outbox', () => {
    const letter = (key: string) => ({
      kind: 'ack',
      gameId: 'andromeda',
      toAddress: 'jabba@example.com',
      subject: 'Re: orders',
      messageId: newMessageId('sf.test'),
      bodyText: 'received',
      dedupeKey: key,
    });

    it('enqueues a dedupe key once', async () => {
      const a = await enqueue(db, letter('ack:1'));
      const b = await enqueue(db, { ...letter('ack:1'), bodyText: 'a second try' });
      expect(a.duplicate).toBe(false);
      expect(b).toEqual({ mail: a.mail, duplicate: true });
    });

    it('claims due mail once per lease, then retries with backoff until it gives up', async () => {
      const { mail: m } = await enqueue(db, letter('ack:claim'));
      const now = new Date(m.nextAttemptAt.getTime() + 1000);
      const claimed = await claimBatch(db, { now, limit: 100, leaseMs: 60_000 });
      expect(claimed.map((c) => c.id)).toContain(m.id);
      expect(claimed.find((c) => c.id === m.id)?.attempts).toBe(1);
      // Claimed: not due again until the lease is over.
      expect((await claimBatch(db, { now, limit: 100 })).map((c) => c.id)).not.toContain(m.id);

      const failed = await markFailed(db, m.id, 'connection refused', { now });
      expect(failed).toMatchObject({ status: 'pending', lastError: 'connection refused' });
      expect(failed!.nextAttemptAt.getTime()).toBe(now.getTime() + backoffMs(1));
      const later = new Date(now.getTime() + backoffMs(1));
      expect((await claimBatch(db, { now: later, limit: 100 })).find((c) => c.id === m.id)?.attempts).toBe(2);
      expect(await markFailed(db, m.id, 'still down', { now: later, maxAttempts: 2 })).toMatchObject({ status: 'failed' });
    });

    it('marks mail sent, and a permanent refusal failed at once', async () => {
      const { mail: a } = await enqueue(db, letter('ack:sent'));
      const { mail: b } = await enqueue(db, letter('ack:refused'));
      expect(await markSent(db, a.id, T0)).toBe(true);
      expect(await findOutbox(db, a.id)).toMatchObject({ status: 'sent', sentAt: T0 });
      expect(await markFailed(db, b.id, '550 no such user', { permanent: true })).toMatchObject({ status: 'failed' });
      expect((await findOutbox(db, b.id))?.lastError).toBe('550 no such user');
      expect(await markSent(db, 999_999)).toBe(false);
    });

    it('marks several mails sent in one statement, each at its own time', async () => {
      const { mail: a } = await enqueue(db, letter('ack:many-a'));
      const { mail: b } = await enqueue(db, letter('ack:many-b'));
      const { mail: c } = await enqueue(db, letter('ack:many-c'));
      const later = new Date(T0.getTime() + 1_234);
      expect(
        await markSentMany(db, [
          { id: a.id, at: T0 },
          { id: b.id, at: later },
          { id: 999_998, at: T0 },
        ]),
      ).toBe(2);
      expect(await findOutbox(db, a.id)).toMatchObject({ status: 'sent', sentAt: T0 });
      expect(await findOutbox(db, b.id)).toMatchObject({ status: 'sent', sentAt: later });
      expect(await findOutbox(db, c.id)).toMatchObject({ status: 'pending', sentAt: null });
      expect(await markSentMany(db, [])).toBe(0);
    });

    it('backs off 1, 2, 4 … minutes, at most an hour', () => {
      expect([1, 2, 3, 6, 7, 20, 500].map(backoffMs)).toEqual([60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000]);
    });

    it('retries a mail the relay does not take for days, and gives it up only after five (D-MAIL-34)', async () => {
      const { mail: m } = await enqueue(db, letter('ack:weekend'));
      const day = 24 * 3_600_000;
      const at = (ms: number) => new Date(m.createdAt.getTime() + ms);
      // A hundred attempts in a relay's long weekend: still waiting, never more than an hour apart.
      await db.update(outbox).set({ attempts: 100 }).where(eq(outbox.id, m.id));
      const waiting = await markFailed(db, m.id, '451 try again later', { now: at(4 * day) });
      expect(waiting).toMatchObject({ status: 'pending' });
      expect(waiting!.nextAttemptAt.getTime()).toBe(at(4 * day).getTime() + 3_600_000);
      expect(await markFailed(db, m.id, '451 try again later', { now: at(5 * day) })).toMatchObject({ status: 'failed' });
    });
  });

  describe('edicts', () => {
    const edict = { gameId: 'andromeda', turn: 1 } as unknown as Edict;

    it('versions an edict; an amendment needs a reason (R-EDICT-3)', async () => {
      const base = { gameId: 'andromeda', turn: 1, json: edict, textIt: 'it', textEn: 'en', createdBy: 'system' };
      const v1 = await insertEdictVersion(db, { ...base, version: 1, reason: null });
      expect(v1.version).toBe(1);
      await expect(insertEdictVersion(db, { ...base, version: 2, reason: ' ', createdBy: 'referee:ada' })).rejects.toThrow(/reason/);
      const v2 = await insertEdictVersion(db, {
        ...base,
        version: 2,
        textIt: 'it 2',
        textEn: 'en 2',
        reason: 'the Chancellor chose G7 for the contested advance (R-ADV-2)',
        createdBy: 'referee:ada',
      });
      expect(v2.version).toBe(2);
      expect((await latestEdict(db, 'andromeda', 1))?.textEn).toBe('en 2');
      expect((await listEdicts(db, 'andromeda')).map((e) => e.version)).toEqual([1, 2]);
      // Two versions with one number: the second is refused, never stored beside the first.
      await expect(insertEdictVersion(db, { ...base, version: 2, reason: 'again' })).rejects.toThrow();
      expect((await listEdicts(db, 'andromeda')).map((e) => e.version)).toEqual([1, 2]);
    });
  });

  describe('audit log and mailbox cursors', () => {
    it('lists audit rows newest first', async () => {
      await recordAudit(db, { actor: 'cli:ada', gameId: 'audit-test', action: 'game.pause', detail: { n: 1 } });
      await recordAudit(db, { actor: 'cli:ada', gameId: 'audit-test', action: 'game.resume', detail: { n: 2 } });
      expect((await listAudit(db, { gameId: 'audit-test' })).map((a) => a.action)).toEqual(['game.resume', 'game.pause']);
    });

    it('keeps a cursor per mailbox that never moves back under one UIDVALIDITY', async () => {
      const cursors = mailboxCursorStore(db);
      expect(await cursors.get('INBOX')).toBeNull();
      await cursors.set('INBOX', { uidValidity: '42', lastUid: 10 });
      await cursors.set('INBOX', { uidValidity: '42', lastUid: 7 });
      expect(await cursors.get('INBOX')).toEqual({ uidValidity: '42', lastUid: 10 });
      await cursors.set('INBOX', { uidValidity: '43', lastUid: 2 });
      expect(await cursors.get('INBOX')).toEqual({ uidValidity: '43', lastUid: 2 });
      await cursors.set('INBOX', { uidValidity: '43', lastUid: 4_294_967_295 });
      expect(await cursors.get('INBOX')).toEqual({ uidValidity: '43', lastUid: 4_294_967_295 });
    });

    it('settles one batch at a time per mailbox, telling the later one how far the earlier one moved', async () => {
      const cursors = mailboxCursorStore(db);
      const seen: string[] = [];
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const first = cursors.settle('SettleTest', { uidValidity: '7', lastUid: 10 }, async (upTo) => {
        seen.push(`first from ${upTo}`);
        await gate;
        seen.push('first moved');
      });
      await new Promise((r) => setTimeout(r, 20));
      const second = cursors.settle('SettleTest', { uidValidity: '7', lastUid: 12 }, async (upTo) => void seen.push(`second from ${upTo}`));
      await new Promise((r) => setTimeout(r, 100));
      open();
      await Promise.all([first, second]);
      // The second waited for the first's move and cursor: it moves only UIDs above 10.
      expect(seen).toEqual(['first from 0', 'first moved', 'second from 10']);
      expect(await cursors.get('SettleTest')).toEqual({ uidValidity: '7', lastUid: 12 });
      // Under a new UIDVALIDITY nothing earlier counts.
      await cursors.settle('SettleTest', { uidValidity: '8', lastUid: 3 }, async (upTo) => void seen.push(`renumbered from ${upTo}`));
      expect(seen.at(-1)).toBe('renumbered from null');
      expect(await cursors.get('SettleTest')).toEqual({ uidValidity: '8', lastUid: 3 });
    });
  });
}
