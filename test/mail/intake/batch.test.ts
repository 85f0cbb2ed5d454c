// Mail received in batches (receiveMails): each mail of a batch is decided seeing the ones
// before it — a second sheet is version 2, the Chancellor's second sheet is refused, a copy is
// stored and answered once, a spoof refused in passing, the hourly reply limit counted as it goes.
import { beforeEach, describe, expect, it } from 'vitest';
import { findInbound } from '../../../src/db/inbound.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { formatInstant } from '../../../src/games/time-format.ts';
import { receiveMails, type ArrivedMail } from '../../../src/mail/intake/receive.ts';
import { ACK_CEILING_FACTOR } from '../../../src/mail/intake/outgoing.ts';
import type { Db } from '../../../src/db/client.ts';
import { ADDRESSES, makeWorld, openTurnTwo, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

let keys = 0;
const arrived = (raw: Buffer, receivedAt = world.clock.now, sourceKey = `batch:${++keys}`): ArrivedMail => ({
  raw,
  source: 'imap',
  sourceKey,
  receivedAt,
});
const minutesAfter = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);
const replies = async (kind?: string) =>
  (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind !== 'welcome' && (!kind || m.kind === kind));
const factionOf = (i: number) => world.created.players[i]!.faction;
const history = (i: number, turn = 1) => sheetHistory(world.database.db, 'andromeda', turn, factionOf(i));

/**
 * receiveMails on the world, counting transactions: a batch is decided in one. A second would
 * mean the batch failed and fell back to one mail at a time, which would hide a mistake in
 * deciding mails together (the one-by-one results are right by themselves).
 */
async function receiveInOne(batch: ArrivedMail[]) {
  let transactions = 0;
  const db = new Proxy(world.deps.db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'transaction') transactions++;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Db;
  const results = await receiveMails({ ...world.deps, db }, batch);
  expect(transactions).toBe(1);
  return results;
}

