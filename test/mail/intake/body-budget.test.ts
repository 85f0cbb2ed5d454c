// A body is read in a worker with a time and memory budget; a mail over it is set aside
// and answered once, and never holds up the mail behind it. A stranger's body is never read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findInbound } from '../../../src/db/inbound.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { BodyReader, type BodyBudget } from '../../../src/mail/intake/body-reader.ts';
import type { ExtractOptions } from '../../../src/mail/read/extract.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

/** A reader that counts the bodies it is asked to read. */
class CountingReader extends BodyReader {
  reads = 0;
  override readMany(raws: readonly Uint8Array[], options: ExtractOptions) {
    this.reads += raws.length;
    return super.readMany(raws, options);
  }
}

// 100,000 HTML paragraphs (1.6 MB): its reading needs far more than a 48 MB heap.
const heavyBody = '<p>V: Sith</p>\r\n'.repeat(100_000);
const heavy = (from: string, to: string) =>
  orderMail({ from, to, body: heavyBody, headers: { 'X-Shape': 'heavy' } })
    .toString('latin1')
    .replace('Content-Type: text/plain', 'Content-Type: text/html');
const SMALL_HEAP: BodyBudget = { timeMs: 600_000, heapMb: 48 };

let world: World;
let reader: CountingReader;
beforeEach(async () => {
  world = await makeWorld();
  reader = new CountingReader(SMALL_HEAP);
  world.deps.bodyReader = reader;
});
afterEach(async () => {
  await reader.close();
});

describe('a body over its reading budget', () => {
  it('is set aside and answered once; the next mail, in the same batch line, is read as ever', async () => {
    const r = await deliver(world, Buffer.from(heavy(ADDRESSES[1]!, privateTo(world, 1)), 'latin1'));
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'too-costly' });
    expect((await findInbound(world.database.db, r.id))!.outcomeDetail).toMatchObject({
      answered: true,
      bodyFailure: { failure: 'memory' },
    });
    const again = await deliver(world, Buffer.from(heavy(ADDRESSES[1]!, privateTo(world, 1)), 'latin1'));
    expect((await findInbound(world.database.db, again.id))!.outcomeDetail).toMatchObject({ answered: false, repeated: true });
    const replies = (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === 'unreadable');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.bodyText).toContain('set aside for the referee');
    expect(replies[0]!.bodyText).not.toMatch(/heap|worker|memory limit/i);
    // The reader started again: the next sheet is read and acknowledged.
    const next = await deliver(world, orderMail({ from: ADDRESSES[3]!, to: privateTo(world, 3), body: 'V: Sith\n' }));
    expect(next.result).toMatchObject({ outcome: 'sheet' });
    expect(await sheetHistory(world.database.db, 'andromeda', 1, 'knights')).toHaveLength(1);
  });

  it('a time budget ends a read that takes too long', async () => {
    const slow = new BodyReader({ timeMs: 1, heapMb: 512 }); // no 1.6 MB mail is read in a millisecond
    try {
      const res = await slow.read(Buffer.from(heavy(ADDRESSES[1]!, privateTo(world, 1)), 'latin1'), {
        maxBytes: 1e8,
        ourDomain: DOMAIN,
        ordersLocalPart: 'orders',
      });
      expect(res).toMatchObject({ ok: false, failure: 'time' });
      const small = await slow.read(Buffer.from('From: a@b.example\r\n\r\n'), {
        maxBytes: 1e8,
        ourDomain: DOMAIN,
        ordersLocalPart: 'orders',
      });
      expect(small.ok || small.failure === 'time').toBe(true); // a fresh worker took it
    } finally {
      await slow.close();
    }
  });
});

describe('a batch of bodies read together', () => {
  it('answers each mail in order; one over budget fails alone, the others of its group are read again and answered', async () => {
    const options = { maxBytes: 1e8, ourDomain: DOMAIN, ordersLocalPart: 'orders' };
    const sheet = (n: number) => orderMail({ from: ADDRESSES[n]!, to: privateTo(world, n), body: `V: Sith\nH: Hutt ${n}\n` });
    const grouped = new BodyReader(SMALL_HEAP, 8 * 1024 * 1024); // the heavy mail and the others in one group
    try {
      const reads = await grouped.readMany(
        [sheet(0), Buffer.from(heavy(ADDRESSES[1]!, privateTo(world, 1)), 'latin1'), sheet(2), sheet(3)],
        options,
      );
      expect(reads.map((r) => (r.ok ? r.mail.from : r.failure))).toEqual([ADDRESSES[0], 'memory', ADDRESSES[2], ADDRESSES[3]]);
      expect(reads[3]).toMatchObject({ ok: true, mail: { sheetText: expect.stringContaining('H: Hutt 3') } });
    } finally {
      await grouped.close();
    }
  });
});

describe("a stranger's body", () => {
  it('is never read: who wrote is decided from the headers', async () => {
    const r = await deliver(world, Buffer.from(heavy('stranger@evil.example', `orders@${DOMAIN}`), 'latin1'));
    expect(r.result).toMatchObject({ status: 'ignored', outcome: 'unknown-sender' });
    const forged = await deliver(world, Buffer.from(heavy('mallory@evil.example', privateTo(world, 0)), 'latin1'));
    expect(forged.result).toMatchObject({ outcome: 'sender-mismatch' });
    expect(reader.reads).toBe(0);
    await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'V: Sith\n' }));
    expect(reader.reads).toBe(1);
  });
});
