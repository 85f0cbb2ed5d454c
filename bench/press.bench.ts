// `npm run bench:press`: press relayed through the real intake (IMAP source in IDLE on Dovecot,
// the intake queue, PostgreSQL), in an 8-player game. Two measurements, each against intake's
// plain acknowledgements in the same run and the same database:
//   1. latency — LATENCY_MAILS mails of each kind APPENDed at a steady 20 a second, in alternating
//      blocks of 200: order sheets (the acknowledgement alone) and press mails (private, group,
//      broadcast, anonymous, replies by token): from the APPEND to the commit of the mail's acknowledgement, and to the commit of
//      its last relay. Target: p99 of the press mails' relays ≤ p99 of the sheets' acknowledgements
//      + 50 ms. (A press mail's relays and its acknowledgement commit in one transaction, so the
//      press acknowledgement's own latency is printed too, and equals the relays'.)
//   2. throughput — BURST_MAILS mails at once (one COPY into the watched mailbox): A, order sheets,
//      acknowledgements a second; B, press mails, mails whose relays are all queued a second.
//      Target: B ≥ 0.5 × A.
// "Queued" is the outbox row committed (its transaction's commit, seen by wrapping the database's
// transaction as bench:ingest does), not sent: an anonymous message's relays are held until its
// random delay (D-PRESS-10). Replies by token go to `orders+p-<token>@…` from the token owner's
// address, with tokens the untimed warm-up's relays issued (press_tokens).
// The hourly cap (press setting perHour) is set to its maximum, 1,000, in the bench's setup
// (games.press_settings); at most 1,000 a player an hour, 10,000 messages from 8 players cannot
// all be accepted within an hour, so B's mails carry INTERNALDATEs (intake's receivedAt) spread
// over the three hours before the run: nobody is over the cap and every message is relayed.
//
//   npm run bench:press        BENCH_LATENCY_MAILS=<n> (2,000 of each kind), BENCH_MAILS=<n> (10,000 of
//                              each kind), BENCH_WARMUP=<n> (500, untimed), BENCH_PROFILE=<dir> for CPU
//                              profiles of the bursts, BENCH_STATEMENTS=1 for the statements most sent
//                              and the longest round trips (wall time, the neighbours' load in it),
//                              BENCH_KEEP_DB=1 to keep the database for EXPLAIN, PG_ADMIN_URL for
//                              another server.
// Prints the figures and PASS/MISS; always exits 0.
//
// Measured 2026-11-26 at full size on the shared 2-core machine under `nice` (Node 24, PostgreSQL
// 127.0.0.1), with the neighbours' work in every figure: load average 4.5-7.8 at each run's end.
// Four runs (1 before the row's reads were kept across its writes, 2-4 with all of the below; 4's
// first two minutes beside this helper's tests):
//   run  load at end     latency p99 − sheets'  A acks/s  B mails/s  B / A        B: Node + PG µs  A: Node + PG µs
//   1    4.49 4.92 5.19  +15.8 ms PASS          1,568     698        0.445 MISS   440 + 353        212 + 135
//   2    5.65 6.76 6.96  +64.7 ms MISS          1,135     866        0.763 PASS   552 + 354        306 + 143
//   3    5.65 7.14 7.19  +56.6 ms MISS          1,873     894        0.477 MISS   414 + 327        228 + 133
//   4    5.85 7.63 7.79  +27.5 ms PASS          1,844     1,000      0.542 PASS   428 + 338        228 + 129
// (B: 20,572 relays for 10,000 press mails, 0.2 statements a mail, from 0.3.) B's own rate went from
// 644 mails/s (B's cost then: Node 787 + PG 860 µs, or 552 + 553 after 0011) to 866-1,000; the ratio
// moves with A, 1,135-1,873 acknowledgements/s in the same conditions: 0.5 is met in two runs of
// three since, 0.6 once: not robustly. A waits on its round trips and the scheduler more than B
// does (A's wall, 530-880 µs a sheet, is 1.5-2× its CPU; B's, 1,000-1,430 µs a mail, 1.3-1.8× its
// 740-910 µs), so the neighbours' load moves A more. The latency figure passed in runs 1 and 4 (+15.8, +27.5 ms; +15
// before) and missed in 2 and 3 (+64.7, +56.6 ms), all at load 5-8; the press mails' own cost at
// 20/s did not grow (fewer statements, no longer reads): the neighbours' noise at p99 of 2,000 as
// far as these runs can tell — a quieter run should say.
// What cut B (BENCH_STATEMENTS=1's round trips a mail, EXPLAIN (ANALYZE, BUFFERS) on a kept
// database; pg_stat_statements is not preloaded on this server), at 5,000 press mails:
//   - an anonymous message's relays were queued, then held by an UPDATE of next_attempt_at (a
//     rewrite of every outbox index of the row): ~270 µs a press mail of round trips; now queued
//     held (OutboxInput.nextAttemptAt, enqueueMany);
//   - what a reply answers joined its whole conversation to the recipients and sorted it, for each
//     reply (~0.45 ms a reply at 3,450 messages, growing with the game): now read from the newest
//     message down, stopping at the first that reached the replier (press_messages_thread on
//     thread_id, id, migration 0012; ~0.02 ms): ~140 → ~32 µs a press mail;
//   - a row written in several steps read the readers' mutes, deliveries and tokens at each step:
//     now once a row, and no token is looked for in a conversation made in the same step (2-3
//     statements fewer a step).
// How: intake hands a batch's press mails and replies by token in a row to relayPressRun
// (src/games/press/relay.ts, IntakeStore.laterMany), which reads the writers' last hour once (a
// message earlier in the batch counts towards the next one's cap), decides every message, then
// writes the row's conversations, messages, tokens and recipients with one statement each and
// queues the relays with the batch's other mail, in the order one mail after the other would. A
// reply meeting a message earlier in its row (most of them in this 8-player game) has the row
// written first, so a 500-mail batch is still written in ~15 steps of ~4 statements.
// Left, by their round trips a press mail at full size (run 3): the outbox insert (113 µs; three
// rows a press mail where a sheet has one, six indexes each), the messages (70), linkRelays' UPDATE
// of the recipients (49), the reply limit's count (47: it reads every outbox row to the players in
// the last hour, relays included — an index on (to_address, kind, created_at) would skip them, but
// bounces.ts reads by address over every kind), the anonymous conversations (40) and their tokens
// (38). Next: message ids drawn ahead (nextval) so a row is written once; the relays' outbox ids
// drawn ahead too, so that recipients are written linked (no UPDATE).
// Since, at small size only (BENCH_MAILS=3000 BENCH_LATENCY_MAILS=200 BENCH_WARMUP=300, not to be
// compared with the full-size rows above): the outbox's index by game, read only by the console's
// mail in trouble (failed, or pending after an error; EXPLAIN: both queries read the new one) and
// the operator's list of a game's mail (a scan now), holds those rows only (outbox_game_trouble,
// migration 0013): a mail queued writes five indexes, not six. Two runs each, load at end:
//   before  8.89 6.80 7.16   A 278 + 110 µs  B 479 + 330 µs  B/A 0.535
//   before  4.77 5.54 6.40   A 299 + 113 µs  B 448 + 313 µs  B/A 0.580
//   after   6.23 6.50 7.01   A 304 + 107 µs  B 458 + 303 µs  B/A 0.629
//   after   4.36 5.39 6.44   A 302 + 110 µs  B 417 + 297 µs  B/A 0.663
// A press mail's PostgreSQL CPU ~20 µs less (~6 %: three outbox rows a mail); its Node CPU moves by
// as much from run to run. A small gain, not the 20-25 % wanted.
// Not done: ids drawn ahead. Drawing the relays' outbox ids when a row is written would reorder
// the outbox: the batch queues its mail at its end in the order one mail after the other would
// (the equivalence test compares the outbox by id), so ids drawn mid-batch put a later mail's relays
// before an earlier mail's acknowledgement. Recipients cannot be written before their outbox rows
// (press_recipients' foreign key to outbox is checked at once, and drizzle's schema cannot declare
// it deferrable), nor at the batch's end (a later row's replies read the earlier rows' recipients:
// messagesForReplies). A way: draw every outbox id of the batch at its end, in order, and write all
// recipients there, a later row reading the earlier rows' recipients from memory. The message ids
// drawn ahead (a row written once) do not depend on this and are still to do.
// Then at full size on a quiet machine (load 0.05-0.7 at its end, nothing else running), all of the
// above in: latency p99 − sheets' +16.9 ms, PASS; at once, A 2,664 acknowledgements/s (Node 199 +
// PostgreSQL 131 µs a sheet), B 1,212 press mails/s (Node 453 + PostgreSQL 351 µs): B / A = 0.455,
// MISS. Quiet, the wall ratio comes close to the ratio of the CPU (330 / 804 µs = 0.41).
// 2026-11-27, another machine of the same kind, slower (the same code's sheets cost ~2.5× the CPU):
// the bench's replies by token now carry the In-Reply-To and References a mail client writes
// (before, none: a reply read no named relay), which showed that a reply naming an old relay
// walked its whole conversation (and, on a burst's stale statistics, every relayed message) to find
// it: B fell to 0.26-0.36. Then, at full size, quiet (load under 2 at each run's end, nothing else):
//   - what a reply's References name is read from the named mail (outbox_message_id; a relay's
//     dedupe key names its message, a digest is its recipients' outbox_id), behind planner fences;
//   - no linkRelays UPDATE: a recipient's relay is the outbox row with its dedupe key;
//   - a writer's last hour passed whole (decidePress counts within the hour), the row's touched
//     conversations as sets, a touched reply's answer from the row's writes in memory;
//   - the reply limit's index by (address, kind, time): its count skips the relays (0015).
//   run  latency p99 − sheets'  A acks/s  B mails/s  B / A       A: Node + PG µs  B: Node + PG µs
//   1    +36.1 ms PASS          1,265     662        0.523 PASS  615 + 278        904 + 676   (before 0015)
//   2    +25.5 ms PASS          1,269     736        0.580 PASS  584 + 284        811 + 615
//   3    +26.4 ms PASS          1,353     715        0.529 PASS  564 + 256        826 + 611
//   4    +36.2 ms PASS          1,171     762        0.651 PASS  685 + 304        815 + 583
//   5    +36.5 ms PASS          1,058     748        0.707 PASS  748 + 324        814 + 599
// Run 4 with a reply that names what it answers not having its row written first (the named
// message wins whatever the row holds): a batch of such replies is written once, 0.1 statements a
// press mail instead of 0.2 (runs 4, 5). A's rate moves by ±12 % from run to run, B's ratio with
// it; B held at 748-762 mails/s: against A's best here (1,353/s), B / A would be 0.55.
// The same day, same machine, the session's first commit (7e55900, its replies citing nothing):
// latency +30.6 ms, A 1,291/s (587 + 282 µs), B 652/s (923 + 661 µs), B / A 0.505. A press mail
// still costs ~1.6× a sheet's CPU; what is left: a row is still written in several steps when
// replies that name nothing meet its messages (message ids drawn ahead would write it once), three
// outbox rows a press mail, drizzle's cost a statement.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { openDatabase, type Database } from '../src/db/client.ts';
import { mailboxCursorStore } from '../src/db/cursors.ts';
import { bracketed } from '../src/db/outbox.ts';
import { games, outbox, players, pressTokens } from '../src/db/schema.ts';
import { createGame, fileDispute } from '../src/games/index.ts';
import type { IntakeDeps } from '../src/mail/intake/process-inbound.ts';
import { BodyReader } from '../src/mail/intake/body-reader.ts';
import { IntakeQueue } from '../src/mail/intake/intake-queue.ts';
import { runImapSource } from '../src/mail/sources/imap-source.ts';
import { SourceProgress } from '../src/mail/sources/progress.ts';
import type { ImapSettings } from '../src/mail/sources/types.ts';
import { withImap } from './imap-client.ts';
import { startProfile } from './profile.ts';
import { startDovecot } from '../test/harness/dovecot.ts';
import { freshDatabase } from '../test/harness/postgres.ts';

