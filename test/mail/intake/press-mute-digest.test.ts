// MUTE / UNMUTE / DIGEST / IMMEDIATE through the real intake on PGlite, and the turn job's digest
// (docs/press.md §1, §4; D-PRESS-10, D-PRESS-11): a muted writer's messages are stored and not
// mailed, the writer is never told; a digest reader gets one mail per slot with every message
// visible by then, its reply address, and the count of what their mutes kept from them.
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { listOutbox, type OutboxMail } from '../../../src/db/outbox.ts';
import { pressMessages, pressRecipients } from '../../../src/db/schema.ts';
import { findTurn } from '../../../src/db/turns.ts';
import { updateGame } from '../../../src/db/games.ts';
import { pauseGame, runTurnJob } from '../../../src/games/index.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

// Players: 0 Hutt (it, anna), 1 Aristocrats (en, bruno), 2 Sith (it, carla), 3 Knights (en, dario).
// The game's zone is Europe/Rome (UTC+1 in March): the digest's 07:00 is 06:00Z.
let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const all = async () => listOutbox(world.database.db, { gameId: 'andromeda' });
const mails = async (kind: string) => (await all()).filter((m) => m.kind === kind);
const to = (rows: OutboxMail[], address: string) => rows.filter((m) => m.toAddress === address);
const at = (iso: string) => (world.clock.now = new Date(iso));
const later = () => (world.clock.now = new Date(world.clock.now.getTime() + 60_000));

async function write(i: number, body: string) {
  later();
  return deliver(world, orderMail({ from: ADDRESSES[i]!, to: privateTo(world, i), body }));
}

/** A mail client's Reply to one of our mails: to its Reply-To (or the given address), threaded under it. */
async function reply(m: OutboxMail, body: string, address = m.replyTo!) {
  later();
  return deliver(
    world,
    orderMail({
      from: m.toAddress,
      to: address,
      subject: `Re: ${m.subject}`,
      body,
      headers: { 'In-Reply-To': `<${m.messageId}>`, References: `<${m.messageId}>` },
    }),
  );
}

const job = () =>
  runTurnJob({
    db: world.database.db,
    ctx: { actor: 'test', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => world.clock.now },
    log: pino({ level: 'silent' }),
    catchUp: async () => true,
  });

/** The answers to a player's commands (the STATUS kind of reply), newest last. */
const answers = async (i: number) => to(await mails('status'), ADDRESSES[i]!);
const deliveries = async (address: string) =>
  (await world.database.db.select().from(pressRecipients).where(eq(pressRecipients.address, address))).map((r) => ({
    delivery: r.delivery,
    outboxId: r.outboxId,
  }));

