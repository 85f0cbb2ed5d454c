// The fixture corpus end to end: every `fixtures/NN-*.eml` is APPENDed to a real Dovecot mailbox
// that the real service (startService: IMAP source, intake, outbox sender) reads into a fresh
// PostgreSQL database holding the corpus's game, and every reply goes out by SMTP to a capturing
// server. Each fixture's `e2e` expectation (see fixtures/README.md) is then checked against what
// was stored, what was applied and what was sent.
//
// The service runs with MAX_MAIL_BYTES = the cap fixture 30 asks for (20 000 bytes): every other
// fixture is far below it (checked), so one run covers the whole corpus.
//
// Time (D-MAIL-16): the time that counts is the server's, the INTERNALDATE, never the Date:
// header nor the moment the service reads the mail. The game is created ten days back, and each
// mail is APPENDed with an INTERNALDATE a minute apart from an hour after that, well before turn
// 1's deadline (which is therefore in the past too: nothing in intake minds). One extra copy of a
// fixture is APPENDed with an INTERNALDATE an hour after the deadline and must be answered as
// late. Everything is in the past because Dovecot does not keep an INTERNALDATE far in the future:
// an APPEND dated a week ahead was stored with the time of the APPEND (seen).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { headerMessageId, type InboundMessage } from '../../src/db/inbound.ts';
import type { OutboxMail } from '../../src/db/outbox.ts';
import { inboundMessages, outbox, sheets } from '../../src/db/schema.ts';
import { createGame, type CreatedGame } from '../../src/games/index.ts';
import { formatInstant } from '../../src/games/time-format.ts';
import { REPLY_KINDS } from '../../src/mail/intake/outgoing.ts';
import { AUTO_GENERATED, AUTO_REPLIED, SF_ORIGIN_VALUE } from '../../src/mail/send/headers.ts';
import { startService, type Service } from '../../src/service.ts';
import type { Problem } from '../../src/adjudicator/types.ts';
import { classicMap } from '../../src/adjudicator/map.ts';
import { reviewSheet } from '../../src/adjudicator/review.ts';
import { parseSheet } from '../../src/adjudicator/sheet.ts';
import { startDovecot, type DovecotServer } from '../harness/dovecot.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../harness/smtp.ts';
import { CORPUS_GAME, CORPUS_PLAYERS, corpusGame, type CorpusPlayer, type Expected } from './corpus-options.ts';
import { eventually } from '../support/eventually.ts';
import { Cleanups } from '../support/cleanups.ts';

const board = classicMap();
const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const DOMAIN = 'sf.example';
const FROM_ADDRESS = `orders@${DOMAIN}`;
const IMAP_USER = 'orders';
const IMAP_PASSWORD = 'corpus-e2e';

const PLAYERS = CORPUS_PLAYERS;
const GAME_TZ = CORPUS_GAME.timeZone;
const playerByEmail = (email: string): CorpusPlayer | undefined => PLAYERS.find((p) => p.email === email);
const zoneOf = (p: CorpusPlayer) => ('timeZone' in p ? p.timeZone : GAME_TZ);