const LATENCY_MAILS = Number(process.env.BENCH_LATENCY_MAILS ?? 2_000);
const BURST_MAILS = Number(process.env.BENCH_MAILS ?? 10_000);
const WARMUP_MAILS = Number(process.env.BENCH_WARMUP ?? 500);
const PER_SECOND = 20;
/** Mails of one kind in a row in the latency run (10 s at 20 a second). */
const LATENCY_BLOCK = 200;
const LATENCY_TARGET_MS = 50; // p99 of the relays over p99 of the sheets' acknowledgements
const RATE_TARGET = 0.5; // press relays complete / acknowledgements alone
const WAIT_MS = 10 * 60_000;
const DOMAIN = 'sf.example';
const USER = 'orders';
const WATCHED = 'INBOX';

const FACTIONS = ['Hutt', 'Aristocrats', 'Sith', 'Knights', 'Merchants', 'Corellians', 'Federals', 'Founders'];
const PLAYERS = FACTIONS.map((_, i) => `player${i + 1}@example.org`);
const secretOf = (i: number) => `press-${'abcdefgh'[i]}7Q`;
const silent = pino({ level: 'silent' });
const bodyReader = new BodyReader();

/**
 * A reply address a player may write to: the token the warm-up's relays gave them, and the
 * threading headers a mail client writes in a reply to the relay that carried it.
 */