describe('D-PRESS-11: MUTE', () => {
  it('a muted faction’s messages and broadcasts are stored as muted and not mailed; the writer’s acknowledgement is unchanged', async () => {
    const r = await write(0, 'SILENZIA Sith\n');
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'press-command' });
    const [answer] = await answers(0);
    expect(answer!.bodyText).toContain('Da ora i messaggi dei Sith non ti arrivano');
    expect(answer!.bodyText).toContain('Hai silenziato: i Sith.');
    expect(answer!.bodyText).toContain('Ricevi ogni messaggio subito');

    await write(2, 'STAMPA A Hutt, Aristocratici\nTregua?\nFINE\n');
    await write(2, 'A TUTTI\nViva i Sith.\nFINE\n');
    const relays = await mails('press');
    expect(to(relays, ADDRESSES[0]!)).toHaveLength(0);
    expect(to(relays, ADDRESSES[1]!)).toHaveLength(2);
    expect(await deliveries(ADDRESSES[0]!)).toEqual([
      { delivery: 'muted', outboxId: null },
      { delivery: 'muted', outboxId: null },
    ]);
    expect(await world.database.db.select().from(pressMessages)).toHaveLength(2);
    // The writer is not told (D-PRESS-11): the same words as for any message.
    const acks = to(await mails('press-ack'), ADDRESSES[2]!);
    expect(acks[0]!.bodyText).toContain('Riga 2: inviato agli Hutt e agli Aristocratici, firmato:\n> Tregua?');
    expect(acks[1]!.bodyText).toContain('Riga 2: inviato a tutti, firmato:\n> Viva i Sith.');
    for (const a of acks) expect(a.bodyText.toLowerCase()).not.toMatch(/silenz|mute/);

    // Other factions still reach the muting player; UNMUTE lets the Sith through again.
    await write(1, 'PRESS TO Hutt\nHello.\nENDPRESS\n');
    expect(to(await mails('press'), ADDRESSES[0]!)).toHaveLength(1);
    await write(0, 'RIATTIVA Sith\n');
    expect((await answers(0))[1]!.bodyText).toContain('Non hai silenziato nessuno.');
    await write(2, 'STAMPA A Hutt\nDi nuovo.\nFINE\n');
    expect(to(await mails('press'), ADDRESSES[0]!)).toHaveLength(2);
  });

  it('MUTE ANONYMOUS keeps every anonymous message away; a faction’s mute never reaches its anonymous messages', async () => {
    await write(3, 'MUTE ANONYMOUS\n');
    expect((await answers(3))[0]!.bodyText).toContain('You have muted: anonymous messages.');
    await write(1, 'MUTE Hutt\n');
    await write(0, 'STAMPA ANONIMA A Cavalieri, Aristocratici\nI Sith mentono.\nFINE\n');
    const relays = await mails('press');
    expect(to(relays, ADDRESSES[3]!)).toHaveLength(0);
    // Muting the Hutt does not mute an anonymous message the Hutt wrote: else the digest's count would name them.
    expect(to(relays, ADDRESSES[1]!)).toHaveLength(1);
    expect(await deliveries(ADDRESSES[3]!)).toEqual([{ delivery: 'muted', outboxId: null }]);
    // A signed message from the same faction reaches the player who muted anonymous ones.
    await write(0, 'STAMPA A Cavalieri\nFirmato.\nFINE\n');
    expect(to(await mails('press'), ADDRESSES[3]!)).toHaveLength(1);
  });

  it('D-PRESS-10: a reply muted by the conversation’s hidden writer is acknowledged as sent to the conversation', async () => {
    await write(0, 'STAMPA ANONIMA A Sith\nChi sei?\nFINE\n');
    await write(0, 'SILENZIA Sith\n');
    const [toCarla] = to(await mails('press'), ADDRESSES[2]!);
    const r = await reply(toCarla!, 'Nessuno.');
    expect(r.result).toMatchObject({ outcome: 'press-reply' });
    expect(to(await mails('press'), ADDRESSES[0]!)).toHaveLength(0);
    const [ack] = to(await mails('press-ack'), ADDRESSES[2]!).slice(-1);
    // "a" + "la conversazione" is "alla conversazione"; the reply is quoted back.
    expect(ack!.bodyText).toBe('La tua risposta è stata inviata alla conversazione, firmata:\n\n> Nessuno.');
  });

  it('an unknown faction, or a referee, is answered by name; nothing is muted', async () => {
    await write(1, 'MUTE Ewoks\n');
    await write(1, 'MUTE referee\n');
    const [unknown, referee] = await answers(1);
    expect(unknown!.bodyText).toContain('I do not understand "ewoks": it is no faction of this game: nothing changes.');
    expect(unknown!.bodyText).toContain('You have muted nobody.');
    expect(referee!.bodyText).toContain('Referees cannot be muted');
    await write(0, 'STAMPA A Aristocratici\nCiao.\nFINE\n');
    expect(to(await mails('press'), ADDRESSES[1]!)).toHaveLength(1);
  });
});

