// Processing mail in batches must be exactly processing it one mail at a time: for any sequence
// of mail — sheets, resent sheets, chatter, commands, spoofs, strangers, auto-replies, copies,
// late mail, the Chancellor declaring twice, a player over the hourly reply limit — and any way
// of cutting it into batches, the sheets, the replies and the recorded outcomes are the same.
import fc from 'fast-check';
import { and, asc, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { inboundMessages, outbox, sheets } from '../../../src/db/schema.ts';
import { createGame, fileDispute } from '../../../src/games/index.ts';
import type { IntakeDeps } from '../../../src/mail/intake/process-inbound.ts';
import { receiveMail, receiveMails, type ArrivedMail } from '../../../src/mail/intake/receive.ts';
import { openTestPglite } from '../../harness/pglite.ts';
import { openTurnTwo } from './world.ts';

const DOMAIN = 'sf.example';
const NOW = new Date('2026-03-02T10:00:00Z');
const silent = pino({ level: 'silent' });

const BODIES = [
  'V: Sith\n',
  'H: Hutt, Knights\nV: Knights\n',
  'B2-C3\n',
  'grazie!\n',
  'status\n',
  'help\n',
  '',
  'N9#\nT7-S7\n',
  'H: Hutt\nN9#\n',
  'V: Sith\nB2-C4\n\nciao,\nanna\n',
  'Code: nonsense\nV: Hutt\n',
];

interface MailPlan {
  /** Who writes (0–3 a player, 4 a stranger) and whose private address it goes to. */
  from: number;
  to: number;
  via: 'private' | 'tag-code' | 'tag-only' | 'none';
  body: number;
  automatic: boolean;
  when: 'early' | 'after-declaration' | 'late';
  /** Resend the mail at this index (same bytes: a copy) instead. */
  copyOf: number | null;
}

const oneIn = (n: number) => fc.integer({ min: 1, max: n }).map((k) => k === 1);
const plan: fc.Arbitrary<MailPlan> = fc
  .record({
    from: fc.constantFrom(0, 1, 2, 2, 3, 4),
    // Mostly a player's own private address; one in eight someone else's (a spoof).
    spoof: oneIn(8),
    other: fc.integer({ min: 0, max: 3 }),
    via: fc.constantFrom('private', 'private', 'private', 'private', 'tag-code', 'tag-only', 'none') as fc.Arbitrary<MailPlan['via']>,
    body: fc.integer({ min: 0, max: BODIES.length - 1 }),
    automatic: oneIn(12),
    when: fc.constantFrom('early', 'early', 'early', 'early', 'after-declaration', 'late') as fc.Arbitrary<MailPlan['when']>,
    copy: oneIn(6),
    copied: fc.nat(),
  })
  .map(({ spoof, other, copy, copied, ...p }) => ({ ...p, to: spoof || p.from === 4 ? other : p.from, copyOf: copy ? copied : null }));

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
    mail: { domain: DOMAIN, ordersLocalPart: 'orders', maxBytes: 1_000_000, replyRateLimitPerHour: 3, ourAddresses: [`orders@${DOMAIN}`] },
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

/** The same game in both arms: four players, in turn 1 or in turn 2 with the Sith in office. */
async function setUp(arm: Arm, run: number, chancellor: boolean) {
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
  const turn = chancellor ? await openTurnTwo(arm.database.db, gameId) : created.turn;
  return { gameId, emails, secrets: created.players.map((p) => p.secret), turn };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

function mailOf(p: MailPlan, i: number, run: number, s: Setup): ArrivedMail {
  const from = p.from === 4 ? `stranger.r${run}@example.org` : s.emails[p.from]!;
  const to = p.via === 'private' ? `orders+${s.secrets[p.to]}@${DOMAIN}` : `orders@${DOMAIN}`;
  const subject = p.via === 'tag-code' || p.via === 'tag-only' ? `[SF ${s.gameId}] orders` : 'orders';
  const code = p.via === 'tag-code' ? `Code: ${s.secrets[p.to]}\n` : '';
  const head = [
    `From: Player <${from}>`,
    `To: ${to}`,
    `Subject: ${subject}`,
    'Date: Mon, 2 Mar 2026 10:00:00 +0000',
    `Message-ID: <m${i}.r${run}@example.org>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    ...(p.automatic ? ['Auto-Submitted: auto-replied'] : []),
  ];
  const receivedAt = {
    early: new Date(s.turn.declarationDeadline.getTime() - 3_600_000),
    'after-declaration': new Date(s.turn.declarationDeadline.getTime() + 3_600_000),
    late: new Date(s.turn.deadline.getTime() + 1_000),
  }[p.when];
  const raw = Buffer.from(`${head.join('\r\n')}\r\n\r\n${(code + BODIES[p.body]!).replace(/\n/g, '\r\n')}`);
  return { raw, source: 'cli', sourceKey: `run${run}:${i}`, receivedAt };
}

/** What a referee could see of the run, with database ids replaced by the mail's place in the sequence. */
async function observe(arm: Arm, s: Setup, ids: number[]) {
  const db = arm.database.db;
  const place = new Map<number, number>();
  ids.forEach((id, i) => place.has(id) || place.set(id, i));
  const at = (id: number | null) => (id === null ? null : (place.get(id) ?? `?${id}`));
  const rows = await db
    .select()
    .from(inboundMessages)
    .where(inArray(inboundMessages.id, [...place.keys()]))
    .orderBy(asc(inboundMessages.id));
  const sheetRows = await db.select().from(sheets).where(eq(sheets.gameId, s.gameId)).orderBy(asc(sheets.id));
  const sheetPlace = new Map(sheetRows.map((r, i) => [r.id, i]));
  const addresses = [...s.emails, `stranger`];
  const mailRows = (
    await db
      .select()
      .from(outbox)
      .where(and(inArray(outbox.kind, ['ack', 'refusal', 'warning', 'status', 'help', 'late', 'unreadable', 'chancellor-sheet'])))
      .orderBy(asc(outbox.id))
  ).filter((m) => addresses.some((a) => m.toAddress.startsWith(a.split('@')[0]!)));
  const detail = (d: unknown) => {
    if (!d || typeof d !== 'object') return d;
    const { sheetId, ...rest } = d as { sheetId?: number };
    return sheetId === undefined ? rest : { ...rest, sheet: sheetPlace.get(sheetId) ?? `?${sheetId}` };
  };
  return {
    inbound: rows.map((r) => ({
      at: at(r.id),
      status: r.status,
      outcome: r.outcome,
      detail: detail(r.outcomeDetail),
      game: r.gameId,
      player: r.playerId === null ? null : 'player',
    })),
    sheets: sheetRows.map((r) => ({
      turn: r.turn,
      faction: r.faction,
      version: r.version,
      text: r.text,
      status: r.status,
      receivedAt: r.receivedAt.toISOString(),
      from: at(r.inboundId),
      parsed: r.parsed,
    })),
    outbox: mailRows.map((m) => ({
      kind: m.kind,
      to: m.toAddress,
      replyTo: m.replyTo,
      subject: m.subject,
      inReplyTo: m.inReplyTo,
      references: m.references,
      body: m.bodyText,
      dedupe: m.dedupeKey.replace(/:(\d+)$/, (_, id: string) => `:${at(Number(id))}`),
    })),
  };
}

describe('intake in batches', () => {
  it('decides every mail exactly as one-at-a-time intake does, however the mail is cut into batches', async () => {
    let run = 0;
    let sheetsSeen = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(plan, { minLength: 1, maxLength: 24 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 24 }),
        fc.boolean(),
        async (plans, cuts, chancellor) => {
          run++;
          const [s1, s2] = await Promise.all([setUp(one, run, chancellor), setUp(batched, run, chancellor)]);
          const mails = plans.map((p, i) => {
            const copy = p.copyOf === null || i === 0 ? null : plans[p.copyOf % i]!;
            return copy ? mailOf(copy, p.copyOf! % i, run, s1) : mailOf(p, i, run, s1);
          });
          // A copy is the same message delivered again: same bytes, its own delivery key.
          const deliveries = mails.map((m, i) => ({ ...m, sourceKey: `run${run}:delivery${i}` }));

          const oneIds: number[] = [];
          for (const m of deliveries) oneIds.push((await receiveMail(one.deps, m)).id);
          const batchIds: number[] = [];
          for (let i = 0, c = 0; i < deliveries.length; c++) {
            const size = cuts[c % cuts.length]!;
            for (const r of await receiveMails(batched.deps, deliveries.slice(i, i + size))) batchIds.push(r.id);
            i += size;
          }
          const a = await observe(one, s1, oneIds);
          const b = await observe(batched, s2, batchIds);
          sheetsSeen += a.sheets.length;

          expect(b).toEqual(a);
        },
      ),
      { numRuns: 40, seed: 20261122 },
    );
    // The property is about something: the runs filed sheets and sent replies.
    expect(sheetsSeen).toBeGreaterThan(40);
  }, 120_000);
});
