// Crash safety of intake, end to end: the real service (`sf serve`, a child process) reads a
// Dovecot mailbox into PostgreSQL while 500 order mails arrive, and is killed with SIGKILL at
// random moments (a seeded PRNG; at least 20 kills), each time restarted once it is back up.
// At the end every mail must have become exactly one inbound row, one sheet version and one
// acknowledgement in the outbox: nothing lost, nothing doubled.
//
// SIGKILL_SEED=<n> replays another schedule of kills; the seed is printed with the report.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/dovecot.ts';
import { mailboxWorld } from '../harness/mailbox-world.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { Cleanups } from '../support/cleanups.ts';
import { ServiceProcess } from '../harness/service-process.ts';

const MAILS = 500;
const MIN_KILLS = 20;
/** One APPEND this often: 500 mails in ~2 minutes, long enough for 20+ kill-and-restart cycles. */
const FEED_INTERVAL_MS = 240;
const SEED = Number(process.env.SIGKILL_SEED ?? 0x5f5ca11);
const DOMAIN = 'sf.example';
const TEST_TIMEOUT_MS = 7 * 60_000;

/** Six players: the first six factions of the classic map, by their English names. */
const PLAYERS = [
  { email: 'anna@example.org', faction: 'hutt', name: 'Hutt' },
  { email: 'bruno@example.org', faction: 'aristocrats', name: 'Aristocrats' },
  { email: 'carla@example.org', faction: 'sith', name: 'Sith' },
  { email: 'dario@example.org', faction: 'knights', name: 'Knights' },
  { email: 'elena@example.org', faction: 'merchants', name: 'Merchants' },
  { email: 'fabio@example.org', faction: 'corellians', name: 'Corellians' },
];
const secretOf = (i: number) => `rel1-sk${'abcdefgh'[i]}Q7`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The i-th sheet: turn 1 is an election turn, so a vote alone is a sheet. The vote, the set of
 * factions declared hostile and the letter case vary with i, so every body is different.
 */
function orderBody(i: number): string {
  const vote = PLAYERS[i % 6]!.name;
  const mask = Math.floor(i / 6) % 64;
  const hostile = PLAYERS.filter((_, b) => mask & (1 << b)).map((p) => p.name);
  const lines = [`V: ${vote}`, ...(hostile.length ? [`H: ${hostile.join(', ')}`] : [])];
  const text = lines.join('\n');
  return Math.floor(i / 384) % 2 ? text.toUpperCase() : text;
}

interface SentMail {
  n: number;
  messageId: string;
  player: number;
  body: string;
}

