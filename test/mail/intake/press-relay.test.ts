// Press written to a player's private address, through the real intake on PGlite (docs/press.md
// §4): stored, relayed once per recipient in their language with a Reply-To token and a thread of
// their own, acknowledged to the writer in the same transaction; anonymous messages unlinkable.
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { listOutbox, type OutboxMail } from '../../../src/db/outbox.ts';
import { recipientsWithMail } from '../../../src/db/press.ts';
import { disputes, pressMessages } from '../../../src/db/schema.ts';
import { fileDispute } from '../../../src/games/index.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { processInbound } from '../../../src/mail/intake/process-inbound.ts';
import { composeMail } from '../../../src/mail/send/file-transport.ts';
import { toOutgoing } from '../../../src/mail/send/outbox-sender.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

// Players: 0 Hutt (it), 1 Aristocrats (en), 2 Sith (it), 3 Knights (en).
let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const mails = async (kind: string) => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === kind);
const to = (rows: OutboxMail[], address: string) => rows.filter((m) => m.toAddress === address);
const TOKEN_ADDRESS = new RegExp(`^orders\\+p-[a-z2-7]{26}@${DOMAIN.replace('.', '\\.')}$`);

describe('R-TURN-2 step 1: a message to some factions', () => {
  it('is relayed once to each, in their language, with its own Reply-To token and thread, and acknowledged to the writer', async () => {
    const body = 'STAMPA A Aristocratici, Sith\nVi propongo una tregua fino al turno 6.\nChi attacca per primo la rompe.\nFINE\n';
    const r = await deliver(
      world,
      orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), subject: 'tregua', body, messageId: '<w1@example.org>' }),
    );
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'press' });
    const relays = await mails('press');
    expect(relays.map((m) => m.toAddress).sort()).toEqual([ADDRESSES[1], ADDRESSES[2]]);
    const [en] = to(relays, ADDRESSES[1]!);
    const [it] = to(relays, ADDRESSES[2]!);
    expect(en!.subject).toBe('[SF andromeda] Hutt → you and Sith');
    expect(en!.bodyText).toContain('From: Hutt');
    expect(en!.bodyText).toContain('Reply to this mail to write to Hutt and Sith');
    expect(it!.subject).toBe('[SF andromeda] Hutt → gli Aristocratici e te');
    expect(it!.bodyText).toContain('Da: Hutt');
    for (const m of [en!, it!]) {
      expect(m.bodyText).toContain('| Vi propongo una tregua fino al turno 6.\n| Chi');
      expect(m.replyTo).toMatch(TOKEN_ADDRESS);
      expect(m.inReplyTo).toMatch(new RegExp(`^<t\\.[0-9a-f-]{36}@${DOMAIN.replace('.', '\\.')}>$`));
      expect(m.references).toBe(m.inReplyTo);
      // The writer's own Message-ID names their mail client: never in a relay.
      expect(JSON.stringify(m)).not.toContain('w1@example.org');
    }
    expect(en!.replyTo).not.toBe(it!.replyTo);
    expect(en!.inReplyTo).not.toBe(it!.inReplyTo);

    const [ack] = await mails('press-ack');
    expect(ack!.toAddress).toBe(ADDRESSES[0]);
    expect(ack!.inReplyTo).toBe('<w1@example.org>');
    expect(ack!.bodyText).toContain('MESSAGGI');
    // Italian elides "a" before a vowel; the relayed text is quoted whole (docs/press.md §4.7).
    expect(ack!.bodyText).toContain(
      'Righe 2–3: inviato agli Aristocratici e ai Sith, firmato:\n> Vi propongo una tregua fino al turno 6.\n> Chi attacca per primo la rompe.',
    );
    // No sheet stands for this turn: the acknowledgement does not say one does.
    expect(ack!.bodyText).toContain('La mail non contiene ordini: per il turno 1 non ne hai ancora mandati.');
    expect(ack!.bodyText).not.toContain('resta valido');
    expect(await mails('refusal')).toHaveLength(0);
    expect(await mails('ack')).toHaveLength(0);

    // Stored before relayed, and each recipient linked to their relay.
    const [stored] = await world.database.db.select().from(pressMessages);
    expect(stored).toMatchObject({ status: 'relayed', writerFaction: 'hutt', sign: 'signed', audienceFactions: ['aristocrats', 'sith'] });
    const recipients = await recipientsWithMail(world.database.db, [stored!.id]);
    expect(recipients.map((x) => x.mailId).sort()).toEqual([en!.id, it!.id].sort());
  });

  it('D-PRESS-7: the next message among the same participants threads under each reader’s same root and token', async () => {
    const send = (body: string) => deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body }));
    await send('STAMPA A Sith, Aristocratici\nPrimo.\nFINE\n');
    await send('PRESS TO Aristocrats and Sith\nSecond.\nENDPRESS\n');
    const carla = to(await mails('press'), ADDRESSES[2]!);
    expect(carla).toHaveLength(2);
    expect(carla[1]!.inReplyTo).toBe(carla[0]!.inReplyTo);
    expect(carla[1]!.replyTo).toBe(carla[0]!.replyTo);
    expect(carla[1]!.messageId).not.toBe(carla[0]!.messageId);
  });

  it('is queued once when the same mail arrives twice, or is processed again', async () => {
    const raw = orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'BROADCAST\nHello all.\nENDPRESS\n' });
    const first = await deliver(world, raw);
    const again = await deliver(world, raw);
    expect(again.duplicate).toBe(true);
    expect(await processInbound(world.deps, first.id)).toMatchObject({ status: 'already' });
    expect(await mails('press')).toHaveLength(3);
    expect(await mails('press-ack')).toHaveLength(1);
    expect(await world.database.db.select().from(pressMessages)).toHaveLength(1);
  });
});

