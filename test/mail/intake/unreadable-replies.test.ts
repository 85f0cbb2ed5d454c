// A reply to mail we cannot read says, in the player's language, what to do about it —
// never an internal error; the reasons are kept in the stored outcome for the referee.
import { beforeEach, describe, expect, it } from 'vitest';
import { findInbound } from '../../../src/db/inbound.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const replies = async (kind: string) => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === kind);

/** A multipart mail whose boundary never appears: nothing in it can be read. */
function partless(from: string, to: string, boundary: string): Buffer {
  return Buffer.from(
    [
      `From: <${from}>`,
      `To: ${to}`,
      'Subject: ordini',
      'Message-ID: <partless@example.org>',
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      'V: Sith',
      '',
    ].join('\r\n'),
  );
}

describe('a mail with nothing readable in it', () => {
  it("is answered in the player's language with what to do, and the reason is stored", async () => {
    const r = await deliver(world, partless(ADDRESSES[0]!, privateTo(world, 0), 'zzz')); // Anna plays in Italian
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'broken' });
    const [reply] = await replies('unreadable');
    expect(reply!.bodyText).toContain('non ha parti');
    expect(reply!.bodyText).not.toContain('has no parts');
    expect(reply!.bodyText).toContain('Rimanda i tuoi ordini come testo semplice');
    expect(reply!.bodyText).not.toMatch(/Error|exception|at .*\.ts:\d+/);
    expect((await findInbound(world.database.db, r.id))!.outcomeDetail).toMatchObject({
      answered: true,
      broken: expect.stringContaining('has no parts'),
    });
  });

  it('quotes what it found wrong only in part: a header value is not sent back whole', async () => {
    const encoding = 'x'.repeat(5_000);
    const raw = Buffer.from(
      [
        `From: <${ADDRESSES[1]}>`,
        `To: orders+${world.created.players[1]!.secret}@${DOMAIN}`,
        'Subject: orders',
        'MIME-Version: 1.0',
        'Content-Type: text/plain',
        `Content-Transfer-Encoding: ${encoding}`,
        '',
        '',
      ].join('\r\n'),
    );
    const r = await deliver(world, raw);
    expect(r.result).toMatchObject({ outcome: 'broken' });
    const [reply] = await replies('unreadable');
    expect(reply!.bodyText).toContain('xxxxxxxx');
    expect(reply!.bodyText.length).toBeLessThan(2_000);
  });
});