type Token = { player: number; token: string; threading: string[] };

function mail(a: { player: number; to: string; id: string; subject: string; body: string[]; n: number; headers?: string[] }): Buffer {
  return Buffer.from(
    [
      `From: Player ${a.player + 1} <${PLAYERS[a.player]}>`,
      `To: ${a.to}`,
      `Subject: ${a.subject}`,
      `Date: ${new Date(Date.UTC(2026, 2, 2, 9, 0, a.n % 60)).toUTCString()}`,
      `Message-ID: <${a.id}@example.org>`,
      ...(a.headers ?? []),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      ...a.body,
      '',
    ].join('\r\n'),
  );
}

/** An order sheet (turn 1 elects: a vote and some hostility): intake's plain acknowledgement. */
function sheetMail(n: number, id: string): Buffer {
  const player = n % PLAYERS.length;
  const hostile = FACTIONS.filter((_, b) => b !== player && Math.floor(n / FACTIONS.length) & (1 << b));
  const body = [
    `V: ${FACTIONS[(n * 7) % FACTIONS.length]}`,
    ...(hostile.length ? [`H: ${hostile.join(', ')}`] : []),
    '',
    'Good luck to all,',
  ];
  return mail({ player, to: `orders+${secretOf(player)}@${DOMAIN}`, id, subject: `Orders (${n})`, body, n });
}