function orderMail(n: number): { raw: string; mail: SentMail } {
  const player = (n * 5 + Math.floor(n / 7)) % PLAYERS.length; // interleaved, not round-robin
  const p = PLAYERS[player]!;
  const messageId = `sigkill-${n}.${SEED.toString(36)}@example.org`;
  const body = orderBody(n);
  const raw = [
    `From: Player ${player + 1} <${p.email}>`,
    `To: orders+${secretOf(player)}@${DOMAIN}`,
    `Subject: orders ${n}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ].join('\r\n');
  return { raw, mail: { n, messageId, player, body } };
}

/** Set differences, shortened, for failure messages; null when the sets are equal. */
function diff<T>(label: string, expected: Iterable<T>, actual: Iterable<T>): string | null {
  const e = new Set(expected);
  const a = new Set(actual);
  const missing = [...e].filter((x) => !a.has(x));
  const extra = [...a].filter((x) => !e.has(x));
  if (!missing.length && !extra.length) return null;
  const show = (xs: T[]) => `${xs.length}${xs.length ? `: ${xs.slice(0, 20).join(', ')}${xs.length > 20 ? ', …' : ''}` : ''}`;
  return `${label}: missing ${show(missing)}; unexpected ${show(extra)}`;
}

function duplicates<T>(xs: T[]): T[] {
  const seen = new Set<T>();
  const dup = new Set<T>();
  for (const x of xs) (seen.has(x) ? dup : seen).add(x);
  return [...dup];
}

const cleanups = new Cleanups();
afterAll(() => cleanups.run(), 60_000);

describe('SIGKILL at random moments while mail arrives', () => {
  it(
    `every one of ${MAILS} mails gives exactly one stored sheet version and one acknowledgement`,
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const t0 = Date.now();
      const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
      const random = seededRandom(SEED);

      // --- the world: a mail server, a database with one game, the service -------------------
      const { dovecot, pool, count, serviceEnv } = await mailboxWorld(cleanups, {
        name: 'Reliability',
        players: PLAYERS.map((p) => ({ email: p.email, lang: 'en' })),
        domain: DOMAIN,
        secretOf,
      });

      const dataDir = await mkdtemp(join(tmpdir(), 'sf-sigkill-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const httpPort = await freePort();
      const service = new ServiceProcess(
        // HTTP_PORT=0 is refused by the configuration
        { ...serviceEnv, DATA_DIR: dataDir, HTTP_HOST: '127.0.0.1', HTTP_PORT: String(httpPort) },
        httpPort,
      );
      cleanups.push(() => service.stop('SIGKILL'));
      service.start();
      const firstUpMs = await service.waitUp();

      // --- the feeder and the killer, side by side ---------------------------------------------
      const sent: SentMail[] = [];
      let feedDone = false;
      const stopAll = new AbortController();
      const feeder = (async () => {
        const start = Date.now();
        for (let n = 0; n < MAILS && !stopAll.signal.aborted; n++) {
          const { raw, mail } = orderMail(n);
          await dovecot.append('orders', 'INBOX', raw);
          sent.push(mail);
          const wait = start + (n + 1) * FEED_INTERVAL_MS - Date.now(); // a steady pace, no drift
          if (wait > 0) await sleep(wait);
        }
        feedDone = true;
      })();

      interface Kill {
        at: string;
        upMs: number;
        aliveMs: number;
        fed: number;
        stored: number;
        done: number;
      }
      const kills: Kill[] = [];
      const killer = (async () => {
        let upMs = firstUpMs;
        while (!stopAll.signal.aborted && !(feedDone && kills.length >= MIN_KILLS)) {
          // A quarter of the kills come right after start-up (backlog, sweep, reconnect), the rest
          // anywhere in the following few seconds (idle, mid-delivery, mid-transaction).
          const aliveMs = Math.round(random() < 0.25 ? random() * 300 : 300 + random() * 3_200);
          await sleep(aliveMs);
          if (!service.alive) throw new Error(`the service died on its own:\n${service.tail()}`);
          await service.stop('SIGKILL');
          const [stored, done] = await Promise.all([
            count('select count(*) as n from inbound_messages'),
            count(`select count(*) as n from inbound_messages where status <> 'pending'`),
          ]);
          kills.push({ at: elapsed(), upMs, aliveMs, fed: sent.length, stored, done });
          service.start();
          upMs = await service.waitUp();
        }
      })();
      try {
        await Promise.all([feeder, killer]);
      } catch (err) {
        stopAll.abort();
        await Promise.allSettled([feeder, killer]);
        throw err;
      }
      const feedEnded = elapsed();

      // --- the last instance drains what is left ------------------------------------------------
      const drainStart = Date.now();
      let state = { stored: 0, pending: 0, acks: 0, inbox: -1 };
      let settledSince = 0;
      let progressAt = Date.now();
      for (;;) {
        const before = JSON.stringify(state);
        const [stored, pending, acks, inbox] = await Promise.all([
          count('select count(*) as n from inbound_messages'),
          count(`select count(*) as n from inbound_messages where status = 'pending'`),
          count(`select count(*) as n from outbox where kind = 'ack'`),
          dovecot.listUids('orders', 'INBOX').then((u) => u.length),
        ]);
        state = { stored, pending, acks, inbox };
        if (JSON.stringify(state) !== before) progressAt = Date.now();
        if (stored >= MAILS && pending === 0 && inbox === 0 && acks >= MAILS) break;
        // Every mail has left the INBOX and nothing is pending, yet some are missing: they are
        // lost, and waiting longer will not bring them back. Say so now rather than in 90 s.
        if (pending === 0 && inbox === 0) {
          settledSince ||= Date.now();
          if (Date.now() - settledSince > 5_000) break;
        } else settledSince = 0;
        // Mail stored but left pending by a failure is retried by the sweep (every 30 s): nothing
        // moving through three sweeps is stuck. While it moves, however slowly (a busy machine),
        // the drain goes on, up to the test's own time-out.
        if (Date.now() - progressAt > 90_000) break;
        if (!service.alive) throw new Error(`the last instance died while draining:\n${service.tail()}`);
        await sleep(250);
      }
      const drainMs = Date.now() - drainStart;
      const termination = await service.stop('SIGTERM');

      // --- what the database and the mailbox say --------------------------------------------------
      const inbound = (
        await pool.query<{ id: string; message_id: string | null; status: string; outcome: string | null; source_key: string }>(
          'select id, message_id, status, outcome, source_key from inbound_messages order by id',
        )
      ).rows;
      const sheets = (
        await pool.query<{ id: string; inbound_id: string | null; faction: string; version: number; text: string }>(
          'select id, inbound_id, faction, version, text from sheets order by faction, version',
        )
      ).rows;
      const acks = (await pool.query<{ dedupe_key: string; status: string }>(`select dedupe_key, status from outbox where kind = 'ack'`))
        .rows;
      const otherReplies = (
        await pool.query<{ kind: string; n: string }>(
          `select kind, count(*) as n from outbox where kind not in ('ack', 'welcome') group by kind`,
        )
      ).rows;
      const inboxLeft = await dovecot.listUids('orders', 'INBOX');
      const processedBox = await dovecot.listUids('orders', 'Processed');
      const emlFiles = (await readdir(join(dataDir, 'mail', 'outbox')).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));

      const logSummary = new Map<string, number>();
      for (const line of service.lines) {
        const text = line.replace(/^#\d+ /, '');
        let what = text.slice(0, 160);
        try {
          const entry = JSON.parse(text) as { msg?: string; err?: { message?: string } };
          what = `${entry.msg ?? '?'}${entry.err?.message ? ` (${entry.err.message.slice(0, 160)})` : ''}`;
        } catch {
          // not a pino line: Node's own warnings, a stack trace
        }
        logSummary.set(what, (logSummary.get(what) ?? 0) + 1);
      }
      const between = (xs: number[]) =>
        xs.length ? `${Math.min(...xs)}–${Math.max(...xs)} ms (median ${xs.sort((a, b) => a - b)[xs.length >> 1]})` : '-';
      const report = [
        `SIGKILL reliability: seed ${SEED}, ${MAILS} mails fed every ${FEED_INTERVAL_MS} ms, feed ended at ${feedEnded}, total ${elapsed()}`,
        `kills: ${kills.length} (${kills.filter((k) => k.fed < MAILS).length} while mail was still arriving), instances started: ${service.starts}`,
        `alive before kill: ${between(kills.map((k) => k.aliveMs))}; start-up to /health: ${between(kills.map((k) => k.upMs))}`,
        `kills with mail stored but not yet processed in the database: ${kills.filter((k) => k.stored > k.done).length}`,
        `drain after the feed: ${drainMs} ms; last state ${JSON.stringify(state)}; SIGTERM → ${String(termination)}`,
        `acks: ${acks.filter((a) => a.status === 'sent').length} sent, ${acks.filter((a) => a.status !== 'sent').length} still queued (claims of a killed sender wait out their lease); .eml files written: ${emlFiles.length}`,
        `other replies: ${JSON.stringify(otherReplies)}`,
        `service log (warn and above): ${logSummary.size ? [...logSummary].map(([m, n]) => `${n}× ${m}`).join('; ') : 'nothing'}`,
        ...kills.map(
          (k, i) =>
            `  kill ${String(i + 1).padStart(2)} at ${k.at.padStart(6)}: alive ${k.aliveMs} ms, fed ${k.fed}, stored ${k.stored}, processed ${k.done}`,
        ),
      ].join('\n');
      console.log(report);

      // --- nothing lost, nothing doubled ------------------------------------------------------------
      const problems: string[] = [];
      const expectIds = sent.map((m) => m.messageId);
      if (sent.length !== MAILS) problems.push(`the feeder appended ${sent.length} mails, not ${MAILS}`);
      if (inbound.length !== MAILS) problems.push(`${inbound.length} inbound rows, expected ${MAILS}`);
      const dupMessageIds = duplicates(inbound.map((r) => r.message_id));
      if (dupMessageIds.length) problems.push(`Message-IDs stored more than once: ${dupMessageIds.slice(0, 20).join(', ')}`);
      const idDiff = diff(
        'inbound Message-IDs',
        expectIds,
        inbound.map((r) => r.message_id),
      );
      if (idDiff) problems.push(idDiff);
      const notSheets = inbound.filter((r) => r.status !== 'processed' || r.outcome !== 'sheet');
      if (notSheets.length) {
        problems.push(
          `${notSheets.length} inbound rows are not processed sheets: ${notSheets
            .slice(0, 10)
            .map((r) => `#${r.id} ${r.message_id} ${r.status}/${r.outcome}`)
            .join(', ')}`,
        );
      }

      const inboundIds = inbound.map((r) => String(r.id));
      if (sheets.length !== MAILS) problems.push(`${sheets.length} sheet versions, expected ${MAILS}`);
      const sheetInbound = sheets.map((s) => String(s.inbound_id));
      const dupSheetInbound = duplicates(sheetInbound);
      if (dupSheetInbound.length)
        problems.push(`inbound mails with more than one sheet version: ${dupSheetInbound.slice(0, 20).join(', ')}`);
      const sheetDiff = diff('inbound ids of sheet versions', inboundIds, sheetInbound);
      if (sheetDiff) problems.push(sheetDiff);
      const byFaction = new Map<string, number[]>();
      for (const s of sheets) byFaction.set(s.faction, [...(byFaction.get(s.faction) ?? []), s.version]);
      for (const [faction, versions] of byFaction) {
        const gap = versions.findIndex((v, i) => v !== i + 1);
        if (gap >= 0)
          problems.push(`${faction}: versions are not 1..${versions.length} (first mismatch at position ${gap + 1}: ${versions[gap]})`);
      }
      // Each sheet belongs to the player who sent it and holds what they wrote.
      const mailById = new Map(sent.map((m) => [m.messageId, m]));
      const messageIdOf = new Map(inbound.map((r) => [String(r.id), r.message_id]));
      const misfiled = sheets.filter((s) => {
        const m = mailById.get(messageIdOf.get(String(s.inbound_id)) ?? '');
        return !m || PLAYERS[m.player]!.faction !== s.faction || s.text.trim() !== m.body.trim().replace(/\r\n/g, '\n');
      });
      if (misfiled.length)
        problems.push(
          `${misfiled.length} sheets do not match their mail: ${misfiled
            .slice(0, 5)
            .map((s) => `sheet ${s.id} (inbound ${s.inbound_id}, ${s.faction}): ${JSON.stringify(s.text)}`)
            .join('; ')}`,
        );

      if (acks.length !== MAILS) problems.push(`${acks.length} acknowledgements, expected ${MAILS}`);
      const dupAckKeys = duplicates(acks.map((a) => a.dedupe_key));
      if (dupAckKeys.length) problems.push(`acknowledgement dedupe keys used twice: ${dupAckKeys.slice(0, 20).join(', ')}`);
      const ackDiff = diff(
        'ack dedupe keys',
        inboundIds.map((id) => `ack:${id}`),
        acks.map((a) => a.dedupe_key),
      );
      if (ackDiff) problems.push(ackDiff);

      if (inboxLeft.length) problems.push(`${inboxLeft.length} messages left in INBOX (UIDs ${inboxLeft.slice(0, 20).join(', ')})`);
      if (processedBox.length !== MAILS) problems.push(`${processedBox.length} messages in Processed, expected ${MAILS}`);
      if (kills.length < MIN_KILLS) problems.push(`only ${kills.length} kills, expected at least ${MIN_KILLS}`);
      if (termination !== 0) problems.push(`the last instance did not stop cleanly on SIGTERM: ${String(termination)}`);

      expect(problems, `${problems.join('\n')}\n\n${report}\n\nlast service output:\n${service.tail()}`).toEqual([]);
    },
  );
});