describe('MUTE with a list', () => {
  // Players: 0 Hutt (it), 1 Aristocrats (en), 2 Sith (it), 3 Knights (en).
  it('mutes each faction named, and the answer names each; UNMUTE a list likewise, saying which were not muted', async () => {
    await write(1, 'MUTE Sith, Hutt\n');
    const [muted] = await answers(1);
    expect(muted!.bodyText).toContain('From now on messages from Sith and Hutt do not reach you');
    expect(muted!.bodyText).toContain('You have muted: Hutt and Sith.');
    await write(0, 'STAMPA A Aristocratici\nCiao.\nFINE\n');
    await write(2, 'STAMPA A Aristocratici\nCiao.\nFINE\n');
    expect(to(await mails('press'), ADDRESSES[1]!)).toHaveLength(0);

    await write(2, 'SILENZIA gli Hutt e i Cavalieri\n');
    const [italian] = await answers(2);
    expect(italian!.bodyText).toContain('Da ora i messaggi degli Hutt e dei Cavalieri non ti arrivano');
    expect(italian!.bodyText).toContain('Hai silenziato: gli Hutt e i Cavalieri.');

    await write(1, 'UNMUTE Hutt and Knights\n');
    const unmuted = (await answers(1)).at(-1)!;
    expect(unmuted.bodyText).toContain('From now on messages from Hutt reach you again.');
    expect(unmuted.bodyText).toContain('You had not muted Knights: nothing changes.');
    expect(unmuted.bodyText).toContain('You have muted: Sith.');
  });

  it('one unknown name refuses the whole list, named; nothing is muted', async () => {
    await write(1, 'MUTE Sith, Ewoks and Hutt\n');
    const [refused] = await answers(1);
    expect(refused!.bodyText).toContain('I do not understand "ewoks"');
    expect(refused!.bodyText).toContain('You have muted nobody.');
    await write(0, 'STAMPA A Aristocratici\nCiao.\nFINE\n');
    expect(to(await mails('press'), ADDRESSES[1]!)).toHaveLength(1);
  });
});

