// Replies by token through the real intake on PGlite (docs/press.md §4.5–§4.7): a plain Reply to a
// relayed message goes back to the conversation only when its token is live AND its From is the
// token owner's registered address (two factors, D-PRESS-9); a reply is press, never a sheet.
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '../../../src/db/audit.ts';
import { listOutbox, type OutboxMail } from '../../../src/db/outbox.ts';
import { revokeTokensOfPlayer } from '../../../src/db/press.ts';
import { pressMessages, pressReports } from '../../../src/db/schema.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { addReferee, assignReferee } from '../../../src/referee/accounts.ts';
import { composeMail } from '../../../src/mail/send/file-transport.ts';
import { toOutgoing } from '../../../src/mail/send/outbox-sender.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

// Players: 0 Hutt (it, anna), 1 Aristocrats (en, bruno), 2 Sith (it, carla), 3 Knights (en, dario).
let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const all = async () => listOutbox(world.database.db, { gameId: 'andromeda' });
const mails = async (kind: string) => (await all()).filter((m) => m.kind === kind);
const to = (rows: OutboxMail[], address: string) => rows.filter((m) => m.toAddress === address);
const later = () => (world.clock.now = new Date(world.clock.now.getTime() + 60_000));

/** A new message from player `i`, to their private address. */
async function write(i: number, body: string) {
  later();
  return deliver(world, orderMail({ from: ADDRESSES[i]!, to: privateTo(world, i), body }));
}

/** A mail client's Reply to a relay: to its Reply-To, threaded under it, the relay quoted below. */
let replies = 0;
async function reply(relay: OutboxMail, body: string, from = relay.toAddress, messageId = `<reply${++replies}@example.org>`) {
  later();
  const quoted = relay.bodyText
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  return deliver(
    world,
    orderMail({
      from,
      to: relay.replyTo!,
      subject: `Re: ${relay.subject}`,
      body: `${body}\n\nOn Mon, 2 Mar 2026, Starts Foundation wrote:\n${quoted}\n`,
      messageId,
      headers: { 'In-Reply-To': `<${relay.messageId}>`, References: `${relay.inReplyTo} <${relay.messageId}>` },
    }),
  );
}

const relaysTo = async (i: number) => to(await mails('press'), ADDRESSES[i]!);

/** An HTML-only mail (no text part), from `from` to `toAddress`, as some webmails send. */
function htmlOnlyMail(from: string, toAddress: string, html: string): Buffer {
  const head = [
    `From: Player <${from}>`,
    `To: ${toAddress}`,
    'Subject: press',
    'Date: Mon, 2 Mar 2026 10:00:00 +0000',
    `Message-ID: <html${++replies}@example.org>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${html}`, 'utf8');
}

describe('docs/press.md §1: an HTML-only mail is relayed as its text, and its acknowledgement says so', () => {
  it('a message in a mail, and a reply by its reply address', async () => {
    later();
    await deliver(
      world,
      htmlOnlyMail(ADDRESSES[1]!, privateTo(world, 1), '<p>PRESS TO Hutt</p><p><b>Truce</b> until turn 6?</p><p>END</p>'),
    );
    const [toAnna] = await relaysTo(0);
    expect(toAnna!.bodyText).toContain('Truce until turn 6?');
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your mail was in HTML only: what is relayed of it is its text');
    later();
    await deliver(world, htmlOnlyMail(ADDRESSES[0]!, toAnna!.replyTo!, '<div>Va bene, <i>tregua</i>.</div>'));
    const [back] = await relaysTo(1);
    expect(back!.bodyText).toContain('Va bene, tregua.');
    const [ackAnna] = to(await mails('press-ack'), ADDRESSES[0]!);
    expect(ackAnna!.bodyText).toContain('La tua mail era solo in HTML: se ne inoltra il testo');
  });

  it('a plain-text mail has no such line', async () => {
    await write(1, 'PRESS TO Hutt\nTruce?\nEND\n');
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).not.toContain('HTML');
  });
});