interface Fixture {
  name: string;
  raw: Buffer;
  expected: Expected;
  /** Without angle brackets, as stored. */
  messageId: string;
  subject: string;
  /** The INTERNALDATE it is APPENDed with. */
  internalDate: Date;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** When the game is created (whole minutes: INTERNALDATE has no finer resolution than seconds). */
const GAME_CREATED = new Date(Math.floor((Date.now() - 10 * 24 * HOUR) / MINUTE) * MINUTE);
const BASE_TIME = GAME_CREATED.getTime() + HOUR;

const fixtures: Fixture[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.eml'))
  .sort()
  .map((f, i) => {
    const name = f.slice(0, -4);
    const raw = readFileSync(path.join(DIR, f));
    const messageId = headerMessageId(raw);
    if (!messageId) throw new Error(`${name} has no Message-ID: the end-to-end test finds mail by it`);
    return {
      name,
      raw,
      expected: JSON.parse(readFileSync(path.join(DIR, `${name}.expected.json`), 'utf8')) as Expected,
      messageId,
      subject: '',
      internalDate: new Date(BASE_TIME + i * MINUTE),
    };
  });
const fixture = (prefix: string): Fixture => {
  const f = fixtures.find((x) => x.name.startsWith(`${prefix}-`));
  if (!f) throw new Error(`no fixture ${prefix}`);
  return f;
};

/** The one cap for the whole run: the one fixture 30 sets. */
const CAP = (() => {
  const caps = [...new Set(fixtures.flatMap((f) => (f.expected.maxBytes ? [f.expected.maxBytes] : [])))];
  if (caps.length > 1) throw new Error(`fixtures ask for different caps (${caps.join(', ')}): give them separate runs`);
  return caps[0] ?? 10 * 1024 * 1024;
})();

/** A corpus mail sent again (new Message-ID) and received after turn 1's deadline. */
const LATE_SOURCE = '19';
const LATE_MESSAGE_ID = 'late-copy.corpus-e2e@mail1.libero.it';

// --- the run ---------------------------------------------------------------------------------

interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

let created: CreatedGame;
let db: Database;
let smtp: SmtpCapture;
let dovecot: DovecotServer;
let service: Service | null = null;
let inbound: InboundMessage[] = [];
let sent: OutboxMail[] = [];
let captured: CapturedMail[] = [];
let lateInternalDate: Date;
const logLines: LogLine[] = [];
const cleanups = new Cleanups();

beforeAll(async () => {
  for (const f of fixtures) f.subject = (await simpleParser(f.raw)).subject ?? '';

  const database = await freshDatabase();
  cleanups.push(() => database.drop());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sf-corpus-e2e-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  smtp = await startSmtpCapture();
  cleanups.push(() => smtp.stop());
  dovecot = await startDovecot({ users: { [IMAP_USER]: IMAP_PASSWORD } });
  cleanups.push(() => dovecot.stop());

  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    IMAP_HOST: dovecot.host,
    IMAP_PORT: String(dovecot.port),
    IMAP_USER,
    IMAP_PASSWORD,
    IMAP_SECURE: 'false',
    SMTP_URL: smtp.url,
    MAIL_DOMAIN: DOMAIN,
    MAX_MAIL_BYTES: String(CAP),
    REPLY_RATE_LIMIT_PER_HOUR: '1000', // Mario alone gets a dozen answers in this run
    LOG_LEVEL: 'warn',
  });

  // The game first, on our own connection (which also migrates); the service then finds it.
  db = await openDatabase(config);
  cleanups.push(() => db.close());
  const game = corpusGame();
  created = await createGame(db.db, game.input, {
    actor: 'test',
    mail: { domain: DOMAIN, ordersLocalPart: 'orders' },
    now: () => GAME_CREATED,
    newSecret: game.newSecret,
  });
  lateInternalDate = new Date(created.turn.deadline.getTime() + HOUR);
  if (fixtures.at(-1)!.internalDate >= created.turn.deadline || lateInternalDate.getTime() > Date.now() - HOUR) {
    throw new Error(`the corpus's times do not fit around turn 1's deadline ${created.turn.deadline.toISOString()}`);
  }

  // Warnings and errors from the service, to show (and check) at the end.
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(l) as LogLine);
      cb();
    },
  });
  // Intake alone: the game's deadline is in the past (see above), so no turn job may close it.
  service = await startService(config, pino({ level: 'warn' }, stream), {
    listen: false,
    pollIntervalMs: 100,
    sendIntervalMs: 100,
    sweepIntervalMs: 1_000,
    turnJob: false,
  });
  cleanups.push(async () => service?.stop());

  // Every fixture, in order, as the mail server would have received it.
  for (const f of fixtures) await dovecot.append(IMAP_USER, 'INBOX', f.raw, [], f.internalDate);
  const late = fixture(LATE_SOURCE);
  const lateRaw = Buffer.from(late.raw.toString('latin1').replace(/^Message-ID:.*$/im, `Message-ID: <${LATE_MESSAGE_ID}>`), 'latin1');
  await dovecot.append(IMAP_USER, 'INBOX', lateRaw, [], lateInternalDate);
  const total = fixtures.length + 1;

  // Done when every mail is stored and decided, the mailbox is drained into Processed, and the
  // outbox is empty with every row sent and captured.
  await eventually(
    async () => {
      const rows = await db.db.select({ status: inboundMessages.status }).from(inboundMessages);
      expect(rows.length, 'inbound rows').toBe(total);
      expect(rows.filter((r) => r.status === 'pending').length, 'pending inbound rows').toBe(0);
      expect(await dovecot.listUids(IMAP_USER, 'INBOX'), 'INBOX').toEqual([]);
      expect((await dovecot.listUids(IMAP_USER, 'Processed')).length, 'Processed').toBe(total);
      const out = await db.db.select({ status: outbox.status }).from(outbox);
      expect(out.filter((r) => r.status !== 'sent').length, 'outbox rows not sent').toBe(0);
      expect(smtp.messages.length, 'captured mails').toBe(out.length);
    },
    { timeoutMs: 90_000, why: 'the service did not process the corpus' },
  );
  // Stop before looking: nothing may change under the assertions, and nothing is sent late.
  const running = service;
  service = null;
  await running.stop();

  inbound = await db.db.select().from(inboundMessages);
  sent = await db.db.select().from(outbox);
  captured = smtp.messages.slice();
}, 120_000);

