// The IMAP source against a real Dovecot (test/harness/dovecot.ts): one fresh user per test.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runImapSource, type ImapSourceOptions } from '../../src/mail/sources/imap-source.ts';
import {
  connectImap,
  disconnectImap,
  ensureMailbox,
  moveToProcessed,
  openMailbox,
  SMALL_MAIL_BYTES,
} from '../../src/mail/sources/imap-steps.ts';
import { createMemoryCursorStore } from '../../src/mail/sources/memory-cursor-store.ts';
import type { ImapRawMail } from '../../src/mail/sources/types.ts';
import { startDovecot, type DovecotServer } from '../harness/dovecot.ts';
import { eventually } from '../support/eventually.ts';

let dovecot: DovecotServer;
let userSeq = 0;
const running: Array<() => Promise<void>> = [];

beforeAll(async () => {
  dovecot = await startDovecot();
});
afterEach(async () => {
  while (running.length) await running.pop()!();
});
afterAll(async () => {
  await dovecot?.stop();
});

async function freshUser(): Promise<string> {
  const user = `player${++userSeq}`;
  await dovecot.addUser(user, 'secret');
  return user;
}

function orderMail(n: number): string {
  return [
    `From: Player ${n} <p${n}@example.org>`,
    'To: orders@sf.example',
    `Subject: [SF andromeda] orders ${n}`,
    `Message-ID: <order-${n}@example.org>`,
    '',
    `B2-C${n}`,
    '',
  ].join('\r\n');
}

/** Log lines as objects, to assert on warnings. */
function captureLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

function startSource(user: string, over: Partial<ImapSourceOptions> = {}) {
  const controller = new AbortController();
  const delivered: ImapRawMail[] = [];
  const cursorStore = over.cursorStore ?? createMemoryCursorStore();
  const options: ImapSourceOptions = {
    connect: over.connect ?? dovecot.settings(user),
    mailbox: 'INBOX',
    processedMailbox: 'Processed',
    cursorStore,
    onBatch: async (ms) => void delivered.push(...ms),
    log: pino({ level: 'silent' }),
    signal: controller.signal,
    pollIntervalMs: 200,
    backoff: { initialMs: 50, maxMs: 400 },
    random: () => 0.5,
    ...over,
  };
  const done = runImapSource(options);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    controller.abort();
    await done;
  };
  running.push(stop);
  return { delivered, cursorStore, done, stop, controller };
}

const subjects = (ms: ImapRawMail[]) => ms.map((m) => /Subject: (.*)\r\n/.exec(m.raw.toString())?.[1]);

