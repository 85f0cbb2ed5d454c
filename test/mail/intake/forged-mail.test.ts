// Hostile mail, the intake side: mail forged in a player's name, and codes guessed.
import { beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '../../../src/db/audit.ts';
import { findInbound } from '../../../src/db/inbound.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { PROBES_PER_SENDER } from '../../../src/mail/intake/secret-probes.ts';
import { addReferee, assignReferee } from '../../../src/referee/accounts.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld({ rateLimit: 5 });
});

const outbox = async (kind?: string) =>
  (await listOutbox(world.database.db)).filter((m) => m.kind !== 'welcome' && (!kind || m.kind === kind));
const later = (minutes: number) => (world.clock.now = new Date(world.clock.now.getTime() + minutes * 60_000));

describe("refusals to forged mail never starve a player's acknowledgements", () => {
  it("after more forged mails (From: the player, no code) than the hourly limit, the player's real sheet is still acknowledged", async () => {
    for (let i = 0; i < 8; i++) {
      // Each different: the same words twice a day are answered once (echo-guard.test.ts).
      await deliver(
        world,
        orderMail({ from: ADDRESSES[1]!, subject: `[SF andromeda] forged ${i}`, body: `V: Sith\nH: ${'abcdefgh'[i]}\n` }),
      );
    }
    expect((await outbox('refusal')).length).toBe(5); // the limit still holds refusals
    const r = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Hutt\n' }));
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    expect((await outbox('ack')).map((m) => m.toAddress)).toEqual([ADDRESSES[1]]);
  });

  it('the owner of a misused code is warned at most once an hour, and the next warning counts the attempts since', async () => {
    for (let i = 0; i < 6; i++) {
      later(1);
      await deliver(world, orderMail({ from: `mallory${i}@evil.example`, to: privateTo(world, 0), body: 'V: Sith\n' }));
    }
    expect((await outbox('warning')).length).toBe(1);
    later(61);
    const r = await deliver(world, orderMail({ from: 'mallory@evil.example', to: privateTo(world, 0), body: 'V: Sith\n' }));
    const warnings = await outbox('warning');
    expect(warnings.length).toBe(2);
    // Five held back, and this one (Italian: Anna plays in Italian).
    expect(warnings[1]!.bodyText).toMatch(/6 volte/);
    expect((await findInbound(world.database.db, r.id))?.outcomeDetail).toMatchObject({ warned: true });
    // And the owner can still get their own sheet acknowledged.
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\n' }));
    expect(await outbox('ack')).toHaveLength(1);
  });
});

describe('the referee is named', () => {
  it("a warning about a misused code tells the player how to reach the game's referees", async () => {
    const db = world.database.db;
    const gameId = (await listOutbox(db)).find((m) => m.kind === 'welcome')!.gameId!;
    await assignReferee(db, gameId, (await addReferee(db, 'Ref@Example.org', 'test')).referee.email, 'test');
    await deliver(world, orderMail({ from: 'mallory@evil.example', to: privateTo(world, 0), body: 'V: Sith\n' }));
    const [warning] = await outbox('warning');
    expect(warning!.bodyText).toContain("avvisa l'arbitro (ref@example.org)");
  });
});

describe('a code cannot be probed', () => {
  it('a code that belongs to someone else is answered exactly as an unknown code', async () => {
    // Bruno, a player, tries Anna's code, then a made-up one: the two answers are the same.
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 0), subject: 'x', body: 'V: Sith\n' }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: `orders+zzzz-9999@${DOMAIN}`, subject: 'x', body: 'V: Hutt\n' }));
    const refusals = (await outbox('refusal')).filter((m) => m.toAddress === ADDRESSES[1]);
    expect(refusals).toHaveLength(2);
    expect(refusals[0]!.bodyText).toBe(refusals[1]!.bodyText);
    expect(refusals[0]!.subject).toBe(refusals[1]!.subject);
  });

  it('D-PRESS-38: the owner is not told the address of the player who used their code; the referees are, by faction', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 0), subject: 'x', body: 'V: Sith\n' }));
    const [warning] = await outbox('warning');
    expect(warning!.toAddress).toBe(ADDRESSES[0]);
    expect(warning!.bodyText).toContain("dall'indirizzo di un altro giocatore di questa partita (gli arbitri sanno chi è)");
    expect(warning!.bodyText).not.toContain(ADDRESSES[1]!);
    const [entry] = await listAudit(world.database.db, { action: 'intake.code-not-yours' });
    expect(entry?.detail).toMatchObject({ from: 'aristocrats', owner: 'hutt' });
  });

  it('D-MAIL-23: past the threshold of failed codes from one sender the referee is alerted, once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < PROBES_PER_SENDER + 2; i++) {
      ids.push((await deliver(world, orderMail({ from: 'prober@evil.example', to: `orders+guess${i}@${DOMAIN}`, body: 'V: Sith\n' }))).id);
    }
    const details = await Promise.all(
      ids.map(async (id) => (await findInbound(world.database.db, id))!.outcomeDetail as Record<string, unknown>),
    );
    expect(details.slice(0, PROBES_PER_SENDER - 1).every((d) => d.probing === undefined)).toBe(true);
    expect(details[PROBES_PER_SENDER - 1]).toMatchObject({
      probing: true,
      alert: { key: 'sender:prober@evil.example', count: PROBES_PER_SENDER },
    });
    expect(details[PROBES_PER_SENDER]).toMatchObject({ probing: true });
    const alerts = await listAudit(world.database.db, { action: 'intake.code-guessing' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.detail).toMatchObject({ from: 'prober@evil.example' });
  });
});
