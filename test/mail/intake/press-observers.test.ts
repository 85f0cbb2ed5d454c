// Observers' copies of broadcasts (docs/press.md §4.3, setting `observers`), through the real
// intake on PGlite: one mail per active observer in their language, an unsubscribe link, no
// Reply-To, held with the players' relays; an anonymous writer in none of it (D-PRESS-10).
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { addObserver, unsubscribe } from '../../../src/db/observers.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { latestBroadcasts, recipientsWithMail } from '../../../src/db/press.ts';
import { games, outbox, pressMessages, pressRecipients } from '../../../src/db/schema.ts';
import { composeMail } from '../../../src/mail/send/file-transport.ts';
import { toOutgoing } from '../../../src/mail/send/outbox-sender.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

// Players: 0 Hutt (it), 1 Aristocrats (en), 2 Sith (it), 3 Knights (en).
const PUBLIC = 'https://sf.example/';
let world: World;
beforeEach(async () => {
  world = await makeWorld();
  world.deps.publicUrl = PUBLIC;
});

const observerMails = async () => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === 'press-observer');
const setObservers = (observers: 'broadcasts' | 'nothing') =>
  world.database.db.update(games).set({ pressSettings: { observers } }).where(eq(games.id, 'andromeda'));

async function twoObservers() {
  const it = await addObserver(world.database.db, 'andromeda', 'oriana@watch.example', 'it');
  const en = await addObserver(world.database.db, 'andromeda', 'owen@watch.example', 'en');
  return { it, en };
}