describe('D-PRESS-9: a reply from the recipient’s registered address', () => {
  it('is relayed to the writer in the same thread, stored as answering the message, and acknowledged', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua fino al turno 6?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    const r = await reply(toBruno!, 'Agreed, until turn 6.', ADDRESSES[1], '<agreed@example.org>');
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'press-reply' });

    const [toAnna] = await relaysTo(0);
    expect(toAnna!.subject).toBe('[SF andromeda] Aristocratici → te');
    expect(toAnna!.bodyText).toContain('Da: Aristocratici');
    expect(toAnna!.bodyText).toContain('Agreed, until turn 6.');
    // The quoted relay is stripped: nothing is relayed twice.
    expect(toAnna!.bodyText).not.toContain('Tregua fino al turno 6?');
    expect(toAnna!.replyTo).toMatch(/^orders\+p-[a-z2-7]{26}@sf\.example$/);
    expect(toAnna!.replyTo).not.toBe(toBruno!.replyTo);
    expect(toAnna!.inReplyTo).toMatch(/^<t\.[0-9a-f-]{36}@sf\.example>$/);

    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your reply was sent to Hutt, signed:\n\n> Agreed, until turn 6.');
    expect(ack!.inReplyTo).toBe('<agreed@example.org>');
    // Replying to the acknowledgement continues the conversation.
    expect(ack!.replyTo).toBe(toBruno!.replyTo);

    const stored = await world.database.db.select().from(pressMessages).orderBy(pressMessages.id);
    expect(stored).toHaveLength(2);
    expect(stored[1]).toMatchObject({
      writerFaction: 'aristocrats',
      threadId: stored[0]!.threadId,
      inReplyToMessageId: stored[0]!.id,
      audienceFactions: ['hutt'],
      status: 'relayed',
    });

    // Anna answers through her own token: Bruno's relay threads under his first one.
    await reply(toAnna!, 'Bene.');
    const bruno = await relaysTo(1);
    expect(bruno).toHaveLength(2);
    expect(bruno[1]!.inReplyTo).toBe(bruno[0]!.inReplyTo);
    expect(bruno[1]!.replyTo).toBe(bruno[0]!.replyTo);
    expect(bruno[1]!.bodyText).toContain('Bene.');
  });

  it('is press, never a sheet: order lines in a reply are relayed as text and no sheet is stored', async () => {
    await write(0, 'STAMPA A Aristocratici\nCosa voti?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'V: Sith\nH: Sith');
    expect(await sheetHistory(world.database.db, 'andromeda', 1, 'aristocrats')).toHaveLength(0);
    expect(await mails('ack')).toHaveLength(0);
    const [toAnna] = await relaysTo(0);
    expect(toAnna!.bodyText).toContain('| V: Sith\n| H: Sith');
  });

  it('obeys the game’s settings: with press off the reply is refused and nothing relayed', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await world.database.db.execute(sql`update games set press_settings = '{"mode":"off"}'::jsonb where id = 'andromeda'`);
    await reply(toBruno!, 'Yes.');
    expect(await relaysTo(0)).toHaveLength(0);
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your reply was not sent: this game has no messages between players');
  });

  it('counts towards the hourly cap (D-PRESS-12)', async () => {
    await world.database.db.execute(sql`update games set press_settings = '{"perHour":1}'::jsonb where id = 'andromeda'`);
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'Yes.');
    await reply(toBruno!, 'And again.');
    expect(await relaysTo(0)).toHaveLength(1);
    const acks = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(acks[1]!.bodyText).toContain('Your reply was not sent: you have sent 1 messages in the last hour');
  });
});

