// The intake queue of the running service: a batch is stored before accept() resolves, and
// processed behind it, one batch at a time in arrival order, with the sweep of mail left pending
// in the same line. No timing here: a gate on the database's transactions holds processing back
// for as long as a test needs to look at what was stored.
import { Writable } from 'node:stream';
import { asc, inArray } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/client.ts';
import { findInbound, storeInbound } from '../../../src/db/inbound.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { inboundMessages } from '../../../src/db/schema.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { formatInstant } from '../../../src/games/time-format.ts';
import { BodyReader } from '../../../src/mail/intake/body-reader.ts';
import { IntakeQueue } from '../../../src/mail/intake/intake-queue.ts';
import type { IntakeDeps } from '../../../src/mail/intake/process-inbound.ts';
import { processStored, type ArrivedMail } from '../../../src/mail/intake/receive.ts';
import type { ExtractOptions } from '../../../src/mail/read/extract.ts';
import { openTestPglite } from '../../harness/pglite.ts';
import { ADDRESSES, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const minutesAfter = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);
let keys = 0;
const arrived = (raw: Buffer, receivedAt: Date): ArrivedMail => ({ raw, source: 'imap', sourceKey: `queue:${++keys}`, receivedAt });
/** A sheet from player i at their private address, with a Message-ID to find its ack by. */
const sheetFrom = (i: number, body: string, messageId: string) =>
  orderMail({ from: ADDRESSES[i]!, to: privateTo(world, i), body, messageId: `<${messageId}>` });
const factionOf = (i: number) => world.created.players[i]!.faction;
const history = (i: number) => sheetHistory(world.database.db, 'andromeda', 1, factionOf(i));
const acks = async () => await listOutbox(world.database.db, { gameId: 'andromeda', kind: 'ack' });
const rowsOf = (mails: ArrivedMail[]) =>
  world.database.db
    .select()
    .from(inboundMessages)
    .where(
      inArray(
        inboundMessages.sourceKey,
        mails.map((m) => m.sourceKey),
      ),
    )
    .orderBy(asc(inboundMessages.id));

/**
 * The world's database behind a gate: transactions (where processing happens; storing needs
 * none) wait until the gate opens. `events` records, in order, every use of the handle and the
 * end of every transaction, as they happen.
 */
function gated(db: Db) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const events: string[] = [];
  let down: Error | null = null;
  const handle = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'transaction') {
        return async (...args: Parameters<Db['transaction']>) => {
          events.push('transaction');
          await gate;
          if (down) throw down;
          try {
            return await target.transaction(...args);
          } finally {
            events.push('transaction-end');
          }
        };
      }
      events.push(String(prop));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return {
    db: handle as Db,
    events,
    open: () => open(),
    /** Every transaction fails (an outage while processing) until `up()`. */
    fail: (err: Error) => void (down = err),
    up: () => void (down = null),
  };
}

/** A logger whose error lines the test can read. */
function capturingLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { log: pino({ level: 'warn' }, stream), lines };
}

