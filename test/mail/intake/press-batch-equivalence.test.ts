// A batch's press is written in bulk (relayPressRun: the writers' last hour, conversations,
// messages, tokens and recipients read and written once per batch), and that must be exactly
// relaying it one mail at a time: for any sequence of press mails — to some factions, to everyone,
// signed or anonymous, two messages in a mail, with a sheet, over the hourly cap (D-PRESS-12),
// after press closed (D-PRESS-5), between MUTE / DIGEST commands (D-PRESS-11) — and any way of
// cutting it into batches, the stored messages, their conversations (D-PRESS-7), who each went to
// and how, each reader's token and thread root per conversation (D-PRESS-9), the relays, their
// order, holds (D-PRESS-10) and dedupe keys, and the acknowledgements are the same.
import fc from 'fast-check';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { games, inboundMessages, outbox, players, pressMessages, pressThreads, pressTokens } from '../../../src/db/schema.ts';
import { recipientsWithMail } from '../../../src/db/press.ts';
import { createGame, fileDispute } from '../../../src/games/index.ts';
import type { IntakeDeps } from '../../../src/mail/intake/process-inbound.ts';
import { receiveMail, receiveMails, type ArrivedMail } from '../../../src/mail/intake/receive.ts';
import { openTestPglite } from '../../harness/pglite.ts';

const DOMAIN = 'sf.example';
const NOW = new Date('2026-03-02T10:00:00Z');
const silent = pino({ level: 'silent' });

// Players: 0 Hutt (it), 1 Aristocrats (en), 2 Sith (it), 3 Knights (en).
const BODIES = [
  'STAMPA A Sith\nCiao.\nFINE\n',
  'PRESS TO Hutt, Knights\nHello.\nENDPRESS\n',
  'A TUTTI\nA tutti.\nFINE\n',
  'PRESS TO Sith ANONYMOUS\nGuess who.\nENDPRESS\n',
  'A TUTTI ANONIMO\nNessuno.\nFINE\n',
  'STAMPA A Hutt, Sith\nUno.\nFINE\nPRESS TO Knights\nTwo.\nENDPRESS\n',
  'V: Sith\nSTAMPA A Knights\nCon un foglio.\nFINE\n',
  'PRESS TO REFEREE\nA question.\nENDPRESS\n',
  'SILENZIA Sith\n',
  'MUTE ANONYMOUS\n',
  'UNMUTE Sith\n',
  'DIGEST\n',
  'IMMEDIATE\n',
  'PRESS TO Ewoks\nNobody.\nENDPRESS\n',
];

// Replies by token (docs/press.md §4.6), to a token the prelude gave the writer.
const REPLIES = ['Agreed.\n', 'Va bene, ma solo fino al turno 6.\n', 'REPORT insults\n', '\n'];

// Before the run, one at a time in both arms, long before it (outside its hourly cap): every player gets tokens.
const PRELUDE = [
  [0, 'STAMPA A Sith, Knights\nPrima.\nFINE\n'],
  [1, 'A TUTTI\nTo all.\nFINE\n'],
  [2, 'STAMPA A Hutt, Aristocratici\nSeconda.\nFINE\n'],
  [3, 'PRESS TO Hutt, Sith ANONYMOUS\nThird.\nENDPRESS\n'],
  [1, 'PRESS TO REFEREE\nA question.\nENDPRESS\n'],
] as const;

interface MailPlan {
  from: number;
  body: number;
  when: 'early' | 'later' | 'after-declaration';
  /**
   * A reply by token instead: which of the writer's tokens, and which text; `cite`: with the
   * In-Reply-To and References a mail client writes, naming the relay that gave the token.
   */
  reply: { token: number; text: number; cite: boolean } | null;
}

const plan: fc.Arbitrary<MailPlan> = fc.record({
  from: fc.integer({ min: 0, max: 3 }),
  body: fc.integer({ min: 0, max: BODIES.length - 1 }),
  when: fc.constantFrom('early', 'early', 'early', 'later', 'after-declaration') as fc.Arbitrary<MailPlan['when']>,
  reply: fc.option(fc.record({ token: fc.nat(5), text: fc.integer({ min: 0, max: REPLIES.length - 1 }), cite: fc.boolean() }), {
    freq: 3,
  }),
});