const other = (player: number, k: number) => FACTIONS[(player + k) % FACTIONS.length]!;

/**
 * The n-th press mail of the mix: 3 in 10 private, 2 group (three factions), 1 broadcast,
 * 1 anonymous private, 3 replies by token (when tokens are known).
 */
function pressMail(n: number, id: string, tokens: readonly Token[]): Buffer {
  const kind = n % 10;
  const text = [`Message ${n}: shall we keep the peace around the Core until turn 6?`, 'Whoever moves first breaks it.'];
  if (kind >= 7 && tokens.length) {
    const t = tokens[(n * 7919) % tokens.length]!;
    return mail({
      player: t.player,
      to: `orders+${t.token}@${DOMAIN}`,
      id,
      subject: 'Re: press',
      body: [`Reply ${n}: agreed.`],
      n,
      headers: t.threading,
    });
  }
  const player = n % PLAYERS.length;
  const head =
    kind <= 2
      ? `PRESS TO ${other(player, 1 + (n % 7))}`
      : kind <= 4
        ? `PRESS TO ${other(player, 1)}, ${other(player, 3)}, ${other(player, 5)}`
        : kind === 5
          ? 'BROADCAST'
          : `PRESS ANONYMOUS TO ${other(player, 2)}`;
  return mail({ player, to: `orders+${secretOf(player)}@${DOMAIN}`, id, subject: `Press (${n})`, body: [head, ...text, 'ENDPRESS'], n });
}

/**
 * Intake as the service runs it, on one watched mailbox for the whole run. Every transaction's
 * commit is noted with the outbox's highest id then: a row was committed at the first note whose
 * id reaches it (intake writes one transaction at a time).
 */
class Intake {
  readonly commits: Array<{ maxId: number; at: number }> = [];
  private accepted = 0;
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private readonly controller = new AbortController();
  private readonly queue: IntakeQueue;
  private readonly progress = new SourceProgress();
  private source: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly settings: ImapSettings,
  ) {
    const commits = this.commits;
    const db = new Proxy(database.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop !== 'transaction' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<Database['db']['transaction']>) => {
          const result = await target.transaction(...args);
          const at = performance.now();
          const [row] = await target.select({ id: sql<number>`coalesce(max(${outbox.id}), 0)::int` }).from(outbox);
          commits.push({ maxId: row!.id, at });
          return result;
        };
      },
    });
    const deps: IntakeDeps = {
      db,
      log: silent,
      now: () => new Date(),
      mail: {
        domain: DOMAIN,
        ordersLocalPart: 'orders',
        maxBytes: 10 * 1024 * 1024,
        replyRateLimitPerHour: 1_000_000,
        ourAddresses: [`orders@${DOMAIN}`],
      },
      // Its mail has no dispute blocks; the deps need the disputes module all the same.
      fileDispute: (tx, a) => fileDispute(tx, { actor: 'mail', mail: { domain: DOMAIN, ordersLocalPart: 'orders' } }, a),
      bodyReader,
    };
    this.queue = new IntakeQueue(deps);
  }

  async start(): Promise<void> {
    this.source = runImapSource({
      connect: this.settings,
      mailbox: WATCHED,
      processedMailbox: 'Done',
      cursorStore: mailboxCursorStore(this.database.db),
      log: silent,
      signal: this.controller.signal,
      pollIntervalMs: 100,
      progress: this.progress,
      onBatch: async (ms) => {
        await this.queue.accept(ms.map((m) => ({ raw: m.raw, source: 'imap', sourceKey: m.sourceKey, receivedAt: m.receivedAt })));
        this.accepted += ms.length;
        this.waiters = this.waiters.filter((w) => (this.accepted >= w.count ? (w.resolve(), false) : true));
      },
    });
    while (this.progress.caughtUpAsOf() === null) await new Promise((r) => setTimeout(r, 20));
  }

  /** Call before the mails arrive: resolves once `more` further mails are taken in and processed. */
  expect(more: number): Promise<void> {
    const count = this.accepted + more;
    const all = new Promise<void>((resolve) => (this.accepted >= count ? resolve() : this.waiters.push({ count, resolve })));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`intake took ${this.accepted - (count - more)} of ${more} mails in ${WAIT_MS / 60_000} minutes`)),
        WAIT_MS,
      );
    });
    return Promise.race([all.then(() => this.queue.idle()), timeout]).finally(() => clearTimeout(timer));
  }

  /** When the outbox row `id` was committed (performance.now()), or undefined if not seen. */
  committedAt(id: number): number | undefined {
    let lo = 0;
    let hi = this.commits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.commits[mid]!.maxId >= id) hi = mid;
      else lo = mid + 1;
    }
    return this.commits[lo]?.at;
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.source;
    await this.queue.idle();
  }
}