describe('D-PRESS-11: DIGEST', () => {
  it('messages wait for one mail a day at 07:00 with their reply addresses and the muted count; a second pass sends nothing', async () => {
    at('2026-03-02T10:00:00Z');
    await write(1, 'DIGEST\n');
    const chosen = (await answers(1))[0]!.bodyText;
    expect(chosen).toContain('From now on your messages come in one digest a day.');
    // The 07:00 is the player's own (their zone named); the digest is said once, not twice.
    expect(chosen).toMatch(/Your digest comes every day at 07:00 \([A-Za-z_]+\/[A-Za-z_]+\)/);
    expect(chosen.match(/one digest a day/g)).toHaveLength(1);
    await write(1, 'MUTE Sith\n');
    await write(0, 'STAMPA A Aristocratici, Sith\nTregua fino al turno 6?\nFINE\n');
    await write(2, 'A TUTTI\nI Sith vi salutano.\nFINE\n');
    expect(to(await mails('press'), ADDRESSES[1]!)).toHaveLength(0);
    expect(to(await mails('press'), ADDRESSES[2]!)).toHaveLength(1);
    expect((await deliveries(ADDRESSES[1]!)).map((d) => d.delivery)).toEqual(['digest', 'muted']);

    // The day's 07:00 passed before these arrived: they wait for tomorrow's.
    later();
    await job();
    expect(await mails('press-digest')).toHaveLength(0);

    at('2026-03-03T06:00:30Z');
    expect((await job()).digests).toBe(1);
    const [digest] = await mails('press-digest');
    expect(digest!.toAddress).toBe(ADDRESSES[1]);
    expect(digest!.subject).toBe('[SF andromeda] Press digest (1)');
    expect(digest!.bodyText).toContain('From: Hutt — To: you and Sith — turn 1');
    expect(digest!.bodyText).toContain('Tregua fino al turno 6?');
    expect(digest!.bodyText).toContain('1 message from writers you muted was not delivered.');
    expect(digest!.bodyText).not.toContain('I Sith vi salutano.');
    // REPORT to a conversation's address reports its latest message, not necessarily this one: not offered here.
    expect(digest!.bodyText).not.toContain('REPORT');
    const address = /write to: (orders\+p-[a-z2-7]{26}@sf\.example)/.exec(digest!.bodyText)?.[1];
    expect(address).toBeDefined();
    const recipients = await world.database.db.select().from(pressRecipients).where(eq(pressRecipients.address, ADDRESSES[1]!));
    expect(recipients.find((x) => x.delivery === 'digest')).toMatchObject({ outboxId: digest!.id });
    expect(recipients.every((x) => x.digestedAt !== null)).toBe(true);

    // Idempotent: the same slot again, or a later pass the same day, sends nothing more.
    expect((await job()).digests).toBe(0);
    at('2026-03-03T09:00:00Z');
    await job();
    expect(await mails('press-digest')).toHaveLength(1);

    // The reply address written in the digest is the reader's own in that conversation.
    const r = await reply(digest!, 'Agreed.', address);
    expect(r.result).toMatchObject({ outcome: 'press-reply' });
    const toAnna = to(await mails('press'), ADDRESSES[0]!);
    expect(toAnna.at(-1)!.bodyText).toContain('Agreed.');
    expect(toAnna.at(-1)!.subject).toBe('[SF andromeda] Aristocratici → te e i Sith');
  });

  it('an Italian digest names its audience with articles, as the relays do: "A: te e gli Aristocratici"', async () => {
    at('2026-03-02T10:00:00Z');
    await write(2, 'RIEPILOGO\n');
    await write(3, 'PRESS TO Sith, Aristocrats\nTruce?\nENDPRESS\n');
    at('2026-03-03T06:00:30Z');
    expect((await job()).digests).toBe(1);
    const [digest] = await mails('press-digest');
    expect(digest!.toAddress).toBe(ADDRESSES[2]);
    expect(digest!.bodyText).toContain('Da: Cavalieri — A: te e gli Aristocratici — turno 1');
  });

  it('D-PRESS-10: an anonymous message waits until it is visible, and its digest names nobody', async () => {
    at('2026-03-02T10:00:00Z');
    await write(1, 'DIGEST\n');
    at('2026-03-03T05:00:00Z');
    await write(2, 'STAMPA A Aristocratici\nFirmato.\nFINE\n');
    // Received a minute before the slot: its random delay of 2–20 minutes puts it after.
    at('2026-03-03T05:58:00Z');
    await write(0, 'STAMPA ANONIMA A Aristocratici\nAnonimo.\nFINE\n');
    const [anon] = await world.database.db.select().from(pressMessages).where(eq(pressMessages.sign, 'anonymous'));
    expect(anon!.visibleAt.getTime()).toBeGreaterThan(new Date('2026-03-03T06:00:00Z').getTime());

    at('2026-03-03T06:30:00Z');
    await job();
    const [first] = await mails('press-digest');
    expect(first!.bodyText).toContain('Firmato.');
    expect(first!.bodyText).not.toContain('Anonimo.');

    at('2026-03-04T06:05:00Z');
    await job();
    const digests = await mails('press-digest');
    expect(digests).toHaveLength(2);
    expect(digests[1]!.bodyText).toContain('From: anonymous — To: you — turn 1');
    expect(digests[1]!.bodyText).toContain('Anonimo.');
    const writer = world.created.players[0]!;
    for (const s of ['hutt', ADDRESSES[0]!, writer.secret.toLowerCase()]) expect(JSON.stringify(digests[1]).toLowerCase()).not.toContain(s);
  });

  it('D-PRESS-26: the deadline’s last reminder is a slot of its own, after that day’s 07:00', async () => {
    at('2026-03-02T10:00:00Z');
    await write(1, 'DIGEST\n');
    const turn = (await findTurn(world.database.db, 'andromeda', 1))!;
    // The game's reminders are 1440 and 120 minutes before the deadline: the last is 2 hours before.
    const reminder = new Date(turn.deadline.getTime() - 120 * 60_000);
    at(new Date(reminder.getTime() - 10 * 60_000).toISOString());
    await write(0, 'STAMPA A Aristocratici\nUltima offerta.\nFINE\n');
    await job();
    expect(await mails('press-digest')).toHaveLength(0);
    at(new Date(reminder.getTime() + 30_000).toISOString());
    expect((await job()).digests).toBe(1);
    const [digest] = await mails('press-digest');
    expect(digest!.bodyText).toContain('Ultima offerta.');
    expect(digest!.dedupeKey).toBe(`press-digest:${world.created.players[1]!.id}:${reminder.toISOString()}`);
    expect(to(await mails('reminder'), ADDRESSES[1]!).length).toBeGreaterThan(0);
  });

  it('D-PRESS-23: back to IMMEDIATE, new messages come at once and what waited comes in the next digest', async () => {
    at('2026-03-02T10:00:00Z');
    await write(3, 'DIGEST\n');
    await write(0, 'STAMPA A Cavalieri\nPrimo.\nFINE\n');
    await write(3, 'IMMEDIATE\n');
    expect((await answers(3))[1]!.bodyText).toContain('Those already waiting come in the next digest.');
    await write(0, 'STAMPA A Cavalieri\nSecondo.\nFINE\n');
    const relays = to(await mails('press'), ADDRESSES[3]!);
    expect(relays.map((m) => m.bodyText.includes('Secondo.'))).toEqual([true]);
    at('2026-03-03T06:01:00Z');
    await job();
    const [digest] = await mails('press-digest');
    expect(digest!.bodyText).toContain('Primo.');
    expect(digest!.bodyText).not.toContain('Secondo.');
  });

  it('D-PRESS-11: a MUTE sent while messages wait covers them: not shown, counted; a faction’s mute leaves its anonymous ones', async () => {
    at('2026-03-02T10:00:00Z');
    await write(1, 'DIGEST\n');
    await write(2, 'STAMPA A Aristocratici\nDai Sith.\nFINE\n');
    await write(2, 'STAMPA ANONIMA A Aristocratici\nAnonimo dai Sith.\nFINE\n');
    await write(0, 'STAMPA A Aristocratici\nDagli Hutt.\nFINE\n');
    await write(1, 'MUTE Sith\n');
    at('2026-03-03T06:00:30Z');
    expect((await job()).digests).toBe(1);
    const [digest] = await mails('press-digest');
    expect(digest!.bodyText).not.toContain('Dai Sith.');
    expect(digest!.bodyText).toContain('Dagli Hutt.');
    expect(digest!.bodyText).toContain('Anonimo dai Sith.');
    expect(digest!.bodyText).toContain('1 message from writers you muted was not delivered.');
    // All three are done with: nothing waits, nothing is counted twice.
    const rows = await world.database.db.select().from(pressRecipients).where(eq(pressRecipients.address, ADDRESSES[1]!));
    expect(rows.every((r) => r.digestedAt !== null)).toBe(true);
  });

  it('D-PRESS-32: a paused game’s press still comes in the 07:00 digest', async () => {
    at('2026-03-02T10:00:00Z');
    await write(1, 'DIGEST\n');
    await pauseGame(world.database.db, 'andromeda', 'a break', {
      actor: 'test',
      mail: { domain: DOMAIN, ordersLocalPart: 'orders' },
      now: () => world.clock.now,
    });
    const r = await write(0, 'STAMPA A Aristocratici\nIn pausa.\nFINE\n');
    expect(r.result).toMatchObject({ status: 'processed' });
    at('2026-03-03T06:00:30Z');
    expect((await job()).digests).toBe(1);
    const [digest] = await mails('press-digest');
    expect(digest!.bodyText).toContain('In pausa.');
    expect(digest!.dedupeKey).toBe(`press-digest:${world.created.players[1]!.id}:2026-03-03T06:00:00.000Z`);
    expect((await job()).digests).toBe(0);
  });

  it('D-PRESS-32: what waited when the game finished comes at the next 07:00', async () => {
    at('2026-03-02T10:00:00Z');
    await write(1, 'DIGEST\n');
    await write(0, 'STAMPA A Aristocratici\nUltime parole.\nFINE\n');
    await updateGame(world.database.db, 'andromeda', { status: 'finished' });
    later();
    expect((await job()).digests).toBe(0);
    at('2026-03-03T06:00:30Z');
    expect((await job()).digests).toBe(1);
    const [digest] = await mails('press-digest');
    expect(digest!.bodyText).toContain('Ultime parole.');
    expect((await job()).digests).toBe(0);
  });
});