describe('one batch holding several mails that depend on each other', () => {
  it('two sheets, the Chancellor twice, a copy and a spoof: each decided after the ones before it', async () => {
    await openTurnTwo(world.database.db);
    expect(factionOf(2)).toBe('sith');
    const t0 = world.clock.now;
    const mine = orderMail({ from: ADDRESSES[3]!, to: privateTo(world, 3), body: 'H: Sith\n', messageId: '<dario@example.org>' });
    // The same message again, by another way in (Cc: the common address): other trace headers, same body.
    const mineCopy = orderMail({
      from: ADDRESSES[3]!,
      to: privateTo(world, 3),
      body: 'H: Sith\n',
      messageId: '<dario@example.org>',
      headers: { 'Delivered-To': `orders@sf.example`, Received: 'from mx2.example.org by sf.example' },
    });
    const batch = [
      arrived(orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'H: Sith\n', messageId: '<bruno-1@example.org>' }), t0),
      arrived(
        orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'H: Hutt\nN9#\nT7-S7\n', messageId: '<carla-1@example.org>' }),
        minutesAfter(t0, 1),
      ),
      // A spoof in the middle: bruno's secret, mallory's address.
      arrived(
        orderMail({
          from: 'mallory@evil.example',
          to: privateTo(world, 1),
          body: 'H: Hutt, Knights\n',
          messageId: '<mallory@evil.example>',
        }),
        minutesAfter(t0, 2),
      ),
      arrived(
        orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'H: Knights\n', messageId: '<bruno-2@example.org>' }),
        minutesAfter(t0, 3),
      ),
      arrived(
        orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'H: Knights\n', messageId: '<carla-2@example.org>' }),
        minutesAfter(t0, 4),
      ),
      arrived(mine, minutesAfter(t0, 5), 'batch:dario'),
      arrived(mine, minutesAfter(t0, 5), 'batch:dario'), // the same delivery offered twice
      arrived(mineCopy, minutesAfter(t0, 6), 'batch:dario-copy'),
    ];
    const results = await receiveInOne(batch);

    // Answers in the order given; copies answer with the first one's row, already processed.
    expect(results.map((r) => [r.duplicate, r.result])).toEqual([
      [false, { status: 'processed', outcome: 'sheet' }],
      [false, { status: 'processed', outcome: 'sheet' }],
      [false, { status: 'rejected', outcome: 'sender-mismatch' }],
      [false, { status: 'processed', outcome: 'sheet' }],
      [false, { status: 'rejected', outcome: 'chancellor-final' }],
      [false, { status: 'processed', outcome: 'sheet' }],
      [true, { status: 'already', outcome: 'sheet' }],
      [true, { status: 'already', outcome: 'sheet' }],
    ]);
    expect(results[6]!.id).toBe(results[5]!.id);
    expect(results[7]!.id).toBe(results[5]!.id);
    expect(new Set(results.slice(0, 6).map((r) => r.id)).size).toBe(6);
    for (const r of results) expect((await findInbound(world.database.db, r.id))?.status).not.toBe('pending');

    // Bruno: versions 1 and 2; the second ack replaces the first, received at t0.
    expect((await history(1, 2)).map((s) => [s.version, s.text.trim(), s.inboundId])).toEqual([
      [1, 'H: Sith', results[0]!.id],
      [2, 'H: Knights', results[3]!.id],
    ]);
    const acks = await replies('ack');
    const ackTo = (messageId: string) => acks.filter((a) => a.inReplyTo === messageId);
    expect(ackTo('<bruno-1@example.org>')).toHaveLength(1);
    expect(ackTo('<bruno-1@example.org>')[0]!.bodyText).toContain('This is your first sheet for this turn.');
    expect(ackTo('<bruno-2@example.org>')).toHaveLength(1);
    expect(ackTo('<bruno-2@example.org>')[0]!.bodyText).toContain(
      `This sheet replaces your sheet of ${formatInstant(t0, 'Europe/Rome', 'en')} entirely`,
    );

    // The Chancellor (R-TURN-3): the first sheet accepted and mailed to every player once; the second refused.
    expect((await history(2, 2)).map((s) => [s.version, s.inboundId])).toEqual([[1, results[1]!.id]]);
    const broadcast = await replies('chancellor-sheet');
    expect(broadcast.map((m) => m.toAddress).sort()).toEqual([...ADDRESSES].sort());
    for (const m of broadcast) expect(m.bodyText).toMatch(/N9#[\s\S]*T7-S7/);
    expect(ackTo('<carla-1@example.org>')).toHaveLength(1);
    expect(ackTo('<carla-2@example.org>')).toHaveLength(0);
    const refusals = (await replies('refusal')).filter((m) => m.inReplyTo === '<carla-2@example.org>');
    expect(refusals.map((m) => m.toAddress)).toEqual([ADDRESSES[2]]);
    expect(refusals[0]!.bodyText).toMatch(/R-TURN-3/);

    // The spoof: nothing applied to bruno's faction beyond his own two sheets; bruno warned, mallory not answered.
    expect((await replies('warning')).map((m) => m.toAddress)).toEqual([ADDRESSES[1]]);
    expect((await replies()).some((m) => m.toAddress === 'mallory@evil.example')).toBe(false);
    expect((await findInbound(world.database.db, results[2]!.id))?.outcomeDetail).toMatchObject({
      reason: 'sender-mismatch',
      from: 'mallory@evil.example',
    });

    // Dario's mail, three times in the batch: one row, one sheet version, one ack.
    expect((await history(3, 2)).map((s) => [s.version, s.inboundId])).toEqual([[1, results[5]!.id]]);
    expect(ackTo('<dario@example.org>')).toHaveLength(1);

    // Nothing else was written: three sheets acked, four broadcast, one refusal, one warning.
    expect((await replies()).map((m) => m.kind).sort()).toEqual(
      [
        'ack',
        'ack',
        'ack',
        'ack',
        'chancellor-sheet',
        'chancellor-sheet',
        'chancellor-sheet',
        'chancellor-sheet',
        'refusal',
        'warning',
      ].sort(),
    );
  });

  it('the ceiling on acknowledgements is reached within one batch: every sheet is kept, only the first replies are sent', async () => {
    // Acks go past the hourly limit (forged mail must not starve them) up to ACK_CEILING_FACTOR times it: 2 × 5 here.
    world = await makeWorld({ rateLimit: 2 });
    const t0 = world.clock.now;
    const ceiling = 2 * ACK_CEILING_FACTOR;
    const texts = Array.from({ length: ceiling + 2 }, (_, i) => ['V: Sith', 'V: Hutt', 'V: Knights', 'H: Sith'][i % 4]!);
    const batch = texts.map((text, i) =>
      arrived(
        orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: `${text}\n`, messageId: `<limit-${i}@example.org>` }),
        minutesAfter(t0, i),
      ),
    );
    // A mail from another player in the same batch has its own limit.
    batch.push(
      arrived(
        orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n', messageId: '<limit-other@example.org>' }),
        minutesAfter(t0, texts.length),
      ),
    );
    const results = await receiveInOne(batch);
    expect(results.map((r) => r.result)).toEqual(batch.map(() => ({ status: 'processed', outcome: 'sheet' })));
    expect((await history(0)).map((s) => s.text.trim())).toEqual(texts);
    const toAnna = (await replies()).filter((m) => m.toAddress === ADDRESSES[0]);
    expect(toAnna.map((m) => [m.kind, m.inReplyTo])).toEqual(texts.slice(0, ceiling).map((_, i) => ['ack', `<limit-${i}@example.org>`]));
    const answered = await Promise.all(
      results
        .slice(0, texts.length)
        .map(async (r) => ((await findInbound(world.database.db, r.id))?.outcomeDetail as { answered?: boolean }).answered),
    );
    expect(answered).toEqual(texts.map((_, i) => i < ceiling));
    expect((await replies('ack')).filter((m) => m.toAddress === ADDRESSES[1])).toHaveLength(1);
  });
});