/** When each mail of a phase was acknowledged and had its last relay queued, by Message-ID. */
async function outcomesOf(
  database: Database,
  intake: Intake,
  prefix: string,
): Promise<{ ack: Map<string, number>; relays: Map<string, { at: number; n: number }>; outcomes: string }> {
  const like = `${prefix}-%`;
  const acks = (await database.db.execute(
    sql`select id, in_reply_to as "inReplyTo" from outbox where in_reply_to like ${`<${like}`}`,
  )) as unknown as { rows: Array<{ id: number; inReplyTo: string }> };
  const ack = new Map<string, number>();
  for (const a of acks.rows) ack.set(a.inReplyTo.replace(/^<|@example\.org>?$/g, ''), intake.committedAt(Number(a.id)) ?? Infinity);
  const rel = (await database.db.execute(sql`
    select i.message_id as mid, max(o.id)::bigint as last, count(*)::int as n
    from press_recipients r join press_messages m on m.id = r.message_id join inbound_messages i on i.id = m.inbound_id
    left join outbox o on o.dedupe_key = 'press:' || r.message_id || ':' || r.recipient_kind || ':' || r.recipient_id
    where i.message_id like ${like} group by i.message_id`)) as unknown as {
    rows: Array<{ mid: string; last: number | null; n: number }>;
  };
  const relays = new Map<string, { at: number; n: number }>();
  for (const r of rel.rows) {
    const at = r.last === null ? Infinity : (intake.committedAt(Number(r.last)) ?? Infinity);
    relays.set(r.mid.replace(/^<|@example\.org>?$/g, ''), { at, n: r.n });
  }
  const rows = (await database.db.execute(sql`
    select i.outcome, coalesce(m.status, '-') as press, count(*)::int as n from inbound_messages i
    left join press_messages m on m.inbound_id = i.id where i.message_id like ${like}
    group by 1, 2 order by 1, 2`)) as unknown as { rows: Array<{ outcome: string; press: string; n: number }> };
  return { ack, relays, outcomes: rows.rows.map((r) => `${r.n} ${r.outcome}${r.press === '-' ? '' : `/${r.press}`}`).join(', ') };
}

interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
function latencyOf(ms: number[]): Latency {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1]! };
}

/** APPENDs mails `first`… (`count` of them) at 20 a second, each on the clock; returns when each APPEND was issued, by id. */
async function appendSteadily(
  settings: ImapSettings,
  first: number,
  count: number,
  make: (n: number, id: string) => Buffer,
  prefix: string,
) {
  const sent = new Map<string, number>();
  await withImap(settings, async (c) => {
    const start = performance.now() + 100;
    for (let n = 0; n < count; n++) {
      const wait = start + (n * 1_000) / PER_SECOND - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = `${prefix}-${first + n}`;
      const raw = make(first + n, id);
      sent.set(id, performance.now());
      if (!(await c.append(WATCHED, raw))) throw new Error(`APPEND ${id} failed`);
    }
  });
  return sent;
}

/** Untimed: `count` mails into a mailbox of their own, to be copied into the watched one at once. */
async function stage(
  settings: ImapSettings,
  box: string,
  count: number,
  make: (n: number, id: string) => Buffer,
  prefix: string,
  date?: (n: number) => Date,
) {
  await withImap(settings, async (c) => {
    await c.mailboxCreate(box);
    for (let n = 0; n < count; n++)
      if (!(await c.append(box, make(n, `${prefix}-${n}`), [], date?.(n)))) throw new Error(`APPEND ${prefix}-${n} failed`);
  });
}

