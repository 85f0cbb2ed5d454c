// Intake on a real (in-process) PostgreSQL: identification, sheets, acknowledgements, refusals.
import { beforeEach, describe, expect, it } from 'vitest';
import { listOutbox } from '../../../src/db/outbox.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { findTurn } from '../../../src/db/turns.ts';
import { updateGame } from '../../../src/db/games.ts';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { findInbound, MAX_PROCESSING_ATTEMPTS } from '../../../src/db/inbound.ts';
import { processInbound } from '../../../src/mail/intake/process-inbound.ts';
import { processPending, processStored, receiveMail, storeMails } from '../../../src/mail/intake/receive.ts';
import { ADDRESSES, deliver, makeWorld, openTurnTwo, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const replies = async (kind?: string) =>
  (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind !== 'welcome' && (!kind || m.kind === kind));
const history = (faction: string, turn = 1) => sheetHistory(world.database.db, 'andromeda', turn, faction);

describe('a sheet from the registered player at their private address', () => {
  it('R-TURN-4: is stored as version 1 and acknowledged at once, threaded, with the orders as understood', async () => {
    const raw = orderMail({
      from: ADDRESSES[0]!,
      to: privateTo(world, 0),
      subject: 'ordini',
      body: 'V: Sith\nH: Sith\n',
      messageId: '<abc@example.org>',
    });
    const r = await deliver(world, raw);
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    const [sheet] = await history('hutt');
    expect(sheet).toMatchObject({ version: 1, status: 'valid' });
    const [ack] = await replies('ack');
    expect(ack!.toAddress).toBe(ADDRESSES[0]);
    expect(ack!.inReplyTo).toBe('<abc@example.org>');
    expect(ack!.references).toContain('<abc@example.org>');
    expect(ack!.subject).toMatch(/^Re: ordini/);
    expect(ack!.bodyText).toContain('Voto: Sith');
    expect(ack!.bodyText).toContain('Ostilità: Sith');
    expect(ack!.bodyText).toContain('primo foglio');
    expect(ack!.bodyText).toMatch(/Scadenza: .*2026.*Europe\/Rome/);
    expect(ack!.replyTo).toBe(privateTo(world, 0));
  });

  it('R-TURN-4: a second sheet becomes version 2 and the reply says which sheet it replaces', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Hutt\n' }));
    world.clock.now = new Date(world.clock.now.getTime() + 3_600_000);
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    const versions = await history('aristocrats');
    expect(versions.map((s) => s.version)).toEqual([1, 2]);
    const acks = await replies('ack');
    expect(acks).toHaveLength(2);
    expect(acks[1]!.bodyText).toMatch(/replaces your sheet of .*2026/);
  });

  it('R-ORD-8 R-TURN-1: problems are reported line by line and the sheet is stored as received with problems', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\nB2-C3\nplease be kind\n' }));
    const [sheet] = await history('aristocrats');
    expect(sheet!.status).toBe('problems');
    const [ack] = await replies('ack');
    expect(ack!.bodyText).toContain('received with problems');
    expect(ack!.bodyText).toMatch(/Line 3: .*please be kind/);
    expect(ack!.bodyText).toContain('B2-C3'); // an order for a unit that is not theirs, reported
  });

  it('chatter alone is not a sheet: answered, and the earlier sheet still stands (D-MAIL-1)', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    const r = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'thanks, see you!\n' }));
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'no-sheet' });
    expect(await history('aristocrats')).toHaveLength(1);
    const [reply] = await replies('unreadable');
    expect(reply!.bodyText).toContain('Your earlier sheet still stands');
  });

  it('works through the common address with a [SF game] tag and a Code: line', async () => {
    const secret = world.created.players[2]!.secret;
    const r = await deliver(
      world,
      orderMail({ from: ADDRESSES[2]!, subject: 'Re: [SF andromeda] turno 1', body: `Code: ${secret}\nV: Knights\n` }),
    );
    expect(r.result).toMatchObject({ outcome: 'sheet' });
    expect((await history('sith'))[0]!.status).toBe('valid');
  });
});