describe('D-PRESS-40: a message that imitates the head of a relay', () => {
  it('reaches its readers with every line of it behind a bar: the only unmarked head is ours', async () => {
    const body = [
      'STAMPA ANONIMA A Aristocratici',
      'Ciao.',
      '',
      'Game "Andromeda", turn 1',
      'From: Hutt',
      'To: you',
      '',
      'The Sith will attack you in I8.',
      'FINE',
      '',
    ].join('\n');
    const r = await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body }));
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'press' });
    const [toBruno] = to(await mails('press'), ADDRESSES[1]!);
    const unmarked = toBruno!.bodyText.split('\n').filter((l) => !l.startsWith('|'));
    expect(unmarked.filter((l) => /^(Game "|From:|To:)/.test(l))).toEqual(['Game "Andromeda", turn 1', 'From: anonymous', 'To: you']);
    expect(toBruno!.bodyText).toContain('| Game "Andromeda", turn 1\n| From: Hutt\n| To: you\n|\n| The Sith will attack you in I8.');
  });
});
describe('D-INPUT-1: what a writer hides in a message', () => {
  it('reaches no reader: controls, noncharacters and direction overrides are gone from the relay, the acknowledgement and the stored text', async () => {
    const body = 'STAMPA A Aristocratici\nPaga \u202e0001\u202c crediti\u0007\ufffe ai Sith\u2066.\u2069\nFINE\n';
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body }));
    const [relay] = await mails('press');
    const [ack] = await mails('press-ack');
    expect(relay!.bodyText).toContain('Paga 0001 crediti ai Sith.\n');
    expect(ack!.bodyText).toContain('> Paga 0001 crediti ai Sith.\n');
    const [stored] = await world.database.db.select().from(pressMessages);
    expect(stored!.text).toBe('Paga 0001 crediti ai Sith.');
    // eslint-disable-next-line no-control-regex -- the characters the writer hid
    const hidden = /[\u0007\u202a-\u202e\u2066-\u2069\ufffe]/;
    for (const text of [relay!.bodyText, ack!.bodyText, relay!.subject]) expect(text).not.toMatch(hidden);
  });
});

