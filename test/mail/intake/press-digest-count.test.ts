// The digest's muted count against a muted message committed while the digest is written
// (D-PRESS-24): what the digest marks is exactly what it counts. Another relay's commit is
// simulated by a row added right after the digest's first read of the muted rows.
import { and, eq, isNotNull } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, expect, it, vi } from 'vitest';
import type { Db } from '../../../src/db/client.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { addRecipients } from '../../../src/db/press.ts';
import { pressMessages, pressRecipients } from '../../../src/db/schema.ts';
import { runTurnJob } from '../../../src/games/index.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

const hook = vi.hoisted(() => ({ after: null as null | ((db: Db) => Promise<void>) }));
vi.mock('../../../src/db/press.ts', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../../src/db/press.ts')>();
  return {
    ...orig,
    mutedUncounted: async (...args: Parameters<typeof orig.mutedUncounted>) => {
      const n = await orig.mutedUncounted(...args);
      const h = hook.after;
      hook.after = null;
      if (h) await h(args[0]);
      return n;
    },
  };
});

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const at = (iso: string) => (world.clock.now = new Date(iso));
const later = () => (world.clock.now = new Date(world.clock.now.getTime() + 60_000));
async function write(i: number, body: string) {
  later();
  return deliver(world, orderMail({ from: ADDRESSES[i]!, to: privateTo(world, i), body }));
}

it('D-PRESS-24: a muted message committed while the digest is written is counted if marked, else left for the next', async () => {
  at('2026-03-02T10:00:00Z');
  await write(1, 'DIGEST\n');
  await write(1, 'MUTE Sith\n');
  await write(0, 'STAMPA A Aristocratici\nDagli Hutt.\nFINE\n');
  await write(2, 'STAMPA A Aristocratici\nPrimo muto.\nFINE\n');
  // Its relay to the Aristocrats commits while the digest is being written.
  await write(2, 'STAMPA A Cavalieri\nSecondo muto.\nFINE\n');
  const [second] = await world.database.db.select().from(pressMessages).where(eq(pressMessages.text, 'Secondo muto.'));
  const bruno = world.created.players[1]!.id;
  hook.after = async (db) =>
    addRecipients(db, [{ messageId: second!.id, kind: 'player', id: bruno, address: ADDRESSES[1]!, delivery: 'muted' }]);

  at('2026-03-03T06:00:30Z');
  await runTurnJob({
    db: world.database.db,
    ctx: { actor: 'test', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => world.clock.now },
    log: pino({ level: 'silent' }),
    catchUp: async () => true,
  });
  expect(hook.after).toBeNull();
  const [digest] = (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === 'press-digest');
  const said = Number(/(\d+) messages? from writers you muted/.exec(digest!.bodyText)?.[1] ?? 0);
  const marked = await world.database.db
    .select()
    .from(pressRecipients)
    .where(and(eq(pressRecipients.recipientId, bruno), eq(pressRecipients.delivery, 'muted'), isNotNull(pressRecipients.digestedAt)));
  expect(said).toBeGreaterThan(0);
  expect(marked).toHaveLength(said);
});