describe('runImapSource', () => {
  it('delivers new mail in UID order, moves it to Processed and advances the cursor', async () => {
    const user = await freshUser();
    const dates = [1, 2, 3, 4, 5].map((n) => new Date(Date.UTC(2025, 2, n, 10, 0, 0)));
    for (const [i, date] of dates.entries()) await dovecot.append(user, 'INBOX', orderMail(i + 1), [], date);
    const validity = await dovecot.uidValidity(user, 'INBOX');

    const src = startSource(user);
    await eventually(() => expect(src.delivered).toHaveLength(5));
    expect(src.delivered.map((m) => m.uid)).toEqual([1, 2, 3, 4, 5]);
    expect(subjects(src.delivered)).toEqual([1, 2, 3, 4, 5].map((n) => `[SF andromeda] orders ${n}`));
    expect(src.delivered.map((m) => m.receivedAt.toISOString())).toEqual(dates.map((d) => d.toISOString()));
    expect(src.delivered[0]).toMatchObject({ uidValidity: validity, sourceKey: `imap:INBOX:${validity}:1` });
    expect(src.delivered[0]!.raw.toString()).toBe(orderMail(1)); // byte for byte

    await eventually(async () => {
      expect(await dovecot.listUids(user, 'INBOX')).toEqual([]);
      expect(await dovecot.listUids(user, 'Processed')).toHaveLength(5);
      expect(await src.cursorStore.get('INBOX')).toEqual({ uidValidity: validity, lastUid: 5 });
    });
    await src.stop();
  });

  it('cuts batches by bytes: a large message counts at its size, a small one at SMALL_MAIL_BYTES', async () => {
    const user = await freshUser();
    const padded = (n: number, bytes: number) => `${orderMail(n)}${'V: Sith\r\n'.repeat(Math.ceil(bytes / 9))}`;
    // Large, large, small, large: [1, 2] then [3, 4]. Were every size taken as small's, [1, 2, 3] then [4].
    for (const [n, bytes] of [
      [1, 40_000],
      [2, 40_000],
      [3, 0],
      [4, 40_000],
    ] as const)
      await dovecot.append(user, 'INBOX', padded(n, bytes));
    expect(SMALL_MAIL_BYTES * 3).toBeLessThan(100_000);
    const batches: number[][] = [];
    const src = startSource(user, {
      batch: { maxMessages: 10, maxBytes: 100_000 },
      onBatch: async (ms) => void batches.push(ms.map((m) => m.uid)),
    });
    await eventually(() => expect(batches.flat()).toHaveLength(4));
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await src.stop();
  });

  it('leaves a batch whose handler fails in the INBOX, cursor unmoved, retries it and keeps the order', async () => {
    const user = await freshUser();
    for (const n of [1, 2, 3, 4, 5]) await dovecot.append(user, 'INBOX', orderMail(n));
    let failing = true;
    let failures = 0;
    const delivered: number[] = [];
    const src = startSource(user, {
      batch: { maxMessages: 2, maxBytes: 1_000_000 }, // batches [1,2] [3,4] [5]
      onBatch: async (ms) => {
        if (ms.some((m) => m.uid === 3) && failing) {
          failures++;
          throw new Error('database unavailable');
        }
        delivered.push(...ms.map((m) => m.uid));
      },
    });
    await eventually(() => expect(failures).toBeGreaterThanOrEqual(3)); // retried, with backoff
    expect(delivered).toEqual([1, 2]); // 5 waits behind the failed batch: order is kept
    expect(await dovecot.listUids(user, 'INBOX')).toEqual([3, 4, 5]);
    expect(await dovecot.listUids(user, 'Processed')).toHaveLength(2);
    expect((await src.cursorStore.get('INBOX'))?.lastUid).toBe(2);

    failing = false;
    await eventually(() => expect(delivered).toEqual([1, 2, 3, 4, 5]));
    await eventually(async () => expect(await dovecot.listUids(user, 'INBOX')).toEqual([]));
    expect((await src.cursorStore.get('INBOX'))?.lastUid).toBe(5);
  });

  it('starts from scratch when UIDVALIDITY changes (mailbox deleted and recreated)', async () => {
    const user = await freshUser();
    await dovecot.createMailbox(user, 'Orders');
    for (const n of [1, 2]) await dovecot.append(user, 'Orders', orderMail(n));
    const cursorStore = createMemoryCursorStore();
    const first = startSource(user, { mailbox: 'Orders', cursorStore });
    await eventually(() => expect(first.delivered).toHaveLength(2));
    await first.stop();
    const oldValidity = (await cursorStore.get('Orders'))!.uidValidity;
    expect(await cursorStore.get('Orders')).toEqual({ uidValidity: oldValidity, lastUid: 2 });

    await dovecot.deleteMailbox(user, 'Orders');
    await dovecot.createMailbox(user, 'Orders');
    for (const n of [3, 4]) await dovecot.append(user, 'Orders', orderMail(n)); // UIDs 1 and 2 again
    const newValidity = await dovecot.uidValidity(user, 'Orders');
    expect(newValidity).not.toBe(oldValidity);

    const { log, lines } = captureLog();
    const second = startSource(user, { mailbox: 'Orders', cursorStore, log });
    await eventually(() => expect(second.delivered).toHaveLength(2));
    expect(second.delivered.map((m) => [m.uid, m.sourceKey])).toEqual([
      [1, `imap:Orders:${newValidity}:1`],
      [2, `imap:Orders:${newValidity}:2`],
    ]);
    expect(subjects(second.delivered)).toEqual(['[SF andromeda] orders 3', '[SF andromeda] orders 4']);
    await eventually(async () => expect(await cursorStore.get('Orders')).toEqual({ uidValidity: newValidity, lastUid: 2 }));
    expect(lines.some((l) => l.level === 40 && /UIDVALIDITY changed/.test(l.msg))).toBe(true);
  });

  it('with IDLE, delivers mail appended while it runs long before the next poll', async () => {
    const user = await freshUser();
    const { log, lines } = captureLog();
    const src = startSource(user, { pollIntervalMs: 600_000, idleRefreshMs: 600_000, log });
    await eventually(() => expect(lines.some((l) => l.msg === 'IMAP mailbox open')).toBe(true));
    expect(lines.find((l) => l.msg === 'IMAP mailbox open')).toMatchObject({ idle: true });
    await new Promise((r) => setTimeout(r, 300)); // let it settle into IDLE
    await dovecot.append(user, 'INBOX', orderMail(1));
    // Ten minutes to the next poll: delivered within a minute, it was IDLE that told the source.
    await eventually(() => expect(src.delivered).toHaveLength(1), { timeoutMs: 60_000 });
  });

  it('reconnects after the server goes away and comes back, and carries on', async () => {
    const user = await freshUser();
    await dovecot.append(user, 'INBOX', orderMail(1));
    const { log, lines } = captureLog();
    const src = startSource(user, { log });
    await eventually(() => expect(src.delivered).toHaveLength(1));

    await dovecot.stopDaemon();
    await eventually(() => expect(lines.some((l) => /reconnecting/.test(l.msg))).toBe(true));
    await new Promise((r) => setTimeout(r, 500)); // a few refused reconnects
    await dovecot.startDaemon();
    await dovecot.append(user, 'INBOX', orderMail(2));
    await eventually(() => expect(src.delivered.map((m) => m.uid)).toEqual([1, 2]), { timeoutMs: 60_000 });
    await eventually(async () => expect((await src.cursorStore.get('INBOX'))?.lastUid).toBe(2));
  });

  it('stops cleanly on abort, also while it cannot connect, and never rejects', async () => {
    // Polls and retries an hour apart: a stop that waited for either would outlast the test's
    // time-out, so resolving at all proves the abort cuts the wait short.
    const user = await freshUser();
    const { log, lines } = captureLog();
    const src = startSource(user, { pollIntervalMs: 3_600_000, idleRefreshMs: 3_600_000, log });
    await eventually(() => expect(lines.some((l) => l.msg === 'IMAP mailbox open')).toBe(true));
    await expect(src.stop()).resolves.toBeUndefined();

    const offline = captureLog();
    const unreachable = startSource(user, {
      connect: { ...dovecot.settings(user), port: 1 }, // nothing listens there
      backoff: { initialMs: 3_600_000, maxMs: 3_600_000 },
      log: offline.log,
    });
    await eventually(() => expect(offline.lines.some((l) => /reconnecting/.test(l.msg))).toBe(true)); // now in its backoff
    await expect(unreachable.stop()).resolves.toBeUndefined();
  });
});