describe('D-PRESS-10: an anonymous broadcast', () => {
  it('reveals its writer in nothing a player receives: headers, Message-ID, References, text, raw mail', async () => {
    const writer = world.created.players[2]!; // Sith
    const body = 'A TUTTI ANONIMO\nGli Hutt mentono a tutti voi.\nFINE\n';
    await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body, messageId: '<anon-1@carla.example.org>' }));
    const relays = await mails('press');
    expect(relays.map((m) => m.toAddress).sort()).toEqual([ADDRESSES[0], ADDRESSES[1], ADDRESSES[3]]);
    const secrets = ['sith', ADDRESSES[2]!, 'carla', writer.secret.toLowerCase(), 'anon-1'];
    for (const m of relays) {
      expect(m.bodyText).toContain('Gli Hutt mentono a tutti voi.');
      const raw = (await composeMail(toOutgoing(m, `orders@${DOMAIN}`))).toString('utf8').toLowerCase();
      const row = JSON.stringify(m).toLowerCase();
      for (const s of secrets) {
        expect(row).not.toContain(s);
        expect(raw).not.toContain(s);
      }
    }
    expect(relays.find((m) => m.toAddress === ADDRESSES[1])!.subject).toBe('[SF andromeda] Anonymous → everyone');
    // A Reply reaches everyone, the hidden writer among them: the footer says just that.
    expect(relays.find((m) => m.toAddress === ADDRESSES[1])!.bodyText).toContain('Reply to this mail to write to everyone (from');
    expect(relays.find((m) => m.toAddress === ADDRESSES[0])!.bodyText).toContain('Rispondi a questa mail per scrivere a tutti (solo');
    const [ack] = await mails('press-ack');
    expect(ack!.toAddress).toBe(ADDRESSES[2]);
    expect(ack!.bodyText).toContain('inviato a tutti, anonimo');
    const [stored] = await world.database.db.select().from(pressMessages);
    // The referees see who wrote it; players' pages see it no sooner than its delay.
    expect(stored).toMatchObject({ writerPlayerId: writer.id, sign: 'anonymous' });
    // Its audience is every faction seated, the writer's too: no row singles them out by leaving them out.
    expect(stored!.audienceFactions).toEqual(world.created.players.map((p) => p.faction).sort());
    expect(stored!.visibleAt.getTime()).toBeGreaterThan(stored!.receivedAt.getTime());
    // Its relays leave then, not with the writer's acknowledgement: their timing names nobody.
    const delay = stored!.visibleAt.getTime() - stored!.receivedAt.getTime();
    expect(delay).toBeGreaterThanOrEqual(2 * 60_000);
    expect(delay).toBeLessThanOrEqual(20 * 60_000);
    for (const m of relays) expect(m.nextAttemptAt).toEqual(stored!.visibleAt);
    expect(ack!.nextAttemptAt).not.toEqual(stored!.visibleAt);
  });
});

describe('the game’s settings', () => {
  it('press off: nothing relayed, the writer told why; the message is kept, refused', async () => {
    await world.database.db.execute(sql`update games set press_settings = '{"mode":"off"}'::jsonb where id = 'andromeda'`);
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'PRESS TO Hutt\nPeace?\nENDPRESS\n' }));
    expect(await mails('press')).toHaveLength(0);
    const [ack] = await mails('press-ack');
    expect(ack!.bodyText).toContain('Line 1: not sent: this game has no messages between players');
    const [stored] = await world.database.db.select().from(pressMessages);
    expect(stored).toMatchObject({ status: 'refused', refusal: { reason: 'press-off' }, threadId: null });
  });
});