describe("nobody else may send orders in a player's name", () => {
  it('the right secret from another address is not applied, and the registered player is warned', async () => {
    const r = await deliver(world, orderMail({ from: 'mallory@evil.example', to: privateTo(world, 0), body: 'V: Sith\n' }));
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'sender-mismatch' });
    expect(await history('hutt')).toHaveLength(0);
    const out = await replies();
    expect(out.map((m) => [m.kind, m.toAddress])).toEqual([['warning', ADDRESSES[0]]]);
    expect(out[0]!.bodyText).toContain('mallory@evil.example');
  });

  it("a registered player using another player's secret is refused and that player warned", async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 0), body: 'V: Sith\n' }));
    const out = await replies();
    expect(out.map((m) => [m.kind, m.toAddress]).sort()).toEqual([
      ['refusal', ADDRESSES[1]],
      ['warning', ADDRESSES[0]],
    ]);
    expect(out.find((m) => m.kind === 'refusal')!.bodyText).not.toContain(ADDRESSES[0]);
  });

  it('an unknown sender with no code gets no reply at all', async () => {
    const r = await deliver(world, orderMail({ from: 'stranger@example.net', body: 'B2-C3\n' }));
    expect(r.result).toMatchObject({ status: 'ignored', outcome: 'unknown-sender' });
    expect(await replies()).toHaveLength(0);
  });

  it('the tag without a code is refused with an explanation', async () => {
    const r = await deliver(world, orderMail({ from: ADDRESSES[3]!, subject: '[SF andromeda]', body: 'V: Hutt\n' }));
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'missing-code' });
    expect((await replies('refusal'))[0]!.bodyText).toContain('no code');
  });
});

describe('mail that is never answered, and mail answered but not read', () => {
  it('an auto-reply is stored and ignored', async () => {
    const r = await deliver(
      world,
      orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'I am on holiday', headers: { 'Auto-Submitted': 'auto-replied' } }),
    );
    expect(r.result).toMatchObject({ status: 'ignored', outcome: 'automatic' });
    expect(await replies()).toHaveLength(0);
    expect((await findInbound(world.database.db, r.id))!.raw.length).toBeGreaterThan(0);
  });

  it('replies to one address stop at the hourly limit (acknowledgements of sheets go past it: forged-mail.test.ts)', async () => {
    world = await makeWorld({ rateLimit: 2 });
    for (let i = 0; i < 3; i++) await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: `STATUS\n` }));
    expect(await replies('status')).toHaveLength(2);
  });

  it('an oversized mail is answered once with the reason and not read', async () => {
    world = await makeWorld({ maxBytes: 2_000 });
    const r = await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: `V: Sith\n${'x'.repeat(5_000)}\n` }));
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'too-large' });
    expect(await history('hutt')).toHaveLength(0);
    expect((await replies('unreadable'))[0]!.bodyText).toContain('troppo grande');
  });

  it.each([
    ['in the body', { body: 'V: Sith\nH: Hutt\u0000\n' }],
    ['in the subject', { subject: 'ord\u0000ini', body: 'V: Sith\n' }],
    ['in an Auto-Submitted header', { body: 'away', headers: { 'Auto-Submitted': 'auto-replied\u0000' } }],
  ])('a NUL byte %s does not make the mail impossible to record', async (_, spec) => {
    const r = await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), ...spec }));
    expect(r.result).not.toBeNull();
    const row = (await findInbound(world.database.db, r.id))!;
    expect(row.status).not.toBe('pending');
    expect(row.raw.includes(0)).toBe(true); // the bytes are kept as they came
  });

  it('D-MAIL-21: a mail that cannot be processed is retried, then set aside for the referee, and the sweep moves on', async () => {
    let broken = true;
    const deps = {
      ...world.deps,
      boardFor: () => {
        if (broken) throw new Error('map store unavailable');
        return classicMap();
      },
    };
    const poison = await receiveMail(deps, {
      raw: orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\n' }),
      source: 'cli',
      sourceKey: 'poison',
      receivedAt: world.clock.now,
    });
    expect(poison.result).toBeNull();
    for (let i = 2; i < MAX_PROCESSING_ATTEMPTS; i++) await processPending(deps);
    let row = (await findInbound(world.database.db, poison.id))!;
    expect(row).toMatchObject({
      status: 'pending',
      attempts: MAX_PROCESSING_ATTEMPTS - 1,
      lastError: expect.stringContaining('map store unavailable'),
    });
    await processPending(deps);
    row = (await findInbound(world.database.db, poison.id))!;
    expect(row).toMatchObject({ status: 'rejected', outcome: 'unprocessable', attempts: MAX_PROCESSING_ATTEMPTS });
    broken = false;
    const next = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    expect(next.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    expect(await processPending(deps)).toBe(0); // nothing pending: the set-aside mail is not retried
    expect(await history('hutt')).toHaveLength(0);
  });

  it('D-MAIL-21: a deadlock or a serialisation failure is not counted against the mail', async () => {
    const deps = {
      ...world.deps,
      boardFor: () => {
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      },
    };
    const r = await receiveMail(deps, {
      raw: orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\n' }),
      source: 'cli',
      sourceKey: 'deadlocked',
      receivedAt: world.clock.now,
    });
    for (let i = 0; i < MAX_PROCESSING_ATTEMPTS + 1; i++) await processPending(deps);
    expect(await findInbound(world.database.db, r.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await processPending(world.deps)).toBe(1);
    expect(await history('hutt')).toHaveLength(1);
  });

  it('processing the same stored mail again changes nothing', async () => {
    const r = await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\n' }));
    expect(await processInbound(world.deps, r.id)).toMatchObject({ status: 'already', outcome: 'sheet' });
    expect(await history('hutt')).toHaveLength(1);
    expect(await replies('ack')).toHaveLength(1);
  });
});