/** The staged mails COPYed into the watched mailbox in one command; returns when it was issued. */
async function burst(settings: ImapSettings, intake: Intake, box: string, count: number): Promise<number> {
  const taken = intake.expect(count);
  const start = await withImap(settings, async (c) => {
    await c.mailboxOpen(box, { readOnly: true });
    const at = performance.now();
    if (!(await c.messageCopy('1:*', WATCHED))) throw new Error(`COPY ${box} failed`);
    return at;
  });
  await taken;
  return start;
}

/**
 * Statements sent to PostgreSQL, by their first words (pg's Client.query wrapped): each is a round
 * trip, and intake's transaction sends them one after another.
 */
const statements = new Map<string, { n: number; ms: number }>();
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text?: string };
  const text = (typeof q === 'string' ? q : (q?.text ?? '')).replace(/\s+/g, ' ').slice(0, 70);
  const seen = statements.get(text) ?? { n: 0, ms: 0 };
  statements.set(text, seen);
  seen.n++;
  const result = query.apply(this, args);
  // Its round trip, to the result parsed (intake's transaction waits for each in turn).
  if (result instanceof Promise) {
    const at = performance.now();
    void result.then(
      () => (seen.ms += performance.now() - at),
      () => undefined,
    );
  }
  return result;
} as typeof pg.Client.prototype.query;

/**
 * CPU seconds of the PostgreSQL server processes serving the bench's database, by pid, when the
 * server is on this machine (Linux /proc; none elsewhere): others' databases on the server are not counted.
 */