interface Arm {
  database: Database;
  deps: IntakeDeps;
}

async function openArm(): Promise<Arm> {
  const database = await openTestPglite();
  const deps: IntakeDeps = {
    db: database.db,
    log: silent,
    now: () => NOW,
    mail: {
      domain: DOMAIN,
      ordersLocalPart: 'orders',
      maxBytes: 1_000_000,
      replyRateLimitPerHour: 1_000,
      ourAddresses: [`orders@${DOMAIN}`],
    },
    fileDispute: (db, a) => fileDispute(db, { actor: 'mail', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => NOW }, a),
  };
  return { database, deps };
}

let one: Arm;
let batched: Arm;
beforeAll(async () => {
  [one, batched] = await Promise.all([openArm(), openArm()]);
});
afterAll(async () => {
  await Promise.all([one?.database.close(), batched?.database.close()]);
});

async function setUp(arm: Arm, run: number) {
  const emails = [0, 1, 2, 3].map((i) => `p${i}.r${run}@example.org`);
  let n = 0;
  const created = await createGame(
    arm.database.db,
    {
      name: `Run ${run}`,
      players: emails.map((email, i) => ({ email, lang: i % 2 ? 'en' : 'it' })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    { actor: 'test', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => NOW, newSecret: () => `r${run}k${'mnpq'[n++]}-x9P` },
  );
  const gameId = created.game.id;
  // A low hourly cap, so that a batch's earlier messages refuse its later ones (D-PRESS-12).
  await arm.database.db
    .update(games)
    .set({ pressSettings: { perHour: 2 } })
    .where(eq(games.id, gameId));
  const s = {
    gameId,
    emails,
    secrets: created.players.map((p) => p.secret),
    turn: created.turn,
    tokens: [] as string[][],
    relays: new Map<string, string>(),
  };
  for (const [i, [from, body]] of PRELUDE.entries())
    await receiveMail(arm.deps, { ...mailOf({ from, body: 0, when: 'early', reply: null }, 1000 + i, run, s, body), receivedAt: NOW });
  const seats = await arm.database.db.select().from(players).where(eq(players.gameId, gameId)).orderBy(asc(players.id));
  const threads = (await arm.database.db.select().from(pressThreads).where(eq(pressThreads.gameId, gameId))).map((t) => t.id);
  const tokens = await arm.database.db
    .select()
    .from(pressTokens)
    .where(inArray(pressTokens.threadId, threads))
    .orderBy(asc(pressTokens.threadId), asc(pressTokens.ownerId));
  s.tokens = seats.map((p) => tokens.filter((t) => t.ownerKind === 'player' && t.ownerId === p.id).map((t) => t.token));
  // Each token's relay (its Reply-To), by token: what a reply citing it names (this arm's Message-IDs).
  for (const m of await arm.database.db.select().from(outbox).where(eq(outbox.gameId, gameId)).orderBy(asc(outbox.id)))
    if (m.kind === 'press' && m.replyTo) s.relays.set(m.replyTo, m.messageId);
  return s;
}

type Setup = Awaited<ReturnType<typeof setUp>>;

function mailOf(p: MailPlan, i: number, run: number, s: Omit<Setup, 'gameId'>, body?: string): ArrivedMail {
  const mine = s.tokens[p.from] ?? [];
  const token = p.reply && mine.length ? mine[p.reply.token % mine.length]! : null;
  const head = [
    `From: Player <${s.emails[p.from]!}>`,
    token ? `To: orders+${token}@${DOMAIN}` : `To: orders+${s.secrets[p.from]}@${DOMAIN}`,
    'Subject: press',
    'Date: Mon, 2 Mar 2026 10:00:00 +0000',
    `Message-ID: <m${i}.r${run}@example.org>`,
    ...(token && p.reply!.cite ? cited(s.relays.get(`orders+${token}@${DOMAIN}`)) : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
  ];
  const receivedAt = {
    early: new Date(s.turn.declarationDeadline.getTime() - 3 * 3_600_000),
    later: new Date(s.turn.declarationDeadline.getTime() - 3 * 3_600_000 + 40 * 60_000),
    'after-declaration': new Date(s.turn.deadline.getTime() - 60_000),
  }[p.when];
  const text = body ?? (token ? REPLIES[p.reply!.text]! : BODIES[p.body]!);
  const raw = Buffer.from(`${head.join('\r\n')}\r\n\r\n${text.replace(/\n/g, '\r\n')}`);
  return { raw, source: 'cli', sourceKey: `run${run}:${i}`, receivedAt };
}

/** The threading headers of a reply to this relay (none when the token came with no relay). */
const cited = (relay: string | undefined) => (relay ? [`In-Reply-To: <${relay}>`, `References: <${relay}>`] : []);

/** Numbers each new value by first sight, so that ids and random tokens compare across the arms. */
function namer() {
  const seen = new Map<string, number>();
  return (v: string | number | null) => {
    if (v === null) return null;
    const k = String(v);
    if (!seen.has(k)) seen.set(k, seen.size);
    return seen.get(k)!;
  };
}

async function observe(arm: Arm, s: Setup, ids: number[]) {
  const db = arm.database.db;
  const place = new Map<number, number>();
  ids.forEach((id, i) => place.has(id) || place.set(id, i));
  const seats = (await db.select().from(players).where(eq(players.gameId, s.gameId)).orderBy(asc(players.id))).map((p) => p.id);
  const thread = namer();
  const token = namer();
  const root = namer();
  const messages = await db.select().from(pressMessages).where(eq(pressMessages.gameId, s.gameId)).orderBy(asc(pressMessages.id));
  const messagePlace = new Map(messages.map((m, i) => [m.id, i]));
  const dedupe = (key: string) =>
    key.replace(
      /^press:(\d+):(\w+):(\d+)$/,
      (_, m: string, kind: string, id: string) =>
        `press:${messagePlace.get(Number(m))}:${kind}:${kind === 'player' ? seats.indexOf(Number(id)) : id}`,
    );
  const recipients = await recipientsWithMail(
    db,
    messages.map((m) => m.id),
  );
  const threads = await db.select().from(pressThreads).where(eq(pressThreads.gameId, s.gameId)).orderBy(asc(pressThreads.id));
  const tokens = threads.length
    ? await db
        .select()
        .from(pressTokens)
        .where(
          inArray(
            pressTokens.threadId,
            threads.map((t) => t.id),
          ),
        )
        .orderBy(asc(pressTokens.threadId), asc(pressTokens.ownerKind), asc(pressTokens.ownerId))
    : [];
  const inbound = await db
    .select()
    .from(inboundMessages)
    .where(inArray(inboundMessages.id, [...place.keys()]))
    .orderBy(asc(inboundMessages.id));
  const mail = await db
    .select()
    .from(outbox)
    .where(sql`${outbox.gameId} = ${s.gameId} and ${outbox.kind} in ('press', 'press-ack', 'ack', 'status', 'refusal')`)
    .orderBy(asc(outbox.id));
  const visibleAt = new Map(messages.map((m) => [m.id, m.visibleAt.getTime()]));
  // A batch queues a sheet's acknowledgement as it decides each mail, and press when it is written
  // (as before press was written in bulk): the relays and press acknowledgements keep their order.
  const press = (m: (typeof mail)[number]) => m.kind === 'press' || m.kind === 'press-ack';
  return {
    messages: messages.map((m) => ({
      from: place.get(m.inboundId!),
      block: m.block,
      thread: thread(m.threadId),
      // The message a reply answers (D-PRESS-7): read from what the batch wrote before it.
      answers: m.inReplyToMessageId === null ? null : messagePlace.get(m.inReplyToMessageId),
      status: m.status,
      refusal: m.refusal,
      sign: m.sign,
      audience: [m.audienceKind, ...m.audienceFactions],
      writer: m.writerFaction,
      text: m.text,
      // The anonymous delay is random (D-PRESS-10): only whether there is one compares.
      delayed: m.visibleAt.getTime() > m.receivedAt.getTime(),
    })),
    recipients: recipients.map((r) => ({
      message: messagePlace.get(r.messageId),
      kind: r.recipientKind,
      who: r.recipientKind === 'player' ? seats.indexOf(r.recipientId) : r.recipientId,
      delivery: r.delivery,
      // Carried by a mail (a relay found by its dedupe key, or a digest).
      mailed: r.mailId !== null,
    })),
    tokens: tokens.map((t) => ({
      thread: thread(t.threadId),
      kind: t.ownerKind,
      who: t.ownerKind === 'player' ? seats.indexOf(t.ownerId) : t.ownerId,
      token: token(t.token),
      root: root(t.rootMessageId),
      revoked: t.revokedAt !== null,
    })),
    inbound: inbound.map((r) => ({ at: place.get(r.id), status: r.status, outcome: r.outcome, detail: r.outcomeDetail })),
    // (Their order among themselves is the batch's, as it was: a command's answer is queued with the press.)
    replies: mail
      .filter((m) => !press(m))
      .map((m) => ({
        kind: m.kind,
        to: m.toAddress,
        body: m.bodyText,
        dedupe: m.dedupeKey.replace(/:(\d+)$/, (_, id: string) => `:${place.get(Number(id))}`),
      }))
      .sort((x, y) => (x.dedupe < y.dedupe ? -1 : x.dedupe > y.dedupe ? 1 : 0)),
    outbox: mail.filter(press).map((m) => {
      const relayOf = /^press:(\d+):/.exec(m.dedupeKey);
      const message = relayOf ? Number(relayOf[1]) : null;
      return {
        kind: m.kind,
        to: m.toAddress,
        replyTo: m.replyTo?.replace(/p-([a-z2-7]+)@/, (_, t: string) => `p-${token(t)}@`) ?? null,
        inReplyTo: m.kind === 'press' ? root(m.inReplyTo!.replace(/^<|>$/g, '')) : m.inReplyTo,
        subject: m.subject,
        body: m.bodyText,
        dedupe: dedupe(m.dedupeKey).replace(
          /^(press-ack|ack|status|refusal):(\d+)$/,
          (_, k: string, id: string) => `${k}:${place.get(Number(id))}`,
        ),
        held: message !== null && m.nextAttemptAt.getTime() === visibleAt.get(message),
      };
    }),
  };
}

describe('press in batches', () => {
  it('relays every press mail exactly as one-at-a-time intake does, however the mail is cut into batches', async () => {
    let run = 0;
    let relayed = 0;
    let capped = 0;
    let reused = 0;
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(plan, { minLength: 1, maxLength: 24 }),
        fc.array(fc.integer({ min: 2, max: 12 }), { minLength: 1, maxLength: 12 }),
        async (plans, cuts) => {
          run++;
          const [s1, s2] = await Promise.all([setUp(one, run), setUp(batched, run)]);
          // Each arm's own tokens, the same in both by place (the prelude ran one mail at a time in each).
          const oneMails = plans.map((p, i) => mailOf(p, i, run, s1));
          const batchMails = plans.map((p, i) => mailOf(p, i, run, s2));
          const oneIds: number[] = [];
          for (const m of oneMails) oneIds.push((await receiveMail(one.deps, m)).id);
          const batchIds: number[] = [];
          for (let i = 0, c = 0; i < batchMails.length; c++) {
            const size = cuts[c % cuts.length]!;
            for (const r of await receiveMails(batched.deps, batchMails.slice(i, i + size))) batchIds.push(r.id);
            i += size;
          }
          const a = await observe(one, s1, oneIds);
          const b = await observe(batched, s2, batchIds);
          relayed += a.messages.filter((m) => m.status === 'relayed').length;
          capped += a.messages.filter((m) => (m.refusal as { reason?: string } | null)?.reason === 'too-many').length;
          const replyTos = a.outbox.filter((m) => m.kind === 'press').map((m) => m.replyTo);
          reused += replyTos.length - new Set(replyTos).size;
          answered += a.inbound.filter((m) => m.outcome === 'press-reply' && JSON.stringify(m.detail).includes('"relayed"')).length;
          expect(b).toEqual(a);
        },
      ),
      { numRuns: 30, seed: 20261126 },
    );
    // The property is about something: messages relayed, some over the cap, tokens reused in a conversation.
    expect(relayed).toBeGreaterThan(60);
    expect(capped).toBeGreaterThan(2);
    expect(reused).toBeGreaterThan(2);
    expect(answered).toBeGreaterThan(10);
  }, 300_000);
});