describe('observers = broadcasts', () => {
  it('each active observer gets a signed broadcast in their language, with an unsubscribe link and no Reply-To', async () => {
    await setObservers('broadcasts');
    const { it: oriana, en: owen } = await twoObservers();
    const gone = await addObserver(world.database.db, 'andromeda', 'gone@watch.example', 'en');
    await unsubscribe(world.database.db, gone.token);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nPace a tutti.\nDue righe.\nFINE\n' }));

    const sent = await observerMails();
    expect(sent.map((m) => m.toAddress).sort()).toEqual(['oriana@watch.example', 'owen@watch.example']);
    const it_ = sent.find((m) => m.toAddress === 'oriana@watch.example')!;
    const en = sent.find((m) => m.toAddress === 'owen@watch.example')!;
    expect(it_.subject).toBe('[SF andromeda] Hutt → tutti');
    expect(it_.bodyText).toContain('Da: Hutt\nA: tutti');
    expect(it_.bodyText).toContain('| Pace a tutti.\n| Due righe.');
    expect(it_.bodyText).toContain(`https://sf.example/unsubscribe/${oriana.token}`);
    expect(en.subject).toBe('[SF andromeda] Hutt → everyone');
    expect(en.bodyText).toContain('you cannot reply');
    expect(en.headers).toMatchObject({
      'List-Unsubscribe': `<https://sf.example/unsubscribe/${owen.token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    for (const m of sent) {
      expect(m.replyTo).toBeNull();
      const raw = (await composeMail(toOutgoing(m, `orders@${DOMAIN}`))).toString('utf8');
      expect(raw).not.toMatch(/^Reply-To:/im);
      expect(raw).toMatch(/^List-Unsubscribe:/im);
    }
    // Recorded as the message's recipients of kind observer, linked to their mail.
    const [message] = await world.database.db.select().from(pressMessages);
    const rows = (await recipientsWithMail(world.database.db, [message!.id])).filter((r) => r.recipientKind === 'observer');
    expect(rows.map((r) => [r.messageId, r.recipientId, r.mailId]).sort()).toEqual(
      [
        [message!.id, oriana.id, it_.id],
        [message!.id, owen.id, en.id],
      ].sort(),
    );
    // Players' relays are unchanged: three, with their tokens.
    expect((await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === 'press')).toHaveLength(3);
  });

  it('D-PRESS-10: an anonymous broadcast names its writer in no header or body of an observer’s mail, and leaves with the players’ relays', async () => {
    await setObservers('broadcasts');
    await twoObservers();
    const writer = world.created.players[2]!; // Sith
    const body = 'A TUTTI ANONIMO\nGli Hutt mentono.\nFINE\n';
    await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body, messageId: '<anon-2@carla.example.org>' }));
    const sent = await observerMails();
    expect(sent).toHaveLength(2);
    const secrets = ['sith', 'ribelli', 'rebels', ADDRESSES[2]!, 'carla', writer.secret.toLowerCase(), 'anon-2'];
    for (const m of sent) {
      const raw = (await composeMail(toOutgoing(m, `orders@${DOMAIN}`))).toString('utf8').toLowerCase();
      for (const s of secrets) {
        expect(JSON.stringify(m).toLowerCase()).not.toContain(s);
        expect(raw).not.toContain(s);
      }
      expect(m.bodyText).toContain('Gli Hutt mentono.');
    }
    expect(sent.find((m) => m.toAddress === 'owen@watch.example')!.subject).toBe('[SF andromeda] Anonymous → everyone');
    const [stored] = await world.database.db.select().from(pressMessages);
    const held = await world.database.db.select().from(outbox);
    const relays = held.filter((m) => m.kind === 'press' || m.kind === 'press-observer');
    expect(relays).toHaveLength(5);
    // The same random delay as the players' relays of that message.
    for (const m of relays) expect(m.nextAttemptAt.getTime()).toBe(stored!.visibleAt.getTime());
  });

  it('a reply in the broadcast conversation is a broadcast too', async () => {
    await setObservers('broadcasts');
    await twoObservers();
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nPrimo.\nFINE\n' }));
    const relay = (await listOutbox(world.database.db, { gameId: 'andromeda' })).find(
      (m) => m.kind === 'press' && m.toAddress === ADDRESSES[1],
    )!;
    await deliver(
      world,
      orderMail({ from: ADDRESSES[1]!, to: relay.replyTo!, body: 'Agreed, all of you.\n', headers: { 'In-Reply-To': relay.messageId } }),
    );
    const sent = await observerMails();
    expect(sent).toHaveLength(4);
    expect(sent.filter((m) => m.subject.includes('Aristocrat'))).toHaveLength(2);
  });

  it('messages to some factions never reach observers', async () => {
    await setObservers('broadcasts');
    await twoObservers();
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'STAMPA A Sith\nSolo per te.\nFINE\n' }));
    expect(await observerMails()).toHaveLength(0);
  });
});

describe('observers = nothing (the default), or no PUBLIC_URL', () => {
  it('sends observers nothing', async () => {
    await twoObservers();
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nCiao.\nFINE\n' }));
    expect(await observerMails()).toHaveLength(0);
    await setObservers('broadcasts');
    delete world.deps.publicUrl;
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nDi nuovo.\nFINE\n' }));
    expect(await observerMails()).toHaveLength(0);
    expect(await world.database.db.select().from(pressRecipients).where(eq(pressRecipients.recipientKind, 'observer'))).toHaveLength(0);
  });
});

describe('D-PRESS-33: the public page and its JSON', () => {
  it('show only the messages to everyone relayed while observers = broadcasts, never those written before the switch', async () => {
    const later = new Date(world.clock.now.getTime() + 86_400_000);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nScritto in privato.\nFINE\n' }));
    await setObservers('broadcasts');
    world.clock.now = new Date(world.clock.now.getTime() + 60_000);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nOra in pubblico.\nFINE\n' }));
    world.clock.now = new Date(world.clock.now.getTime() + 60_000);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'STAMPA A Sith\nSolo per te.\nFINE\n' }));
    const shown = await latestBroadcasts(world.database.db, 'andromeda', 50, later);
    expect(shown.broadcasts.map((b) => b.text)).toEqual(['Ora in pubblico.']);
    expect(shown.total).toBe(1);
    const rows = await world.database.db.select().from(pressMessages).orderBy(pressMessages.id);
    expect(rows.map((m) => [m.text, m.public])).toEqual([
      ['Scritto in privato.', false],
      ['Ora in pubblico.', true],
      ['Solo per te.', false],
    ]);
    // Back to nothing: nothing is shown, and the message published stays marked for a later switch back.
    await setObservers('nothing');
    world.clock.now = new Date(world.clock.now.getTime() + 60_000);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'A TUTTI\nDi nuovo in privato.\nFINE\n' }));
    await setObservers('broadcasts');
    expect((await latestBroadcasts(world.database.db, 'andromeda', 50, later)).broadcasts.map((b) => b.text)).toEqual(['Ora in pubblico.']);
  });
});