describe('moveToProcessed', () => {
  it('takes mail another reader of the mailbox moved first as moved, and moves the rest', async () => {
    const user = await freshUser();
    for (const n of [1, 2, 3]) await dovecot.append(user, 'INBOX', orderMail(n));
    const uids = await dovecot.listUids(user, 'INBOX');
    const log = pino({ level: 'silent' });
    const [first, second] = await Promise.all([connectImap(dovecot.settings(user), log), connectImap(dovecot.settings(user), log)]);
    try {
      for (const c of [first, second]) await openMailbox(c, 'INBOX');
      await ensureMailbox(first, 'Processed', log);
      // The other instance stored and moved the first two already.
      expect(await moveToProcessed(first, uids.slice(0, 2), 'Processed', log)).toBe(true);
      expect(await moveToProcessed(second, uids, 'Processed', log)).toBe(true);
      expect(await dovecot.listUids(user, 'INBOX')).toEqual([]);
      expect(await dovecot.listUids(user, 'Processed')).toHaveLength(3);
    } finally {
      await Promise.all([disconnectImap(first, log), disconnectImap(second, log)]);
    }
  });
});

describe('runImapSource without IDLE', () => {
  let noIdle: DovecotServer;
  beforeAll(async () => {
    noIdle = await startDovecot({
      users: { poller: 'secret' },
      extraConfig: 'imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE UIDPLUS MOVE',
    });
  });
  afterAll(async () => {
    await noIdle?.stop();
  });

  it('polls every pollIntervalMs', async () => {
    const { log, lines } = captureLog();
    const src = startSource('poller', { connect: noIdle.settings('poller'), pollIntervalMs: 300, log });
    await eventually(() => expect(lines.find((l) => l.msg === 'IMAP mailbox open')).toMatchObject({ idle: false }));
    await noIdle.append('poller', 'INBOX', orderMail(1));
    await eventually(() => expect(src.delivered).toHaveLength(1), { timeoutMs: 60_000 });
    await eventually(async () => expect(await noIdle.listUids('poller', 'INBOX')).toEqual([]));
  });
});