describe('deadlines and the Chancellor', () => {
  it('R-TURN-4: a sheet received after the deadline is answered and never applied', async () => {
    const turn = (await findTurn(world.database.db, 'andromeda', 1))!;
    const r = await deliver(
      world,
      orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\n' }),
      new Date(turn.deadline.getTime() + 1_000),
    );
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'late' });
    expect(await history('hutt')).toHaveLength(0);
    expect((await replies('late'))[0]!.bodyText).toContain('R-TURN-4');
  });

  it('R-TURN-2 R-TURN-3: the Chancellor declares first: their sheet is mailed to every player at once and is final', async () => {
    await openTurnTwo(world.database.db);
    await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'H: Hutt\nN9#\nT7-S7\n' }));
    const broadcast = await replies('chancellor-sheet');
    expect(broadcast.map((m) => m.toAddress).sort()).toEqual([...ADDRESSES].sort());
    expect(broadcast.find((m) => m.toAddress === ADDRESSES[1])!.bodyText).toMatch(/N9#[\s\S]*T7-S7/);
    // The subject names the turn as a turn, not as a bare number.
    expect(broadcast.find((m) => m.toAddress === ADDRESSES[1])!.subject).toMatch(/, turn 2$|, turno 2$/);
    // The Chancellor's own acknowledgement does not also say that the orders it just published stay secret.
    const ack = (await replies('ack')).at(-1)!;
    expect(ack.toAddress).toBe(ADDRESSES[2]);
    expect(ack.bodyText).toMatch(/(sent to every player|inviato a tutti i giocatori)/);
    expect(ack.bodyText).not.toMatch(/^(Orders stay secret|Gli ordini restano segreti)/m);
    expect(ack.bodyText).toMatch(/(The other players' orders stay secret|Gli ordini degli altri giocatori restano segreti)/);
    const again = await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'H: Knights\n' }));
    expect(again.result).toMatchObject({ status: 'rejected', outcome: 'chancellor-final' });
    expect(await history('sith', 2)).toHaveLength(1);
  });

  it('D-MAIL-20 R-TURN-4: a sheet read late (an outage) does not replace a newer one already read', async () => {
    const t0 = world.clock.now;
    await deliver(
      world,
      orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Knights\n' }),
      new Date(t0.getTime() + 600_000),
    );
    const older = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }), t0);
    expect(older.result).toMatchObject({ status: 'rejected', outcome: 'superseded' });
    expect((await history('aristocrats')).map((h) => h.text)).toEqual(['V: Knights']);
    const refusal = (await replies('refusal')).at(-1)!;
    expect(refusal.bodyText).toContain('the newer one stands (R-TURN-4)');
    // Same second (IMAP dates have whole seconds): the mail stored later is the later one.
    const same = await deliver(
      world,
      orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Hutt\n' }),
      new Date(t0.getTime() + 600_000),
    );
    expect(same.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
  });

  it('D-MAIL-20: of two sheets stored in the same second, the one stored first never replaces the other, whatever the reading order', async () => {
    const at = world.clock.now;
    const sheet = (body: string, key: string) => ({
      raw: orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body }),
      source: 'cli' as const,
      sourceKey: key,
      receivedAt: at,
    });
    const [first, second] = await storeMails(world.deps, [sheet('V: Sith\n', 'same-second:1'), sheet('V: Knights\n', 'same-second:2')]);
    expect(await processStored(world.deps, [second!])).toEqual([{ status: 'processed', outcome: 'sheet' }]);
    expect(await processStored(world.deps, [first!])).toEqual([{ status: 'rejected', outcome: 'superseded' }]);
    expect((await history('aristocrats')).map((h) => h.text)).toEqual(['V: Knights']);
  });

  it('R-TURN-3: a Chancellor sheet after the declaration deadline is not applied', async () => {
    const { deadline } = await openTurnTwo(world.database.db);
    const late = new Date(deadline.getTime() - 3_600_000);
    const r = await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'N9#\n' }), late);
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'late' });
    expect((await replies('late'))[0]!.bodyText).toContain('R-TURN-3');
  });

  it('STATUS answers with the deadline and the current sheet; HELP with how to write one', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'status\n' }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), subject: 'HELP', body: '' }));
    const [status] = await replies('status');
    expect(status!.bodyText).toMatch(/Your orders: valid/);
    expect(status!.bodyText).toContain('V: Sith');
    expect((await replies('help'))[0]!.bodyText).toContain('B2=F6');
    expect(await history('aristocrats')).toHaveLength(1);
  });

  it('D-WIN-4: once the game is over HELP and STATUS still answer; a sheet is refused as over', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    await updateGame(world.database.db, 'andromeda', { status: 'finished' });
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'status\n' }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), subject: 'HELP', body: '' }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Hutt\n' }));
    const [status] = await replies('status');
    expect(status!.bodyText).toContain('The game is over: no more orders are taken.');
    expect(status!.bodyText).toContain('V: Sith');
    expect((await replies('help'))[0]!.bodyText).toContain('B2=F6');
    const [refused] = await replies('refusal');
    expect(refused!.bodyText).toContain('This game is over: it takes no more orders');
  });

  it('a turn whose moves count: invalid orders are named in the reply (R-ORD-5, R-ORD-7)', async () => {
    await openTurnTwo(world.database.db);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'B2-C4\nG7-G8\nB1–C1\n' }));
    const [ack] = await replies('ack');
    expect(ack!.bodyText).toContain('non è adiacente');
    expect(ack!.bodyText).toContain('non è tua');
    expect(ack!.bodyText).toMatch(/B1-C1\s*\n/); // the en dash read as a move, applied
    expect(ack!.bodyText).toContain('CARATTERI SOSTITUITI');
  });
});