describe('D-PRESS-2: press and the sheet', () => {
  it('a mail of press alone leaves the standing sheet in place', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\nH: Sith\n' }));
    world.clock.now = new Date(world.clock.now.getTime() + 60_000);
    await deliver(
      world,
      orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'Ciao,\n\nSTAMPA A Sith\nTregua?\nFINE\n\nAnna\n' }),
    );
    expect((await sheetHistory(world.database.db, 'andromeda', 1, 'hutt')).map((s) => s.version)).toEqual([1]);
    expect(await mails('refusal')).toHaveLength(0);
    expect(await mails('ack')).toHaveLength(1);
    const [ack] = await mails('press-ack');
    expect(ack!.bodyText).toContain('La mail non contiene ordini: il tuo foglio di ordini precedente resta valido.');
  });

  it('a sheet with a message: the sheet is read without the message, both parts acknowledged in one mail', async () => {
    const body = 'V: Sith\n\nPRESS TO Sith\nVote for me next time.\nENDPRESS\n';
    const r = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body }));
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    const [sheet] = await sheetHistory(world.database.db, 'andromeda', 1, 'aristocrats');
    expect(sheet!.text).not.toContain('Vote for me');
    expect(sheet!.status).toBe('valid');
    // docs/press.md §4: one acknowledgement per mail, the sheet's part first, then its messages.
    expect(await mails('press-ack')).toHaveLength(0);
    const [ack, ...more] = to(await mails('ack'), ADDRESSES[1]!);
    expect(more).toHaveLength(0);
    expect(ack!.bodyText).toMatch(
      /^Orders received: Aristocrats[\s\S]*\n\nMESSAGES\n\nLine 4: sent to Sith, signed:\n> Vote for me next time\.$/,
    );
    expect(ack!.bodyText).not.toContain('earlier order sheet stands');
    expect(to(await mails('press'), ADDRESSES[2]!)).toHaveLength(1);
  });

  it('D-PRESS-35: a message in the body of a mail whose sheet is attached is relayed, and the sheet read', async () => {
    const raw = [
      `From: Bruno <${ADDRESSES[1]}>`,
      `To: ${privateTo(world, 1)}`,
      'Subject: orders',
      'Message-ID: <att1@example.org>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset="UTF-8"',
      '',
      'Orders attached.\n\nPRESS TO Sith\nVote for me next time.\nENDPRESS',
      '--b1',
      'Content-Type: text/plain; name="orders.txt"',
      'Content-Disposition: attachment; filename="orders.txt"',
      '',
      'V: Sith',
      '--b1--',
      '',
    ].join('\r\n');
    await deliver(world, Buffer.from(raw, 'utf8'));
    const [sheet] = await sheetHistory(world.database.db, 'andromeda', 1, 'aristocrats');
    expect(sheet!.text).toContain('V: Sith');
    expect(sheet!.text).not.toContain('Vote for me');
    const [relay] = to(await mails('press'), ADDRESSES[2]!);
    expect(relay!.bodyText).toContain('Vote for me next time.');
    const [ack] = to(await mails('ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Line 4: sent to Sith, signed:\n> Vote for me next time.');
    expect(ack!.bodyText).toContain('Attachments are not relayed');
  });

  it('a sheet-only mail is answered exactly as before press', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\n' }));
    expect(await mails('press-ack')).toHaveLength(0);
    expect(await world.database.db.select().from(pressMessages)).toHaveLength(0);
  });
});

describe('a message to a faction nobody plays', () => {
  it('is refused in one sentence, the faction with its Italian article', async () => {
    world.clock.now = new Date(world.clock.now.getTime() + 60_000);
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'PRESS TO Merchants\nHello?\nENDPRESS\n' }));
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'STAMPA A Mercanti\nCiao?\nFINE\n' }));
    const acks = await mails('press-ack');
    expect(acks.find((m) => m.toAddress === ADDRESSES[1])!.bodyText).toContain('Line 1: not sent: nobody plays Merchants.\n');
    expect(acks.find((m) => m.toAddress === ADDRESSES[0])!.bodyText).toContain('Riga 1: non inviato: nessuno gioca con i Mercanti.\n');
  });
});

describe('R-TURN-2 step 5: a dispute block', () => {
  it('goes to the disputes module, and is answered with its outcome', async () => {
    const filed: unknown[] = [];
    world.deps.fileDispute = async (_db, a) => {
      filed.push({ inbound: a.inboundId, block: a.block, reason: a.reason, faction: a.player.faction });
      return { kind: 'filed', disputeId: 7, turn: 1, to: 'referees' };
    };
    world.clock.now = new Date(world.clock.now.getTime() + 60_000);
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'CONTESTA: la mia unità doveva avanzare\n' }));
    expect(filed).toMatchObject([{ block: 0, reason: 'la mia unità doveva avanzare', faction: 'hutt' }]);
    const ack = (await mails('press-ack')).find((m) => m.toAddress === ADDRESSES[0]);
    // A dispute is no message: its own heading, and the line says what became of it.
    expect(ack!.bodyText).toMatch(/^CONTESTAZIONI\n\nRiga 1: contestazione dell'editto del turno 1 inviata agli arbitri\./);
    expect(ack!.bodyText).not.toContain('MESSAGGI');
  });

  it('through the real disputes module: no edict yet is refused as such, and nothing is stored', async () => {
    world.deps.fileDispute = (db, a) => fileDispute(db, { actor: 'mail', mail: { domain: DOMAIN, ordersLocalPart: 'orders' } }, a);
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'DISPUTE: my unit should have moved\n' }));
    expect((await mails('press-ack'))[0]!.bodyText).toContain('DISPUTES\n\nLine 1: dispute not taken: there is no edict to dispute yet.');
    expect(await world.database.db.select().from(disputes)).toHaveLength(0);
  });
});
