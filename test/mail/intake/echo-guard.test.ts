// D-MAIL-24: an out-of-office reply with no marker header, answering our answer, is answered once
// a day, not up to the hourly limit for ever.
import { beforeEach, describe, expect, it } from 'vitest';
import { findInbound } from '../../../src/db/inbound.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { fingerprint } from '../../../src/mail/intake/echo-guard.ts';
import { ADDRESSES, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const answers = async () => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind !== 'welcome');
const later = (minutes: number) => (world.clock.now = new Date(world.clock.now.getTime() + minutes * 60_000));
const vacation = (n: number) =>
  `Thank you for your message. I am out of the office until ${n + 10} March with limited access to email.\nBest regards,\nBruno\n`;

describe('a robot answering our answers', () => {
  it('the same words from the same player, again and again, are answered once a day', async () => {
    let subject = 'Re: orders';
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      later(5);
      subject = `Out of office: Re: ${subject}`;
      ids.push((await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), subject, body: vacation(i) }))).id);
    }
    expect((await answers()).map((m) => m.kind)).toEqual(['unreadable']);
    expect((await findInbound(world.database.db, ids[5]!))!.outcomeDetail).toMatchObject({ answered: false, repeated: true });
    // A real sheet in between is acknowledged as ever, and chatter in other words is answered.
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'Thanks, see you on Sunday!\n' }));
    expect((await answers()).map((m) => m.kind)).toEqual(['unreadable', 'ack', 'unreadable']);
    // The next day, once more.
    later(24 * 60);
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), subject, body: vacation(7) }));
    expect((await answers()).filter((m) => m.kind === 'unreadable')).toHaveLength(3);
  });

  it("the same words from another player are that player's own first", async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: vacation(1) }));
    await deliver(world, orderMail({ from: ADDRESSES[3]!, to: privateTo(world, 3), body: vacation(1) }));
    expect((await answers()).map((m) => m.toAddress)).toEqual([ADDRESSES[1], ADDRESSES[3]]);
  });

  it('a fingerprint ignores case, digits, spaces and punctuation, and reads a long text in bounded time', () => {
    expect(fingerprint('Out until 12 March.')).toBe(fingerprint('OUT  until 3 march'));
    expect(fingerprint('Out until March')).not.toBe(fingerprint('Out until April'));
    expect(fingerprint('x'.repeat(5_000_000))).toBe(fingerprint('x'.repeat(4_000)));
  });

  it('a fingerprint is the one the keys already stored were made with (one regular expression, not one per character)', () => {
    // Values of the letter-by-letter version: a key stored today still matches tomorrow's code.
    expect(fingerprint("Je suis absent jusqu'au 12 mars. Ich bin bis zum 3. März nicht im Büro. Σας ευχαριστώ! 我不在办公室。")).toBe(
      '16a2219c9865d0c44ab16d70',
    );
    // A letter outside the BMP at the cut is kept whole.
    expect(fingerprint(`${'a'.repeat(3_999)}𝔄${'b'.repeat(10)}`)).toBe('a83ff252426f98176650074c');
  });
});