describe('accept', () => {
  it('resolves once the batch is stored, before it is processed; idle() once it is processed', async () => {
    const g = gated(world.database.db);
    const queue = new IntakeQueue({ ...world.deps, db: g.db });
    const t = world.clock.now;
    const mails = [
      arrived(sheetFrom(0, 'V: Sith\n', 'a0@example.org'), t),
      arrived(sheetFrom(1, 'V: Sith\n', 'a1@example.org'), t),
      arrived(sheetFrom(2, 'V: Hutt\n', 'a2@example.org'), t),
    ];
    // Processing cannot start until the gate opens: if accept waited for it, this would never resolve.
    await queue.accept(mails);
    const stored = await rowsOf(mails);
    expect(stored.map((r) => r.sourceKey)).toEqual(mails.map((m) => m.sourceKey));
    expect(stored.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    expect(stored.every((r, i) => r.raw.equals(mails[i]!.raw))).toBe(true);
    expect(await acks()).toHaveLength(0);

    g.open();
    await queue.idle();
    expect((await rowsOf(mails)).map((r) => [r.status, r.outcome])).toEqual([
      ['processed', 'sheet'],
      ['processed', 'sheet'],
      ['processed', 'sheet'],
    ]);
    expect((await acks()).map((a) => a.toAddress).sort()).toEqual([ADDRESSES[0], ADDRESSES[1], ADDRESSES[2]].sort());
  });

  it('processes batches accepted back to back in arrival order, a batch waiting at most behind the one in progress', async () => {
    const g = gated(world.database.db);
    const queue = new IntakeQueue({ ...world.deps, db: g.db });
    const t0 = world.clock.now;
    // Player 1 (English) sends seven sheets, in five batches, ten minutes apart.
    const texts = ['H: Sith', 'H: Hutt', 'H: Knights', 'V: Sith', 'V: Hutt', 'V: Knights', 'H: Sith, Hutt'];
    const mails = texts.map((text, i) => arrived(sheetFrom(1, `${text}\n`, `seq${i}@example.org`), minutesAfter(t0, 10 * i)));
    const batches = [[mails[0]!], [mails[1]!, mails[2]!], [mails[3]!], [mails[4]!, mails[5]!], [mails[6]!]];

    // The first two are accepted while nothing can be processed: one in progress, one waiting.
    await queue.accept(batches[0]!);
    await queue.accept(batches[1]!);
    // A third must wait for room, so it resolves only after the first batch was processed.
    const third = queue.accept(batches[2]!).then(() => void g.events.push('third accepted'));
    g.open();
    await third;
    expect(g.events.indexOf('transaction-end')).toBeGreaterThanOrEqual(0);
    expect(g.events.indexOf('third accepted')).toBeGreaterThan(g.events.indexOf('transaction-end'));
    expect((await rowsOf(batches[0]!)).map((r) => r.status)).toEqual(['processed']);
    await queue.accept(batches[3]!);
    await queue.accept(batches[4]!);
    await queue.idle();
    // One batch at a time: no transaction began before the one before it had ended.
    const transactions = g.events.filter((e) => e.startsWith('transaction'));
    expect(transactions).toEqual(batches.flatMap(() => ['transaction', 'transaction-end']));

    const versions = await history(1);
    expect(versions.map((s) => [s.version, s.text.trim()])).toEqual(texts.map((text, i) => [i + 1, text]));
    expect(versions.map((s) => s.receivedAt)).toEqual(mails.map((m) => m.receivedAt));
    // Each ack says which sheet it replaces: the one sent just before it.
    const byMail = new Map((await acks()).map((a) => [a.inReplyTo, a.bodyText]));
    expect(byMail.size).toBe(texts.length);
    expect(byMail.get('<seq0@example.org>')).toContain('This is your first sheet for this turn.');
    for (let i = 1; i < texts.length; i++) {
      const previous = formatInstant(mails[i - 1]!.receivedAt, 'Europe/Rome', 'en');
      expect(byMail.get(`<seq${i}@example.org>`)).toContain(`This sheet replaces your sheet of ${previous} entirely`);
    }
  });
});

describe('reading ahead', () => {
  it('reads a batch while the batch before it is in its transaction; each still commits in order', async () => {
    const g = gated(world.database.db);
    const t0 = world.clock.now;
    const first = [arrived(sheetFrom(0, 'V: Sith\n', 'ahead-0@example.org'), t0)];
    const second = [arrived(sheetFrom(0, 'V: Hutt\n', 'ahead-1@example.org'), minutesAfter(t0, 1))];
    let secondRead!: () => void;
    const seen = new Promise<void>((resolve) => (secondRead = resolve));
    const reader = new (class extends BodyReader {
      override readMany(raws: readonly Uint8Array[], options: ExtractOptions) {
        if (raws.some((r) => Buffer.from(r).equals(second[0]!.raw))) secondRead();
        return super.readMany(raws, options);
      }
    })();
    try {
      const queue = new IntakeQueue({ ...world.deps, db: g.db, bodyReader: reader });
      await queue.accept(first);
      await queue.accept(second);
      // The first batch's transaction cannot end before the gate opens: the second is read meanwhile.
      await seen;
      expect(g.events).toContain('transaction');
      expect(g.events).not.toContain('transaction-end');
      g.open();
      await queue.idle();
      expect((await history(0)).map((s) => [s.version, s.text.trim()])).toEqual([
        [1, 'V: Sith'],
        [2, 'V: Hutt'],
      ]);
    } finally {
      await reader.close();
    }
  });
});

describe('sweep', () => {
  it('processes mail left pending, oldest first', async () => {
    const db = world.database.db;
    const t0 = world.clock.now;
    // Stored by an earlier run that stopped before processing them.
    const late = await storeInbound(db, sheetFrom(0, 'V: Knights\n', 'left2@example.org'), {
      source: 'maildir',
      sourceKey: 'left:2',
      receivedAt: minutesAfter(t0, 5),
    });
    const early = await storeInbound(db, sheetFrom(0, 'V: Sith\n', 'left1@example.org'), {
      source: 'maildir',
      sourceKey: 'left:1',
      receivedAt: t0,
    });
    const other = await storeInbound(db, sheetFrom(3, 'V: Hutt\n', 'left3@example.org'), {
      source: 'maildir',
      sourceKey: 'left:3',
      receivedAt: t0,
    });
    expect((await findInbound(db, early.id))?.status).toBe('pending');

    const queue = new IntakeQueue(world.deps);
    await queue.sweep();
    for (const { id } of [late, early, other]) expect((await findInbound(db, id))?.status).toBe('processed');
    expect((await history(0)).map((s) => [s.version, s.text.trim(), s.inboundId])).toEqual([
      [1, 'V: Sith', early.id],
      [2, 'V: Knights', late.id],
    ]);
    expect((await history(3)).map((s) => s.inboundId)).toEqual([other.id]);
    expect(await acks()).toHaveLength(3);
    // Nothing left: a second sweep changes nothing.
    await queue.sweep();
    expect(await acks()).toHaveLength(3);
  });

  it('reads a backlog bigger than one page in full before mail fetched after it (no earlier sheet judged superseded)', async () => {
    // Seen under load in the SIGKILL run: a restart left 130 mails pending, the sweep read 100,
    // fresh mail went next, and the other 30 were answered "superseded" half a minute later.
    const db = world.database.db;
    const t0 = world.clock.now;
    const backlog = [];
    for (let n = 0; n < 7; n++) {
      const raw = sheetFrom(0, `V: ${n % 2 ? 'Hutt' : 'Sith'}\n`, `backlog-${n}@example.org`);
      backlog.push(await storeInbound(db, raw, { source: 'imap', sourceKey: `backlog:${n}`, receivedAt: minutesAfter(t0, n) }));
    }
    const queue = new IntakeQueue(world.deps);
    void queue.sweep(3); // pages of 3: the backlog takes three
    const fresh = [arrived(sheetFrom(0, 'V: Knights\n', 'after-backlog@example.org'), minutesAfter(t0, 10))];
    await queue.accept(fresh);
    await queue.idle();
    const inboundIds = [...backlog.map((b) => b.id), (await rowsOf(fresh))[0]!.id];
    expect((await history(0)).map((s) => [s.version, s.inboundId])).toEqual(inboundIds.map((id, i) => [i + 1, id]));
    expect(await acks()).toHaveLength(8);
    expect((await listOutbox(db, { gameId: 'andromeda', kind: 'refusal' })).length).toBe(0);
  });

  it('runs in line behind the batches accepted before it, not beside them', async () => {
    const g = gated(world.database.db);
    const queue = new IntakeQueue({ ...world.deps, db: g.db });
    const t0 = world.clock.now;
    const batch = [arrived(sheetFrom(2, 'V: Sith\n', 'inline-batch@example.org'), t0)];
    await queue.accept(batch);
    const left = await storeInbound(world.database.db, sheetFrom(3, 'V: Hutt\n', 'inline-left@example.org'), {
      source: 'cli',
      sourceKey: 'inline:left',
      receivedAt: t0,
    });
    const swept = queue.sweep();
    // The sweep has not looked for pending mail yet: the batch before it is still in progress.
    const before = [...g.events];
    g.open();
    await swept;
    expect(before.filter((e) => e === 'select')).toEqual([]);
    const firstEnd = g.events.indexOf('transaction-end');
    const listing = g.events.indexOf('select');
    expect(firstEnd).toBeGreaterThanOrEqual(0);
    expect(listing).toBeGreaterThan(firstEnd);
    expect((await findInbound(world.database.db, left.id))?.status).toBe('processed');
    expect((await rowsOf(batch)).map((r) => r.status)).toEqual(['processed']);
  });
});

describe('when processing or storing fails', () => {
  it('a mail that cannot be processed does not hold up the others of its batch: they are processed, it is reported as null', async () => {
    const db = world.database.db;
    const t0 = world.clock.now;
    const a = await storeInbound(db, sheetFrom(0, 'V: Sith\n', 'poison-a@example.org'), {
      source: 'cli',
      sourceKey: 'poison:a',
      receivedAt: t0,
    });
    const b = await storeInbound(db, sheetFrom(1, 'V: Sith\n', 'poison-b@example.org'), {
      source: 'cli',
      sourceKey: 'poison:b',
      receivedAt: t0,
    });
    const missing = Math.max(a.id, b.id) + 1000; // no such message
    const results = await processStored(world.deps, [{ id: a.id }, { id: missing }, { id: b.id }]);
    expect(results).toEqual([{ status: 'processed', outcome: 'sheet' }, null, { status: 'processed', outcome: 'sheet' }]);
    expect((await findInbound(db, a.id))?.status).toBe('processed');
    expect((await findInbound(db, b.id))?.status).toBe('processed');
    expect((await acks()).map((m) => m.inReplyTo).sort()).toEqual(['<poison-a@example.org>', '<poison-b@example.org>']);
    expect(await history(0)).toHaveLength(1);
    expect(await history(1)).toHaveLength(1);
  });

  it('an outage while processing leaves the batch pending; the queue goes on with later batches and the sweep picks it up', async () => {
    const g = gated(world.database.db);
    const { log, lines } = capturingLog();
    const queue = new IntakeQueue({ ...world.deps, db: g.db, log });
    const t0 = world.clock.now;
    const first = [
      arrived(sheetFrom(0, 'V: Sith\n', 'outage-0@example.org'), t0),
      arrived(sheetFrom(1, 'V: Sith\n', 'outage-1@example.org'), t0),
    ];
    const second = [arrived(sheetFrom(2, 'V: Hutt\n', 'outage-2@example.org'), minutesAfter(t0, 1))];
    g.fail(new Error('connection terminated unexpectedly'));
    g.open();
    await queue.accept(first);
    await queue.idle();
    expect((await rowsOf(first)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(lines.some((l) => /processing failed/.test(l.msg))).toBe(true);

    g.up();
    await queue.accept(second);
    await queue.idle();
    expect((await rowsOf(second)).map((r) => r.status)).toEqual(['processed']);
    expect((await rowsOf(first)).map((r) => r.status)).toEqual(['pending', 'pending']);
    await queue.sweep();
    expect((await rowsOf(first)).map((r) => r.status)).toEqual(['processed', 'processed']);
    expect((await acks()).map((m) => m.inReplyTo).sort()).toEqual([
      '<outage-0@example.org>',
      '<outage-1@example.org>',
      '<outage-2@example.org>',
    ]);
  });

  it('accept rejects when the batch cannot be stored (the source keeps it), and the queue still works afterwards', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const closed = await openTestPglite();
    await closed.close();
    try {
      const { log, lines } = capturingLog();
      const deps: IntakeDeps = { ...world.deps, db: closed.db, log };
      const queue = new IntakeQueue(deps);
      const lost = [arrived(sheetFrom(0, 'V: Sith\n', 'closed-0@example.org'), world.clock.now)];
      await expect(queue.accept(lost)).rejects.toThrow();
      // A sweep on a database that is down fails inside the queue: logged, not thrown.
      await expect(queue.sweep()).resolves.toBeUndefined();
      expect(lines.some((l) => /intake step failed/.test(l.msg))).toBe(true);
      await queue.idle();

      // The database is back (here: the world's). The same queue stores and processes again,
      // the mail the source kept included.
      deps.db = world.database.db;
      await queue.accept(lost);
      await queue.idle();
      expect((await rowsOf(lost)).map((r) => [r.status, r.outcome])).toEqual([['processed', 'sheet']]);
      expect(await history(0)).toHaveLength(1);
      await new Promise((resolve) => setImmediate(resolve)); // let Node report any unhandled rejection
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