afterAll(async () => {
  const problems = logLines.filter((l) => l.level >= 40);
  if (problems.length) console.warn(`service warnings and errors:\n${problems.map((l) => JSON.stringify(l)).join('\n')}`);
  await cleanups.run();
}, 60_000);

// --- lookups ---------------------------------------------------------------------------------

const inboundOf = (messageId: string): InboundMessage => {
  const rows = inbound.filter((r) => r.messageId === messageId);
  expect(rows, `inbound rows with Message-ID ${messageId}`).toHaveLength(1);
  return rows[0]!;
};
/**
 * Mail enqueued because of one inbound message: `<kind>:<inbound id>`, or, for an answer to mail
 * that is not a sheet (keyed per sender and day, D-MAIL-24), the reply threaded to it.
 */
const outboxFor = (row: InboundMessage): OutboxMail[] =>
  sent.filter(
    (m) =>
      (REPLY_KINDS as readonly string[]).includes(m.kind) &&
      (m.dedupeKey.endsWith(`:${row.id}`) || (row.messageId !== null && m.inReplyTo === `<${row.messageId}>`)),
  );
const capturedFor = (m: OutboxMail): CapturedMail => {
  const got = captured.filter((c) => c.messageId === `<${m.messageId}>`);
  expect(got, `captured mail ${m.messageId}`).toHaveLength(1);
  return got[0]!;
};
const threadedTo = (messageId: string) => captured.filter((c) => c.inReplyTo === `<${messageId}>`);
const sheetsOf = (row: InboundMessage) =>
  db.db
    .select()
    .from(sheets)
    .then((all) => all.filter((s) => s.inboundId === row.id));
const fromAddress = (c: CapturedMail) => c.parsed.from?.value[0]?.address;
const t = (lang: 'it' | 'en', it: string, en: string) => (lang === 'it' ? it : en);

/** The lines under a heading of the acknowledgement, up to the next blank line; null without it. */
function section(text: string, ...headings: string[]): string[] | null {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => headings.includes(l));
  if (start < 0) return null;
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The canonical orders listed under ORDINI COME LI HO CAPITI / ORDERS AS UNDERSTOOD. */
function ordersInReply(text: string): string[] {
  const lines = section(text, 'ORDINI COME LI HO CAPITI', 'ORDERS AS UNDERSTOOD');
  expect(lines, 'the orders section of the acknowledgement').not.toBeNull();
  return lines!.filter((l) => !/^\s+(nessun ordine|no orders)/.test(l)).map((l) => l.trim().split(/\s+/)[0]!);
}

