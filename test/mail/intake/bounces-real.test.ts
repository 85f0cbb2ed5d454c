// Bounces in the shapes real mail systems send (test/mail/fixtures/bounces, sources in its README),
// none quoting our Message-ID: the address is found by the report's recipient fields or,
// failing them, its human text — but only an address we mailed recently, only a permanent failure,
// and never mail still to be sent: a forged report must not cut a player off.
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { listOutbox, markSent } from '../../../src/db/outbox.ts';
import { outbox } from '../../../src/db/schema.ts';
import { automaticReasons } from '../../../src/mail/read/automatic.ts';
import { readHead } from '../../../src/mail/read/extract-headers.ts';
import { addressesIn, bounceOf } from '../../../src/mail/intake/bounces.ts';
import { DOMAIN, deliver, makeWorld, type World } from './world.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bounces/${name}.eml`, import.meta.url));
const read = (name: string) => {
  const raw = fixture(name);
  return bounceOf(raw, automaticReasons(readHead(raw), [`orders@${DOMAIN}`]), DOMAIN);
};

describe('bounceOf, on real shapes', () => {
  it.each([
    [
      '01-postfix-alias-original-recipient',
      'permanent',
      ['a.rossi@mbox.example.org', 'anna@example.org'],
      'bounced: 5.1.1 (x-unix; procmail:',
    ],
    ['02-postfix-failed-4xx', 'transient', ['bruno@example.org'], 'bounced: 4.1.1 (smtp; 450 4.1.1'],
    ['03-sendmail-delayed-warning', 'transient', ['carla@example.org'], 'bounced: 4.5.0'],
    ['04-qmail-failure-notice', 'permanent', [], 'bounced: 5.5.0'],
    ['05-gmail-x-failed-recipients', 'permanent', ['carla@example.org'], 'bounced: 5.7.0'],
    ['06-exim-mail-delivery-failed', 'permanent', ['dario@example.org'], 'bounced: 5.7.0'],
    ['07-exchange-folded-final-recipient', 'permanent', ['anna@example.org'], 'bounced: 5.1.1'],
  ])('%s: %s, recipients %j', (name, severity, recipients, reason) => {
    const b = read(name)!;
    expect(b).not.toBeNull();
    expect(b.severity).toBe(severity);
    expect(b.recipients).toEqual(recipients);
    expect(b.messageIds).toEqual([]);
    expect(b.reason.startsWith(reason)).toBe(true);
  });

  it('reads the address from the human text only before the copy of the message', () => {
    expect(read('04-qmail-failure-notice')!.mentioned).toEqual(['bruno@example.org']);
    expect(read('05-gmail-x-failed-recipients')!.mentioned).toEqual(['carla@example.org']);
    // The copy's To: is not the report's words, nor the report's own headers.
    expect(read('06-exim-mail-delivery-failed')!.mentioned).toEqual(['dario@example.org', 'orders@sf.example']);
  });

  it('is not fooled by a vacation reply that names an address', () => {
    const raw = Buffer.from(
      'From: Anna <anna@example.org>\r\nTo: orders@sf.example\r\nAuto-Submitted: auto-replied\r\nSubject: Away\r\n\r\n' +
        'I am away: this is a permanent error of my patience. Write to bruno@example.org.\r\n',
    );
    expect(bounceOf(raw, automaticReasons(readHead(raw)), DOMAIN)).toBeNull();
  });

  it('finds addresses in a line in linear time, without a regular expression over it', () => {
    expect(addressesIn('<a.rossi@mbox.example.org> (expanded from <Anna@Example.org>): user')).toEqual([
      'a.rossi@mbox.example.org',
      'anna@example.org',
    ]);
    expect(addressesIn('MAIL FROM:<orders@sf.example> SIZE=1543')).toEqual(['orders@sf.example']);
    expect(addressesIn('no address @ here, nor user@localhost')).toEqual([]);
    const hostile = `${'a'.repeat(100_000)}@`.repeat(5);
    expect(addressesIn(hostile)).toEqual([]); // each character visited a bounded number of times
  });
});