async function postgresCpu(database: Database): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const { rows } = (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as {
    rows: Array<{ pid: number }>;
  };
  for (const pid of rows.map((r) => String(r.pid))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU seconds spent between two snapshots by the processes still there at the second (others' servers included). */
async function spentSince(database: Database, before: Map<string, number>): Promise<number> {
  let total = 0;
  for (const [pid, s] of await postgresCpu(database)) total += s - (before.get(pid) ?? 0);
  return total;
}

/** This process's and PostgreSQL's CPU, and the statements sent, over the runs measured with it. */
class Costs {
  private node = 0;
  private server = 0;
  private mails = 0;
  private readonly sent = new Map<string, { n: number; ms: number }>();

  constructor(private readonly database: Database) {}

  async measure<T>(mails: number, fn: () => Promise<T>): Promise<T> {
    statements.clear();
    const node0 = process.cpuUsage();
    const pg0 = await postgresCpu(this.database);
    const result = await fn();
    const node = process.cpuUsage(node0);
    this.node += node.user + node.system;
    this.server += (await spentSince(this.database, pg0)) * 1e6;
    this.mails += mails;
    for (const [text, { n, ms }] of statements) {
      const seen = this.sent.get(text) ?? { n: 0, ms: 0 };
      this.sent.set(text, { n: seen.n + n, ms: seen.ms + ms });
    }
    return result;
  }

  toString(): string {
    const per = (x: number) => x / this.mails;
    const sent = [...this.sent].sort((a, b) => b[1].n - a[1].n);
    const total = sent.reduce((a, [, s]) => a + s.n, 0);
    const slowest = [...this.sent].sort((a, b) => b[1].ms - a[1].ms);
    const top = process.env.BENCH_STATEMENTS
      ? `, the most sent:${sent
          .slice(0, 12)
          .map(([text, s]) => `\n    ${per(s.n).toFixed(2)}  ${text}`)
          .join('')}\n  the longest round trips, µs a mail:${slowest
          .slice(0, 12)
          .map(
            ([text, s]) =>
              `\n    ${Math.round(per(s.ms * 1000))
                .toString()
                .padStart(5)}  ${text}`,
          )
          .join('')}`
      : '';
    return `CPU µs/mail: Node ${Math.round(per(this.node))}, PostgreSQL ${Math.round(per(this.server))}; ${per(total).toFixed(1)} statements/mail${top}`;
  }
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—');

async function main(): Promise<void> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const lines: string[] = [];
  try {
    const dovecot = await startDovecot();
    cleanups.push(() => dovecot.stop());
    await dovecot.addUser(USER, 'bench-secret');
    const settings = dovecot.settings(USER);
    const fresh = await freshDatabase();
    // BENCH_KEEP_DB=1: the database is left for EXPLAIN (its name is printed; drop it after).
    if (process.env.BENCH_KEEP_DB) console.log(`database kept: ${fresh.url}`);
    else cleanups.push(() => fresh.drop());
    const database = await openDatabase({ database: { kind: 'postgres', url: fresh.url } });
    cleanups.push(() => database.close());

    let s = 0;
    const { game } = await createGame(
      database.db,
      {
        name: 'Press bench',
        players: PLAYERS.map((email, i) => ({ email, lang: i % 2 ? 'it' : 'en' })),
        timeZone: 'Europe/Rome',
        weeklyDeadline: 'sun 20:00',
      },
      { actor: 'bench', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, newSecret: () => secretOf(s++) },
    );
    await database.db
      .update(games)
      .set({ pressSettings: { perHour: 1_000 } })
      .where(eq(games.id, game.id));

    const intake = new Intake(database, settings);
    await intake.start();

    // Untimed warm-up: code compiled hot, and the conversations (and tokens) replies are written to.
    const t0 = performance.now();
    if (WARMUP_MAILS > 0) {
      await stage(settings, 'Warmup', WARMUP_MAILS, (n, id) => (n % 2 ? sheetMail(n, id) : pressMail(n, id, [])), 'warm');
      await burst(settings, intake, 'Warmup', WARMUP_MAILS);
    }
    const seatOf = new Map(
      (await database.db.select({ id: players.id, email: players.email }).from(players)).map((p) => [p.id, PLAYERS.indexOf(p.email)]),
    );
    // A reply cites the relay that carried its token, as mail clients write it (In-Reply-To, References).
    const relayOf = new Map(
      (await database.db.select({ replyTo: outbox.replyTo, messageId: outbox.messageId }).from(outbox).where(eq(outbox.kind, 'press'))).map(
        (m) => [m.replyTo, m.messageId],
      ),
    );
    const tokens: Token[] = (
      await database.db
        .select({ token: pressTokens.token, owner: pressTokens.ownerId, root: pressTokens.rootMessageId })
        .from(pressTokens)
        .where(eq(pressTokens.ownerKind, 'player'))
    ).map((t) => {
      const relay = relayOf.get(`orders+${t.token}@${DOMAIN}`);
      const threading = relay ? [`In-Reply-To: ${bracketed(relay)}`, `References: ${bracketed(t.root)} ${bracketed(relay)}`] : [];
      return { player: seatOf.get(t.owner)!, token: t.token, threading };
    });
    console.log(
      `warm-up: ${WARMUP_MAILS} mails in ${((performance.now() - t0) / 1000).toFixed(1)} s (untimed), ${tokens.length} reply tokens`,
    );

    // 1. Latency at 20 mails a second: sheets (acknowledgements alone), then press.
    let sheetsLat: Latency | null = null;
    let pressAck: Latency | null = null;
    let pressRelays: Latency | null = null;
    if (LATENCY_MAILS > 0) {
      // In alternating blocks, each taken in before the next starts: both kinds see the same
      // neighbours' load (on this shared machine it moves within a minute), never each other.
      const sheetCosts = new Costs(database);
      const pressCosts = new Costs(database);
      const sheetSent = new Map<string, number>();
      const pressSent = new Map<string, number>();
      const block = async (
        costs: Costs,
        sent: Map<string, number>,
        first: number,
        count: number,
        make: (n: number, id: string) => Buffer,
        prefix: string,
      ) => {
        for (const [id, at] of await costs.measure(count, async () => {
          const taken = intake.expect(count);
          const out = await appendSteadily(settings, first, count, make, prefix);
          await taken;
          return out;
        }))
          sent.set(id, at);
      };
      for (let first = 0; first < LATENCY_MAILS; first += LATENCY_BLOCK) {
        const count = Math.min(LATENCY_BLOCK, LATENCY_MAILS - first);
        await block(sheetCosts, sheetSent, first, count, sheetMail, 'lat-sheet');
        await block(pressCosts, pressSent, first, count, (n, id) => pressMail(n, id, tokens), 'lat-press');
      }
      const so = await outcomesOf(database, intake, 'lat-sheet');
      sheetsLat = latencyOf([...sheetSent].map(([id, at]) => (so.ack.get(id) ?? Infinity) - at));
      lines.push(`latency, sheets: ${so.outcomes}; ${sheetCosts}`);
      const po = await outcomesOf(database, intake, 'lat-press');
      pressAck = latencyOf([...pressSent].map(([id, at]) => (po.ack.get(id) ?? Infinity) - at));
      pressRelays = latencyOf([...pressSent].map(([id, at]) => (po.relays.get(id)?.at ?? Infinity) - at));
      const relayed = [...po.relays.values()].reduce((a, r) => a + r.n, 0);
      lines.push(`latency, press: ${po.outcomes}; ${relayed} relays (${(relayed / LATENCY_MAILS).toFixed(2)} a mail); ${pressCosts}`);
    }

    // 2. At once: A sheets, B press (INTERNALDATEs spread over the 3 hours before: the hourly cap).
    let rateA = 0;
    let rateB = 0;
    if (BURST_MAILS > 0) {
      await stage(settings, 'BurstSheets', BURST_MAILS, sheetMail, 'burst-sheet');
      const from = Date.now() - 3 * 3_600_000;
      await stage(
        settings,
        'BurstPress',
        BURST_MAILS,
        (n, id) => pressMail(n, id, tokens),
        'burst-press',
        (n) => new Date(from + Math.floor((n * 3 * 3_600_000) / BURST_MAILS)),
      );
      const profA = await startProfile();
      const cpuA = new Costs(database);
      const startA = await cpuA.measure(BURST_MAILS, () => burst(settings, intake, 'BurstSheets', BURST_MAILS));
      await profA?.stop('burst-sheets');
      const a = await outcomesOf(database, intake, 'burst-sheet');
      const endA = Math.max(...a.ack.values());
      rateA = (a.ack.size / (endA - startA)) * 1_000;
      lines.push(`at once, A sheets: ${a.ack.size} acknowledgements in ${((endA - startA) / 1000).toFixed(2)} s; ${cpuA}; ${a.outcomes}`);
      const profB = await startProfile();
      const cpuB = new Costs(database);
      const startB = await cpuB.measure(BURST_MAILS, () => burst(settings, intake, 'BurstPress', BURST_MAILS));
      await profB?.stop('burst-press');
      const b = await outcomesOf(database, intake, 'burst-press');
      const endB = Math.max(...[...b.relays.values()].map((r) => r.at));
      const complete = [...b.relays.values()].filter((r) => Number.isFinite(r.at)).length;
      rateB = (complete / (endB - startB)) * 1_000;
      const relayed = [...b.relays.values()].reduce((x, r) => x + r.n, 0);
      lines.push(
        `at once, B press: ${complete} mails with every relay queued (${relayed} relays) in ${((endB - startB) / 1000).toFixed(2)} s; ${cpuB}; ${b.outcomes}`,
      );
    }
    await intake.stop();

    console.log(
      `\npress benchmark: 8 players, PostgreSQL and Dovecot on 127.0.0.1, Node ${process.version}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const l of lines) console.log(l);
    if (sheetsLat && pressAck && pressRelays) {
      console.log(`\nlatency: ${LATENCY_MAILS} mails of each at ${PER_SECOND}/s, IDLE; APPEND → committed`);
      const row = (label: string, l: Latency) =>
        console.log(`  ${label.padEnd(34)} p50 ${ms(l.p50)}  p95 ${ms(l.p95)}  p99 ${ms(l.p99)}  max ${ms(l.max)}`);
      row('sheets → acknowledgement', sheetsLat);
      row('press → acknowledgement', pressAck);
      row('press → last relay', pressRelays);
      const over = pressRelays.p99 - sheetsLat.p99;
      console.log(
        `  p99 relays − p99 acknowledgements alone: ${ms(over)} (− press acknowledgements: ${ms(pressRelays.p99 - pressAck.p99)}); target ≤ ${LATENCY_TARGET_MS} ms: ${over <= LATENCY_TARGET_MS ? 'PASS' : 'MISS'}`,
      );
    }
    if (BURST_MAILS > 0) {
      const ratio = rateB / rateA;
      console.log(`\nat once: ${BURST_MAILS} mails of each`);
      console.log(`  A acknowledgements alone: ${rateA.toFixed(1)} mails/s`);
      console.log(`  B press, relays complete: ${rateB.toFixed(1)} mails/s`);
      console.log(`  B / A = ${ratio.toFixed(3)}; target ≥ ${RATE_TARGET}: ${ratio >= RATE_TARGET ? 'PASS' : 'MISS'}`);
    }
  } catch (err) {
    console.log(`benchmark failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((err) => console.log(`cleanup failed: ${(err as Error).message}`));
    await bodyReader.close();
  }
}

// A benchmark reports and exits 0 (a pg client still closing when its database is dropped WITH
// (FORCE) raises 57P01 with no listener left: ignored, as bench:ingest does).
process.on('uncaughtException', (err) => console.log(`ignored late error: ${err.message}`));
await main().catch((err) => console.log(`benchmark failed: ${(err as Error).stack ?? String(err)}`));
process.exit(0);