/** What a sheet row keeps of its reading: line numbers and codes, never the text again (one long line copied per problem grew a sheet to tens of MB). */
interface StoredParse {
  orders: { order: string; line: number; applies: boolean }[];
  hostility: string[];
  vote: string | null;
  problems: Pick<Problem, 'line' | 'code' | 'rule'>[];
}

// --- the checks ------------------------------------------------------------------------------

describe('the fixture corpus through Dovecot, the service, PostgreSQL and SMTP', () => {
  it('covers every fixture with an e2e expectation, all mail under the cap except the one meant to exceed it', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
    for (const f of fixtures) {
      expect(f.expected.e2e, `${f.name}: e2e`).toBeDefined();
      expect(f.raw.length > CAP, `${f.name}: over the ${CAP}-byte cap`).toBe(f.expected.oversized ?? false);
    }
  });

  it("the game is the corpus's: id andromeda, the players, factions and secrets of fixtures/README.md", () => {
    expect(created.game.id).toBe('andromeda');
    expect(created.players.map((p) => [p.email, p.faction, p.secret, p.lang])).toEqual(
      PLAYERS.map((p) => [p.email, p.faction, p.secret, p.lang]),
    );
  });

  it('sends each player one welcome, and nothing that is neither a welcome nor accounted for by a mail', () => {
    const welcomes = captured.filter((c) => sent.find((m) => `<${m.messageId}>` === c.messageId)?.kind === 'welcome');
    expect(welcomes.flatMap((c) => c.envelope.to).sort()).toEqual(PLAYERS.map((p) => p.email).sort());
    const answers = inbound.flatMap((r) => outboxFor(r));
    const accounted = new Set([...answers, ...sent.filter((m) => m.kind === 'welcome')].map((m) => `<${m.messageId}>`));
    expect(captured.filter((c) => !accounted.has(c.messageId ?? '')).map((c) => `${c.envelope.to.join(',')}: ${c.subject}`)).toEqual([]);
    expect(answers.length + welcomes.length).toBe(captured.length);
    expect(new Set(captured.map((c) => c.messageId)).size).toBe(captured.length);
  });

  it('the service logged no error', () => {
    expect(logLines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
  });

  for (const f of fixtures) {
    const e = f.expected.e2e;
    it(`${f.name}: ${e.status} ${e.outcome}, reply ${e.reply}${e.to ? ` to ${e.to}` : ''}`, async () => {
      const row = inboundOf(f.messageId);
      // Stored as received (Dovecot hands LF-only mail out with CRLF), at the server's time.
      expect(row.raw.toString('latin1').replace(/\r\n/g, '\n')).toBe(f.raw.toString('latin1').replace(/\r\n/g, '\n'));
      expect(row.receivedAt.toISOString(), 'receivedAt is the INTERNALDATE (D-MAIL-16)').toBe(f.internalDate.toISOString());
      expect({ status: row.status, outcome: row.outcome }).toEqual({ status: e.status, outcome: e.outcome });

      const answers = outboxFor(row);
      // Mail that is not a sheet is answered once a day per sender and text (D-MAIL-24): in this one
      // run, a second such mail from the same sender is stored and decided alike, and not answered.
      const repeated = (row.outcomeDetail as { repeated?: boolean } | null)?.repeated === true;
      const reply = repeated ? 'none' : e.reply;
      if (repeated) {
        const earlier = inbound.filter((r) => r.id < row.id && r.outcome === row.outcome && outboxFor(r).some((m) => m.toAddress === e.to));
        expect(earlier.length, 'an earlier mail of the same kind was answered').toBeGreaterThan(0);
      }
      expect(answers.map((m) => [m.kind, m.toAddress])).toEqual(reply === 'none' ? [] : [[reply, e.to]]);
      // A threaded answer exists exactly when the sender is told something (warnings start a thread of their own).
      expect(threadedTo(f.messageId).length, 'replies threaded to this mail').toBe(
        ['ack', 'unreadable', 'refusal'].includes(reply) ? 1 : 0,
      );
      // Whoever sent it hears nothing unless they are a registered player (MAIL.md, D-MAIL-18).
      const sender = f.expected.from ?? (await simpleParser(f.raw)).from?.value[0]?.address?.toLowerCase();
      if (sender && !playerByEmail(sender)) expect(captured.filter((c) => c.envelope.to.includes(sender))).toEqual([]);

      const stored = await sheetsOf(row);
      if (e.outcome !== 'sheet') expect(stored, 'sheet versions').toEqual([]);
      if (e.reply === 'none') return;

      const mail = capturedFor(answers[0]!);
      const to = playerByEmail(e.to!)!;
      expect(mail.envelope).toEqual({ from: FROM_ADDRESS, to: [to.email] });
      expect(fromAddress(mail)).toBe(FROM_ADDRESS);
      expect(mail.header('X-SF-Origin')).toBe(SF_ORIGIN_VALUE);
      expect(mail.header('Auto-Submitted')).toBe(e.reply === 'warning' ? AUTO_GENERATED : AUTO_REPLIED);
      const text = mail.text ?? '';

      if (e.reply === 'warning') {
        expect(mail.inReplyTo).toBeUndefined();
        expect(mail.subject).toBe(`[SF andromeda] ${t(to.lang, 'Tentativo di usare il tuo codice', 'Someone tried to use your code')}`);
        expect(text).toContain(f.expected.from ?? sender!);
        expect(text).toContain(formatInstant(f.internalDate, zoneOf(to), to.lang));
        return;
      }

      // Threaded under the player's mail.
      expect(mail.inReplyTo).toBe(`<${f.messageId}>`);
      expect(mail.references).toContain(`<${f.messageId}>`);
      expect(mail.subject).toMatch(/^(Re|R): /);
      expect(mail.subject).toContain(f.subject.trim().replace(/^(re|r)\s*:\s*/i, ''));
      expect(mail.subject!.toLowerCase()).toContain('[sf andromeda]');

      if (e.reply === 'unreadable') {
        const why = {
          'too-large': t(to.lang, `la mail è troppo grande (${f.raw.length} bytes)`, `the mail is too large (${f.raw.length} bytes)`),
          broken: t(to.lang, 'non riesco a leggere la mail', 'I cannot read the mail'),
        }[e.outcome as 'too-large' | 'broken'];
        expect(text).toContain(why);
        expect(text).toContain(t(to.lang, 'Il tuo foglio precedente resta valido', 'Your earlier sheet still stands'));
        return;
      }
      if (e.reply === 'refusal') {
        expect(text).toContain(
          {
            'unknown-code': t(to.lang, 'Non riconosco il codice', 'I do not recognise the code'),
            'missing-code': t(to.lang, 'non contiene il tuo codice', 'has no code'),
          }[e.outcome as 'unknown-code' | 'missing-code'],
        );
        return;
      }

      // An acknowledged sheet: one version, holding the orders as the corpus expects them.
      expect(stored, 'sheet versions').toHaveLength(1);
      const sheet = stored[0]!;
      expect(sheet.faction).toBe(to.faction);
      expect(sheet.receivedAt.toISOString()).toBe(f.internalDate.toISOString());
      const parse = sheet.parsed as StoredParse;
      // The stored reading agrees with the sheet's text read again, and with the corpus.
      const parsed = parseSheet(sheet.text, board);
      const review = reviewSheet(board, created.turn.state, to.faction, sheet.text);
      expect(
        parsed.orders.map((o) => o.canonical),
        'parsed orders',
      ).toEqual(f.expected.orders);
      expect(
        parse.orders.map((o) => o.order),
        'stored reviewed orders',
      ).toEqual(f.expected.orders);
      expect(parsed.hostilityDeclared ? parsed.hostility : null).toEqual(f.expected.hostility);
      expect(parsed.vote?.side ?? null).toEqual(f.expected.vote);
      expect([parse.hostility, parse.vote]).toEqual([review.hostility, review.vote]);
      expect(parsed.problems.map((p) => p.code)).toEqual(f.expected.problemCodes.filter((c) => !c.startsWith('mail-')));
      expect(parse.problems.map((p) => [p.line, p.code])).toEqual(review.problems.map((p) => [p.line, p.code]));
      if (f.expected.sheetText !== undefined) expect(sheet.text).toBe(f.expected.sheetText);
      expect(answers[0]!.replyTo).toBe(`orders+${to.secret}@${DOMAIN}`);
      expect(mail.header('Reply-To')).toContain(`orders+${to.secret}@${DOMAIN}`);

      // The acknowledgement, in the player's language: the orders as understood, every problem
      // with its line, the damage, the substitutions, the deadline in the player's zone.
      expect(text).toContain(t(to.lang, `Ordini ricevuti: `, `Orders received: `));
      expect(text).toContain(t(to.lang, `turno 1 di "Andromeda"`, `turn 1 of "Andromeda"`));
      expect(ordersInReply(text)).toEqual(f.expected.orders);
      const problems = section(text, 'PROBLEMI', 'PROBLEMS') ?? [];
      expect(problems.length, 'problems listed').toBe(review.problems.length);
      for (const [i, p] of review.problems.entries()) {
        // Every problem carries its line, the engine's hostility problems too (MAIL.md, D-MAIL-14).
        expect(p.line, 'a problem without a line').toBeGreaterThan(0);
        expect(problems[i], 'each problem with its line').toMatch(new RegExp(`^  ${t(to.lang, 'Riga', 'Line')} ${p.line}: `));
        expect(problems[i]).toContain(p.message[to.lang]);
      }
      expect(text.includes(t(to.lang, 'LA MAIL ERA DANNEGGIATA', 'THE MAIL WAS DAMAGED'))).toBe(f.expected.broken ?? false);
      if (f.expected.normalisedCodes !== undefined) {
        expect(text.includes(t(to.lang, 'CARATTERI SOSTITUITI', 'CHARACTERS READ AS OTHERS'))).toBe(f.expected.normalisedCodes.length > 0);
      }
      expect(text).toContain(`${t(to.lang, 'Scadenza', 'Deadline')}: ${formatInstant(created.turn.deadline, zoneOf(to), to.lang)}`);
    });
  }

  it(`a copy of fixture ${LATE_SOURCE} received after the deadline is answered as late, whatever its Date: says (D-MAIL-16)`, async () => {
    const row = inboundOf(LATE_MESSAGE_ID);
    expect(row.receivedAt.toISOString()).toBe(lateInternalDate.toISOString());
    expect({ status: row.status, outcome: row.outcome }).toEqual({ status: 'rejected', outcome: 'late' });
    expect(await sheetsOf(row)).toEqual([]);
    const [answer, ...more] = outboxFor(row);
    expect(more).toEqual([]);
    const mail = capturedFor(answer!);
    const giulia = playerByEmail('giulia.bianchi@libero.it')!;
    expect(mail.envelope.to).toEqual([giulia.email]);
    expect(mail.inReplyTo).toBe(`<${LATE_MESSAGE_ID}>`);
    expect(mail.text).toContain(
      `Il tuo foglio è arrivato ${formatInstant(lateInternalDate, GAME_TZ, 'it')}, dopo la scadenza (${formatInstant(created.turn.deadline, GAME_TZ, 'it')})`,
    );
  });
});