/** The same Reply as a multipart mail (Gmail's shape), the relay quoted in its text part, with a `.txt` attached. */
async function replyWithAttachment(relay: OutboxMail, body: string, attachment: string) {
  later();
  const quoted = relay.bodyText
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const raw = [
    `From: Player <${relay.toAddress}>`,
    `To: ${relay.replyTo}`,
    `Subject: Re: ${relay.subject}`,
    `Message-ID: <att${++replies}@example.org>`,
    `In-Reply-To: <${relay.messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="000000000000b1"',
    '',
    '--000000000000b1',
    'Content-Type: text/plain; charset="UTF-8"',
    '',
    `${body}\n\nOn Mon, 2 Mar 2026 at 10:00, Starts Foundation <orders@sf.example> wrote:\n${quoted}`,
    '--000000000000b1',
    'Content-Type: text/plain; charset="US-ASCII"; name="ordini.txt"',
    'Content-Disposition: attachment; filename="ordini.txt"',
    '',
    attachment,
    '--000000000000b1--',
    '',
  ].join('\r\n');
  return deliver(world, Buffer.from(raw.replace(/\r?\n/g, '\r\n'), 'utf8'));
}

describe('docs/press.md §1: a reply is its text; attachments are not relayed, and the writer is told', () => {
  it('relays the text of a reply that carries an order-shaped .txt, never the attachment, and says the attachment was not relayed', async () => {
    await write(0, 'STAMPA A Aristocratici\nCosa facciamo?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    const r = await replyWithAttachment(toBruno!, 'My plan is attached.', 'H: Sith\nB2-C3\n');
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'press-reply' });
    const [toAnna] = await relaysTo(0);
    expect(toAnna!.bodyText).toContain('My plan is attached.');
    expect(toAnna!.bodyText).not.toContain('B2-C3');
    expect(toAnna!.bodyText).not.toContain('Cosa facciamo?');
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your reply was sent to Hutt, signed:\n\n> My plan is attached.');
    expect(ack!.bodyText).toContain('Attachments are not relayed; an HTML mail is relayed as its text.');
    expect(await sheetHistory(world.database.db, 'andromeda', 1, 'aristocrats')).toHaveLength(0);
  });

  it('an HTML-only reply (Gmail) is relayed as its new text, without the quoted relay, and says so', async () => {
    await write(0, 'STAMPA A Aristocratici\nCosa facciamo?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    later();
    const html =
      '<div dir="ltr">Peace&nbsp;until <b>turn 6</b>.<br>Bruno</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">' +
      'On Mon, 2 Mar 2026 at 10:00, Starts Foundation &lt;orders@sf.example&gt; wrote:<br></div><blockquote class="gmail_quote">' +
      toBruno!.bodyText.replace(/\n/g, '<br>') +
      '</blockquote></div>';
    const raw = [
      `From: Bruno <${ADDRESSES[1]}>`,
      `To: ${toBruno!.replyTo}`,
      `Subject: Re: ${toBruno!.subject}`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset="UTF-8"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      html.replace(/=/g, '=3D').replace(/(.{70})/g, '$1=\r\n'),
      '',
    ].join('\r\n');
    await deliver(world, Buffer.from(raw, 'utf8'));
    const [toAnna] = await relaysTo(0);
    expect(toAnna!.bodyText).toContain('| Peace until turn 6.\n| Bruno\n');
    expect(toAnna!.bodyText).not.toContain('Cosa facciamo?');
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your mail was in HTML only: what is relayed of it is its text');
  });

  it('a Subject hiding CR/LF and a direction override reaches no header of the acknowledgement or the relay', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    later();
    const raw = [
      `From: Bruno <${ADDRESSES[1]}>`,
      `To: ${toBruno!.replyTo}`,
      'Subject: =?utf-8?Q?Re:_tregua=0D=0ABcc:_mallory@evil.example=0D=0A=E2=80=AE?=',
      `In-Reply-To: <${toBruno!.messageId}>`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Yes.',
      '',
    ].join('\r\n');
    await deliver(world, Buffer.from(raw, 'utf8'));
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    const [toAnna] = await relaysTo(0);
    // The player's subject is shown in the acknowledgement's, its hidden characters escaped (visible.ts).
    expect(ack!.subject).toContain('Re: tregua[U+000D][U+000A]Bcc: mallory@evil.example[U+000D][U+000A][U+202E]');
    for (const m of [ack!, toAnna!]) {
      expect(m.subject).not.toMatch(/[\r\n\u202e]/);
      const head = (await composeMail(toOutgoing(m, `orders@${DOMAIN}`))).toString('utf8').split('\r\n\r\n')[0]!;
      expect(head.toLowerCase()).not.toMatch(/^bcc:/m);
      // Every line of the head is a header of ours or the folded continuation of one.
      for (const line of head.split('\r\n')) expect(line).toMatch(/^(?:[A-Z][A-Za-z-]*: |[ \t])/);
    }
  });

  it('a reply whose only text is an attachment is empty, and says why', async () => {
    await write(0, 'STAMPA A Aristocratici\nCosa facciamo?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await replyWithAttachment(toBruno!, '', 'Peace until turn 6.');
    expect(await relaysTo(0)).toHaveLength(0);
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your reply was not sent: the reply is empty');
    expect(ack!.bodyText).toContain('Attachments are not relayed');
  });
});

describe('D-PRESS-9: anything else is refused, nothing relayed', () => {
  it('the same reply from another address: the token’s owner is warned, the stranger hears nothing', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    const r = await reply(toBruno!, 'Yes, signed Bruno.', 'mallory@evil.example');
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'sender-mismatch' });
    expect(await relaysTo(0)).toHaveLength(0);
    expect(await world.database.db.select().from(pressMessages)).toHaveLength(1);
    const [warning] = await mails('warning');
    expect(warning!.toAddress).toBe(ADDRESSES[1]);
    // Named by its conversation: it was no use of the private code (D-PRESS-9).
    expect(warning!.subject).toBe('[SF andromeda] Someone wrote in your conversation with Hutt');
    expect(warning!.bodyText).toContain('someone wrote from mallory@evil.example to the reply address of your conversation with Hutt.');
    expect(warning!.bodyText).toContain('your private code was not used');
    expect((await all()).filter((m) => m.toAddress === 'mallory@evil.example')).toHaveLength(0);
  });

  it('a forged From holding a direction override is shown escaped in the owner’s warning', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'Yes.', '"\u202eyllerom"@evil.example');
    const [warning] = await mails('warning');
    expect(warning!.bodyText).toContain('someone wrote from "[U+202E]yllerom"@evil.example to the reply address');
    expect(`${warning!.subject}${warning!.bodyText}`).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  // An out-of-office reply from the owner's own address would name a hidden writer (D-PRESS-10):
  // marked (Auto-Submitted), or with no marking header at all, known by its subject or its X-Mailer (D-MAIL-37).
  it.each([
    ['Risposta automatica: ', 'Auto-Submitted: auto-replied'],
    ['Risposta automatica: ', ''],
    ['Automatic reply: ', ''],
    ['Fuori sede: ', ''],
    ['', 'X-Mailer: vacation 1.2.7'],
    ['', 'X-Autogenerated: Reply'],
  ])('an out-of-office reply (%s%s) is never relayed, nor answered, nor read as a sheet', async (prefix, header) => {
    await write(2, 'STAMPA ANONIMA A Aristocratici\nGli Hutt mentono.\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'Thanks.');
    const [toCarla] = to(await mails('press'), ADDRESSES[2]!);
    const before = (await all()).length;
    later();
    const raw = [
      `From: Carla <${ADDRESSES[2]}>`,
      `To: ${toCarla!.replyTo}`,
      `Subject: ${prefix}${toCarla!.subject}`,
      ...(header ? [header] : []),
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Sono in ferie fino al 10 marzo. Carla Verdi, Sith',
      'B2-C3',
      '',
    ].join('\r\n');
    await deliver(world, Buffer.from(raw, 'utf8'));
    expect(await all()).toHaveLength(before);
    expect(await world.database.db.select().from(pressMessages)).toHaveLength(2);
    expect(await sheetHistory(world.database.db, 'andromeda', 1, 'sith')).toHaveLength(0);
  });

  it('D-MAIL-37: a reply whose subject mentions an absence past its start is relayed', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    later();
    const raw = [
      `From: Bruno <${ADDRESSES[1]}>`,
      `To: ${toBruno!.replyTo}`,
      `Subject: Re: ${toBruno!.subject} — out of office: back Monday`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Yes, a truce until my absence ends.',
      '',
    ].join('\r\n');
    await deliver(world, Buffer.from(raw, 'utf8'));
    const [back] = await relaysTo(0);
    expect(back!.bodyText).toContain('Yes, a truce until my absence ends.');
  });

  it('a stranger answering the relay’s Message-ID at the common address gets nothing, and nothing is relayed', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    const before = (await all()).length;
    const r = await reply({ ...toBruno!, replyTo: `orders@${DOMAIN}` }, 'I accept on behalf of Bruno.', 'mallory@evil.example');
    expect(r.result).toMatchObject({ status: 'ignored', outcome: 'unknown-sender' });
    expect(await all()).toHaveLength(before);
    expect(await world.database.db.select().from(pressMessages)).toHaveLength(1);
  });

  it('D-PRESS-10: a forged reply in an anonymous conversation names the conversation, never its hidden writer', async () => {
    await write(2, 'STAMPA ANONIMA A Aristocratici, Cavalieri\nGli Hutt mentono.\nFINE\n');
    const [toBruno] = await relaysTo(1);
    expect(toBruno!.bodyText).toContain('Reply to this mail to write to the anonymous writer and Knights');
    await reply(toBruno!, 'Who?', 'mallory@evil.example');
    const [warning] = await mails('warning');
    expect(warning!.toAddress).toBe(ADDRESSES[1]);
    expect(warning!.subject).toBe('[SF andromeda] Someone wrote in your conversation with anonymous and Knights');
    expect(`${warning!.subject}\n${warning!.bodyText}`).not.toMatch(/Sith/);
  });

  it('D-PRESS-38: from another player’s address: the owner is warned without that address, the writer told the reply address is not theirs', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    const r = await reply(toBruno!, 'Sì.', ADDRESSES[2]!);
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'sender-mismatch' });
    expect(await relaysTo(0)).toHaveLength(0);
    const [refusal] = to(await mails('refusal'), ADDRESSES[2]!);
    expect(refusal!.bodyText).toContain('non è stato inoltrato nulla');
    expect(refusal!.bodyText).not.toMatch(/codice|ordini/);
    const [warning] = to(await mails('warning'), ADDRESSES[1]!);
    expect(warning!.bodyText).toContain("someone wrote from another player's address in this game (the referees know whose)");
    expect(warning!.bodyText).not.toContain(ADDRESSES[2]!);
    const audit = await listAudit(world.database.db, { gameId: 'andromeda' });
    expect(audit.find((e) => e.action === 'press.reply-not-yours')?.detail).toMatchObject({ from: 'sith', owner: 'aristocrats' });
  });

  it('an unknown token, and a revoked one, are refused as an unknown code', async () => {
    await write(0, 'STAMPA A Aristocratici\nTregua?\nFINE\n');
    const [toBruno] = await relaysTo(1);
    const made = await reply({ ...toBruno!, replyTo: `orders+p-${'a'.repeat(26)}@${DOMAIN}` }, 'Yes.');
    expect(made.result).toMatchObject({ status: 'rejected', outcome: 'unknown-code' });
    await revokeTokensOfPlayer(world.database.db, world.created.players[1]!.id);
    const revoked = await reply(toBruno!, 'Fine by me.');
    expect(revoked.result).toMatchObject({ status: 'rejected', outcome: 'unknown-code' });
    expect(await relaysTo(0)).toHaveLength(0);
    expect(to(await mails('refusal'), ADDRESSES[1]!)).toHaveLength(2);
  });
});

describe('D-PRESS-10: an anonymous conversation', () => {
  it('an answer to an anonymous broadcast tells its hidden writer so, and their reply from it stays anonymous', async () => {
    await write(2, 'A TUTTI ANONIMO\nGli Hutt mentono.\nFINE\n'); // Sith, carla
    const [toAnna] = await relaysTo(0);
    await reply(toAnna!, 'Chi parla?');
    const toCarla = await relaysTo(2);
    expect(toCarla).toHaveLength(1);
    expect(toCarla[0]!.subject).toBe('[SF andromeda] Hutt → tutti');
    expect(toCarla[0]!.bodyText).toContain('È una risposta al tuo messaggio anonimo: se rispondi a questa mail resti anonimo.');
    expect(toCarla[0]!.bodyText).toContain('Rispondi a questa mail per scrivere a tutti (solo');
    expect((await relaysTo(1)).at(-1)!.bodyText).not.toContain('anonymous message');
    const [ack] = to(await mails('press-ack'), ADDRESSES[0]!);
    expect(ack!.bodyText).toBe('La tua risposta è stata inviata a tutti, firmata:\n\n> Chi parla?');

    await reply(toCarla[0]!, 'Un amico.');
    const last = (await relaysTo(1)).at(-1)!;
    expect(last.subject).toBe('[SF andromeda] Anonymous → everyone');
    expect(last.bodyText).toContain('Un amico.');
    expect(JSON.stringify(last).toLowerCase()).not.toMatch(/sith|carla/);
  });

  it('a reply reaches the hidden writer, and nothing the repliers receive names them', async () => {
    const writer = world.created.players[2]!; // Sith, carla
    await write(2, 'STAMPA ANONIMA A Aristocratici, Cavalieri\nGli Hutt mentono.\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'Who are you?');

    const toCarla = await relaysTo(2);
    expect(toCarla).toHaveLength(1);
    expect(toCarla[0]!.bodyText).toContain('Who are you?');
    expect(toCarla[0]!.subject).toBe('[SF andromeda] Aristocratici → i Cavalieri e te');
    // The hidden writer is told it answers their anonymous message, and that replying keeps them hidden.
    expect(toCarla[0]!.bodyText).toContain('È una risposta al tuo messaggio anonimo: se rispondi a questa mail resti anonimo.');
    expect(toCarla[0]!.bodyText).toContain('Rispondi a questa mail per scrivere agli Aristocratici e ai Cavalieri');
    const toDario = await relaysTo(3);
    expect(toDario[1]!.subject).toBe('[SF andromeda] Aristocrats → you and anonymous');
    expect(toDario[1]!.bodyText).not.toContain('your anonymous message');
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your reply was sent to the conversation, signed:\n\n> Who are you?');

    // The hidden writer answers through the token that relay gave them: anonymous again, delayed.
    await reply(toCarla[0]!, 'Un amico.');
    const second = await relaysTo(1);
    expect(second).toHaveLength(2);
    expect(second[1]!.subject).toBe('[SF andromeda] Anonymous → you and Knights');
    expect(second[1]!.inReplyTo).toBe(second[0]!.inReplyTo);
    expect(second[1]!.nextAttemptAt.getTime()).toBeGreaterThan(world.clock.now.getTime() + 60_000);

    const secrets = ['sith', ADDRESSES[2]!, 'carla', writer.secret.toLowerCase()];
    for (const i of [1, 3])
      // Everything of the press a player receives (their welcome lists the factions in play).
      for (const m of (await all()).filter((x) => x.toAddress === ADDRESSES[i] && x.kind.startsWith('press'))) {
        const raw = (await composeMail(toOutgoing(m, `orders@${DOMAIN}`))).toString('utf8').toLowerCase();
        for (const s of secrets) {
          expect(JSON.stringify(m).toLowerCase()).not.toContain(s);
          expect(raw).not.toContain(s);
        }
      }
    const stored = await world.database.db.select().from(pressMessages).orderBy(pressMessages.id);
    // No row a player may read names the hidden writer among the recipients.
    for (const m of stored) expect(m.audienceFactions).not.toContain('sith');
  });
});

describe('REPORT / SEGNALA', () => {
  it('forwards the stored original to the game’s referees, acknowledges the reporter, relays nothing', async () => {
    await assignReferee(
      world.database.db,
      'andromeda',
      (await addReferee(world.database.db, 'ref@example.org', 'test')).referee.email,
      'test',
    );
    await write(0, 'STAMPA ANONIMA A Aristocratici\nTi distruggerò.\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'REPORT\nThreats.');
    expect(await relaysTo(0)).toHaveLength(0);
    const [report] = await mails('press-report');
    expect(report!.toAddress).toBe('ref@example.org');
    expect(report!.bodyText).toContain('Ti distruggerò.');
    // The referees see who wrote it (D-PRESS-10).
    expect(report!.bodyText).toContain('Written by: Hutt (anonymous)');
    expect(report!.bodyText).toContain('Reason: Threats.');
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('Your report has reached the referees.');
    const reports = await world.database.db.select().from(pressReports);
    expect(reports).toMatchObject([{ playerId: world.created.players[1]!.id, reason: 'Threats.' }]);
    // A second report of the same message is the first.
    await reply(toBruno!, 'SEGNALA');
    expect(await mails('press-report')).toHaveLength(1);
  });

  it('is kept for the first referee when the game has none (D-PRESS-17)', async () => {
    await write(0, 'STAMPA A Aristocratici\nTi distruggerò.\nFINE\n');
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'REPORT threats');
    expect(await mails('press-report')).toHaveLength(0);
    const [ack] = to(await mails('press-ack'), ADDRESSES[1]!);
    expect(ack!.bodyText).toContain('this game has no referee yet');
    expect(await world.database.db.select().from(pressReports)).toHaveLength(1);
  });

  it('D-PRESS-10: a REPORT naming no message never targets an anonymous message not yet visible', async () => {
    await write(2, 'STAMPA ANONIMA A Aristocratici, Cavalieri\nGli Hutt mentono.\nFINE\n'); // Sith, carla
    world.clock.now = new Date(world.clock.now.getTime() + 30 * 60_000); // past the first one's delay
    const [toBruno] = await relaysTo(1);
    await reply(toBruno!, 'Who are you?');
    const [toCarla] = await relaysTo(2);
    // Held for its random delay (2 to 20 minutes): Bruno cannot know it exists yet.
    await reply(toCarla!, 'Un amico.');
    const stored = await world.database.db.select().from(pressMessages).orderBy(pressMessages.id);
    const hidden = stored.at(-1)!;
    expect(hidden.visibleAt.getTime()).toBeGreaterThan(world.clock.now.getTime() + 60_000);
    // A new mail to the conversation's address, no In-Reply-To: the latest message *he can see*.
    later();
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: toBruno!.replyTo!, subject: 'report', body: 'REPORT\nLies.' }));
    const reports = await world.database.db.select().from(pressReports);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.messageId).toBe(stored[0]!.id);
    expect(reports[0]!.messageId).not.toBe(hidden.id);
  });
});

describe('D-PRESS-4: a referee answers a player’s message to the referees by replying', () => {
  it('from their account’s address: relayed to the player, who can reply back; from any other: refused', async () => {
    const db = world.database.db;
    await assignReferee(db, 'andromeda', (await addReferee(db, 'ref@example.org', 'test')).referee.email, 'test');
    later();
    const question = '<question@example.org>';
    const body = "STAMPA ALL'ARBITRO\nIl mio turno è stato letto male.\nFINE\n";
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body, messageId: question }));
    const [toRef] = to(await mails('press'), 'ref@example.org');
    expect(toRef!.replyTo).toMatch(/^orders\+p-[a-z2-7]{26}@sf\.example$/);

    const forged = await reply(toRef!, 'Approved.', 'mallory@evil.example');
    expect(forged.result).toMatchObject({ status: 'rejected', outcome: 'unknown-code' });
    expect(await relaysTo(0)).toHaveLength(0);

    const r = await reply(toRef!, 'I will look at it tonight.');
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'referee-reply' });
    const [toAnna] = await relaysTo(0);
    expect(toAnna!.subject).toBe('[SF andromeda] Arbitro → te');
    // Threaded under the player's own mail that asked, its footer to answer the referees: nothing to REPORT.
    expect(toAnna!.inReplyTo).toBe(question);
    expect(toAnna!.references).toContain(question);
    expect(toAnna!.bodyText).toContain('Rispondi a questa mail per rispondere agli arbitri (solo dal tuo indirizzo registrato).');
    expect(toAnna!.bodyText).not.toContain('SEGNALA');
    expect(toAnna!.bodyText).toContain('I will look at it tonight.');
    expect(toAnna!.bodyText).not.toContain('Il mio turno');
    const [ack] = to(await mails('press-ack'), 'ref@example.org');
    expect(ack!.bodyText).toContain('Your reply was sent to Hutt, signed:\n\n> I will look at it tonight.');
    const stored = await db.select().from(pressMessages).orderBy(pressMessages.id);
    expect(stored[1]).toMatchObject({ writerPlayerId: null, writerFaction: null, inReplyToMessageId: stored[0]!.id });

    // The player's reply goes back to the referees, in the same conversation.
    await reply(toAnna!, 'Grazie.');
    const refs = to(await mails('press'), 'ref@example.org');
    expect(refs).toHaveLength(2);
    expect(refs[1]!.inReplyTo).toBe(refs[0]!.inReplyTo);
    expect(refs[1]!.bodyText).toContain('Grazie.');
  });
});