/** The world's welcome mails, as handed to the mail server. */
async function sentWorld(): Promise<World> {
  const world = await makeWorld();
  for (const m of await listOutbox(world.database.db, { kind: 'welcome' })) await markSent(world.database.db, m.id);
  return world;
}
const stateOf = async (world: World) =>
  Object.fromEntries((await listOutbox(world.database.db, { kind: 'welcome' })).map((m) => [m.toAddress, m.status]));
const errorOf = async (world: World, to: string) =>
  (await listOutbox(world.database.db, { kind: 'welcome' })).find((m) => m.toAddress === to)!.lastError;

describe('recording a bounce against the mail we sent', () => {
  it.each([
    ['01-postfix-alias-original-recipient', 'anna@example.org', 'the recipient the report names'],
    ['04-qmail-failure-notice', 'bruno@example.org', 'an address in the report text'],
    ['05-gmail-x-failed-recipients', 'carla@example.org', 'the recipient the report names'],
    ['06-exim-mail-delivery-failed', 'dario@example.org', 'the recipient the report names'],
    ['07-exchange-folded-final-recipient', 'anna@example.org', 'the recipient the report names'],
  ])('%s marks the mail to %s failed, saying how it was matched', async (name, address, how) => {
    const world = await sentWorld();
    await deliver(world, fixture(name));
    const state = await stateOf(world);
    expect(state[address]).toBe('failed');
    expect(Object.values(state).filter((s) => s === 'failed')).toHaveLength(1);
    expect(await errorOf(world, address)).toContain(`[matched by ${how}]`);
    // Never answered: the outbox holds only the welcomes.
    expect((await listOutbox(world.database.db)).filter((m) => m.kind !== 'welcome')).toEqual([]);
  });

  it.each(['02-postfix-failed-4xx', '03-sendmail-delayed-warning'])('%s: a transient report marks nothing, and is logged', async (name) => {
    const world = await sentWorld();
    const lines: string[] = [];
    world.deps.log = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    await deliver(world, fixture(name));
    expect(Object.values(await stateOf(world))).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(lines.map((l) => JSON.parse(l) as { msg: string; severity?: string }).filter((l) => /not permanent/.test(l.msg))).toMatchObject([
      { severity: 'transient' },
    ]);
  });

  it('a report naming two of our players in its text marks neither (each of our mails has one recipient)', async () => {
    const world = await sentWorld();
    await deliver(world, fixture('08-forged-two-players'));
    expect(Object.values(await stateOf(world))).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it("never marks mail still to be sent: a forged report cannot stop a player's mail", async () => {
    const world = await makeWorld(); // the welcomes are pending
    await deliver(world, fixture('01-postfix-alias-original-recipient'));
    expect(Object.values(await stateOf(world))).toEqual(['pending', 'pending', 'pending', 'pending']);
  });

  it('never marks an address we did not write to recently', async () => {
    const world = await sentWorld();
    // Anna's welcome is older than the window: a report about her is about nothing we can know.
    await world.database.db
      .update(outbox)
      .set({ createdAt: sql`now() - interval '8 days'` })
      .where(eq(outbox.toAddress, 'anna@example.org'));
    await deliver(world, fixture('07-exchange-folded-final-recipient'));
    expect((await stateOf(world))['anna@example.org']).toBe('sent');
    const stranger = Buffer.from(
      fixture('07-exchange-folded-final-recipient')
        .toString('latin1')
        .replace(/anna@example\.org/g, 'stranger@example.net'),
      'latin1',
    );
    await deliver(world, stranger);
    expect(Object.values(await stateOf(world))).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('marks only the newest mail to the address, and a repeated report nothing more', async () => {
    const world = await sentWorld();
    await deliver(world, fixture('05-gmail-x-failed-recipients'));
    await deliver(world, Buffer.concat([fixture('05-gmail-x-failed-recipients'), Buffer.from('\n')])); // a second copy, stored apart
    const carla = (await listOutbox(world.database.db)).filter((m) => m.toAddress === 'carla@example.org');
    expect(carla.map((m) => m.status)).toEqual(['failed']);
  });
});