describe('acknowledgements, read as a player reads them', () => {
  const ackText = (prefix: string) => {
    const row = inboundOf(fixture(prefix).messageId);
    const [answer] = outboxFor(row);
    expect(answer?.kind).toBe('ack');
    return capturedFor(answer!).text ?? '';
  };

  it('Italian (01, Mario): orders, hostility, no vote yet, each chatter line noted by its number, the deadline in Rome', () => {
    const text = ackText('01');
    expect(text).toContain('Ordini ricevuti: Hutt, turno 1 di "Andromeda".');
    expect(text).toContain('È il tuo primo foglio per questo turno.');
    expect(text).toContain('Stato: ricevuto con problemi');
    expect(text).toContain('Ostilità: Sith, Cavalieri');
    expect(text).toContain('Voto: nessun voto');
    // The greeting and the name are text, noted to Mario alone (D-PARSE-16).
    expect(text).toMatch(/^NOTE\n {2}Riga 1: 'Ciao,': testo ignorato, non è un ordine\./m);
    expect(text).toMatch(/^ {2}Riga 7: 'Mario': testo ignorato/m);
    // R-TURN-1: turn 1 is only the election; the orders are listed, not applied, each with its line.
    expect(section(text, 'ORDINI COME LI HO CAPITI')).toEqual([
      '  B2-C3      (non applicato: vedi i problemi)',
      '  B1-C1      (non applicato: vedi i problemi)',
      '  N9#        (non applicato: vedi i problemi)',
    ]);
    expect(text).toMatch(/^ {2}Riga 3: B2-C3: nel primo turno si vota soltanto; nessuna unità si muove\.$/m);
    expect(text).toMatch(/^ {2}Riga 5: N9#: non hai nessuna unità in quella casella/m);
    expect(text).toContain(`Scadenza: ${formatInstant(created.turn.deadline, GAME_TZ, 'it')}`);
    expect(text).toMatch(/\(Europe\/Rome\)/);
  });

  it('English (02, Tom): the same in English, the deadline in his own zone', () => {
    const text = ackText('02');
    expect(text).toContain('Orders received: Merchants, turn 1 of "Andromeda".');
    expect(text).toContain('This is your first sheet for this turn.');
    expect(text).toContain('Hostility: Hutt');
    expect(text).toContain('Vote: no vote');
    expect(text).toMatch(/^ {2}Line 5: 'Cheers, Tom': text ignored, not an order\./m);
    expect(text).toMatch(/^ {2}Line 2: T12-U13: turn 1 is only the election; no unit moves\.$/m);
    expect(text).toContain(`Deadline: ${formatInstant(created.turn.deadline, 'Europe/London', 'en')}`);
    expect(text).not.toMatch(/Ordini|Scadenza/);
  });

  it('a normalised dash is reported with its line (04, Luca, Outlook AutoCorrect)', () => {
    const text = ackText('04');
    expect(text).toContain('CARATTERI SOSTITUITI');
    expect(text).toMatch(/^ {2}Riga 2: ho letto '–' come '-'/m);
    expect(text).toMatch(/^ {2}Riga 5: 'Luca': testo ignorato/m);
  });

  it('a later sheet says which one it replaces, at the time the server received that one (05 after 04)', () => {
    const text = ackText('05');
    expect(text).toContain(
      `Questo foglio sostituisce interamente quello di ${formatInstant(fixture('04').internalDate, GAME_TZ, 'it')} (R-TURN-4).`,
    );
  });

  it('a damaged mail whose sheet could be read is applied and the damage reported (31)', () => {
    const text = ackText('31');
    expect(text).toContain('LA MAIL ERA DANNEGGIATA: letta fin dove possibile');
    expect(text).toContain('Ostilità: Sith');
  });

  it('the sheet that counts for each faction is the last one received', async () => {
    const latest = new Map<string, { version: number; inboundId: number | null }>();
    for (const s of await db.db.select().from(sheets)) {
      if ((latest.get(s.faction)?.version ?? 0) < s.version) latest.set(s.faction, { version: s.version, inboundId: s.inboundId });
    }
    const lastAcked = new Map<string, string>();
    for (const f of fixtures) if (f.expected.e2e.reply === 'ack') lastAcked.set(playerByEmail(f.expected.e2e.to!)!.faction, f.messageId);
    for (const [faction, messageId] of lastAcked) expect(latest.get(faction)?.inboundId, faction).toBe(inboundOf(messageId).id);
  });
});
