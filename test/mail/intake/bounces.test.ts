// Bounces that come back to the orders mailbox: a delivery report naming our mail marks
// it failed against its address, with the report's status, for the referee; never answered.
import { describe, expect, it } from 'vitest';
import { enqueue, listOutbox, markSent, newMessageId } from '../../../src/db/outbox.ts';
import { bounceOf } from '../../../src/mail/intake/bounces.ts';
import { deliver, makeWorld } from './world.ts';

const dsn = (originalId: string) =>
  [
    'From: Mail Delivery System <MAILER-DAEMON@mx.example.org>',
    'To: orders@sf.example',
    'Subject: Undelivered Mail Returned to Sender',
    'Message-ID: <dsn-1@mx.example.org>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'I could not deliver your mail.',
    '--b',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.org',
    '',
    'Final-Recipient: rfc822; gone@example.org',
    'Action: failed',
    'Status: 5.1.1',
    'Diagnostic-Code: smtp; 550 5.1.1 <gone@example.org>: user unknown',
    '--b',
    'Content-Type: text/rfc822-headers',
    '',
    'From: orders@sf.example',
    'To: gone@example.org',
    `Message-ID: <${originalId}>`,
    'Subject: [SF andromeda] Imperial Edict, turn 3',
    '--b--',
    '',
  ].join('\r\n');

describe('bounces', () => {
  it('reads our Message-IDs and the status from a delivery report, and nothing from other mail', () => {
    const b = bounceOf(Buffer.from(dsn('abc@sf.example')), ['Content-Type: multipart/report'], 'sf.example');
    expect(b).toEqual({
      messageIds: ['abc@sf.example'],
      recipients: ['gone@example.org'],
      mentioned: [],
      severity: 'permanent',
      reason: 'bounced: 5.1.1 (smtp; 550 5.1.1 <gone@example.org>: user unknown)',
    });
    // Another domain's Message-ID is not ours; the recipient is still named (src/db/bounces.ts decides).
    expect(bounceOf(Buffer.from(dsn('abc@elsewhere.example')), ['Content-Type: multipart/report'], 'sf.example')).toMatchObject({
      messageIds: [],
      recipients: ['gone@example.org'],
    });
    expect(bounceOf(Buffer.from(dsn('abc@sf.example')), ['Auto-Submitted: auto-replied'], 'sf.example')).toBeNull();
  });

  it('marks the bounced outbox mail failed with the reason, and answers nobody', async () => {
    const world = await makeWorld();
    const welcome = (await listOutbox(world.database.db, { kind: 'welcome' }))[0]!;
    // Still to be sent: a report about it is forged (a bounce follows sending), and marks nothing.
    await deliver(world, Buffer.from(dsn(welcome.messageId)));
    expect((await listOutbox(world.database.db)).find((m) => m.id === welcome.id)!.status).toBe('pending');
    await markSent(world.database.db, welcome.id);
    await deliver(world, Buffer.from(`${dsn(welcome.messageId)}\r\n`)); // another copy, stored apart
    const after = (await listOutbox(world.database.db)).find((m) => m.id === welcome.id)!;
    expect(after).toMatchObject({ status: 'failed', lastError: expect.stringContaining('bounced: 5.1.1') });
    expect((await listOutbox(world.database.db)).filter((m) => m.kind !== 'welcome')).toEqual([]);
  });

  it('a report quoting our Message-ID is about that mail only, never a newer one to the same address', async () => {
    const world = await makeWorld();
    const db = world.database.db;
    const welcome = (await listOutbox(db, { kind: 'welcome' }))[0]!;
    await markSent(db, welcome.id);
    await deliver(world, Buffer.from(dsn(welcome.messageId))); // welcome: failed
    const { mail: later } = await enqueue(db, {
      kind: 'reminder',
      gameId: 'andromeda',
      toAddress: welcome.toAddress,
      subject: 'Reminder',
      messageId: newMessageId('sf.example'),
      bodyText: 'x',
      dedupeKey: 'test:later',
    });
    await markSent(db, later.id);
    // The same report again (it names the recipient too): the mail it quotes has failed already.
    await deliver(world, Buffer.from(`${dsn(welcome.messageId).replaceAll('gone@example.org', welcome.toAddress)}\r\n\r\n`));
    expect((await listOutbox(db)).find((m) => m.id === later.id)!.status).toBe('sent');
  });
});
