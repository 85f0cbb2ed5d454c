// Reading a batch: who wrote is read first, and only a player's mail is read whole — once,
// by the reader — while everyone else's has its headers read alone. What each mail is read as
// must not depend on that order: these are the mails where it could.
import { beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/mail/intake/echo-guard.ts';
import { readMails } from '../../../src/mail/intake/read-mails.ts';
import { extractMail, type ExtractOptions } from '../../../src/mail/read/extract.ts';
import { ADDRESSES, DOMAIN, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const options = (maxBytes = 10_000_000): ExtractOptions => ({
  maxBytes,
  ourDomain: DOMAIN,
  ordersLocalPart: 'orders',
  ourAddresses: [`orders@${DOMAIN}`],
});
const sheet = (from: string, body = 'V: Sith\n', headers: Record<string, string> = {}) =>
  orderMail({ from, to: privateTo(world, 0), body, headers });

describe('readMails', () => {
  it("reads a player's mail whole and a stranger's headers only", async () => {
    const [player, stranger] = await readMails(
      world.database.db,
      [sheet(ADDRESSES[0]!), sheet('someone@elsewhere.example')],
      options(),
      null,
    );
    expect(player!.sheetText).toBe('V: Sith');
    expect(stranger!.from).toBe('someone@elsewhere.example');
    expect(stranger!.sheetText).toBe('');
  });

  it("reads a player's automatic mail as its headers alone would", async () => {
    const raw = sheet(ADDRESSES[0]!, 'V: Sith\n', { 'Auto-Submitted': 'auto-replied' });
    const [read] = await readMails(world.database.db, [raw], options(), null);
    const head = await extractMail(raw, { ...options(), maxBytes: -1 });
    expect(read).toEqual({ ...head, oversized: false, echoPrint: fingerprint(head.sheetText) });
    expect(read!.automatic).toBe(true);
  });

  it("reads a player's mail over the size limit by its headers", async () => {
    const raw = sheet(ADDRESSES[0]!);
    const [read] = await readMails(world.database.db, [raw], options(100), null);
    expect(read!.from).toBe(ADDRESSES[0]);
    expect(read!.oversized).toBe(true);
    expect(read!.sheetText).toBe('');
  });

  it('reads a From with a NUL in it as the player it names, as the full read does', async () => {
    const [local, domain] = ADDRESSES[0]!.split('@');
    const raw = sheet(`${local}\u0000@${domain}`);
    const [read] = await readMails(world.database.db, [raw], options(), null);
    expect(read!.from).toBe(ADDRESSES[0]);
    expect(read!.sheetText).toBe('V: Sith');
  });
});
