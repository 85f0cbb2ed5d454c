// The world of a game played through real mail, shared by the end-to-end games: a fresh
// PostgreSQL database, a real Dovecot mailbox the players' mails are APPENDed to, an SMTP server
// capturing everything the service sends, the real service (startService) on a clock the test
// moves, and the transcript of every mail sent, compared with a golden file (UPDATE_GOLDEN=1
// rewrites it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { expect } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import type { Player } from '../../src/db/players.ts';
import { findTurn } from '../../src/db/turns.ts';
import { createGame, type CreateGameInput, type GamesContext } from '../../src/games/index.ts';
import { startService, type Service } from '../../src/service.ts';
import { freePort, startDovecot, type DovecotServer } from '../harness/dovecot.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { startSmtpCapture, type CapturedMail, type SmtpCapture } from '../harness/smtp.ts';
import type { Cleanups } from '../support/cleanups.ts';
import { eventually } from '../support/eventually.ts';

export const DOMAIN = 'sf.example';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface MailGameOptions {
  /** The temporary directory's prefix and the IMAP password: which test this world is. */
  name: string;
  /** When the game is created; mails are APPENDed at the clock's time (Dovecot keeps past INTERNALDATEs only). */
  start: Date;
  /** The secrets handed to new players, in order. */
  secrets: string[];
  /** Serve HTTP on a free port (the public pages); the service's `url` then answers. */
  listen?: boolean;
  /** More of the service's environment (PUBLIC_URL, OPERATOR_ADDRESS…). */
  env?: Record<string, string>;
  /** describeMail's options for this game's transcript. */
  describe?: DescribeOptions;
}

/** One mail a player writes: to their private address from their registered one, unless said otherwise. */
export interface Written {
  from?: string;
  to?: string;
  subject?: string;
  /** More header lines (In-Reply-To, References…). */
  headers?: string[];
}

export class MailGame {
  clock: number;
  db!: Database;
  smtp!: SmtpCapture;
  dovecot!: DovecotServer;
  service!: Service;
  config!: Config;
  gameId = '';
  players: Player[] = [];
  readonly transcript: string[] = [];
  private seen = 0;
  private readonly imap: { user: string; password: string };

  private constructor(
    private readonly o: MailGameOptions,
    private readonly cleanups: Cleanups,
  ) {
    this.clock = o.start.getTime();
    this.imap = { user: 'orders', password: o.name };
  }

  /** Database, mailbox, SMTP capture and configuration; the service starts later (startService), once the game exists. */
  static async open(o: MailGameOptions, cleanups: Cleanups): Promise<MailGame> {
    const w = new MailGame(o, cleanups);
    const pg = await freshDatabase();
    cleanups.push(() => pg.drop());
    const dataDir = await mkdtemp(path.join(tmpdir(), `sf-${o.name}-`));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    w.smtp = await startSmtpCapture();
    cleanups.push(() => w.smtp.stop());
    w.dovecot = await startDovecot({ users: { [w.imap.user]: w.imap.password } });
    cleanups.push(() => w.dovecot.stop());
    w.config = loadConfig({
      DATABASE_URL: pg.url,
      DATA_DIR: dataDir,
      IMAP_HOST: w.dovecot.host,
      IMAP_PORT: String(w.dovecot.port),
      IMAP_USER: w.imap.user,
      IMAP_PASSWORD: w.imap.password,
      IMAP_SECURE: 'false',
      SMTP_URL: w.smtp.url,
      MAIL_DOMAIN: DOMAIN,
      LOG_LEVEL: 'warn',
      ...(o.listen ? { HTTP_HOST: '127.0.0.1', HTTP_PORT: String(await freePort()) } : {}),
      ...o.env,
    });
    w.db = await openDatabase(w.config);
    cleanups.push(() => w.db.close());
    return w;
  }

  readonly now = (): Date => new Date(this.clock);

  /**
   * The context of a game action taken by the test (creating, joining, amending), on the test's
   * clock; `withService`: it also knows the service's public address and operator, as the CLI does.
   */
  ctx(withService = false): GamesContext {
    return {
      actor: 'cli:test',
      mail: { domain: DOMAIN, ordersLocalPart: 'orders' },
      now: this.now,
      newSecret: () => this.o.secrets.shift()!,
      ...(withService ? { publicUrl: this.config.http.publicUrl } : {}),
      ...(withService && this.config.mail.operatorAddress ? { operatorAddress: this.config.mail.operatorAddress } : {}),
    };
  }

  /** Creates the game (as `sf game create` does) and seats its players. */
  async createGame(input: CreateGameInput, withService = false): Promise<void> {
    const created = await createGame(this.db.db, input, this.ctx(withService));
    this.gameId = created.game.id;
    this.players = created.players;
  }

  async startService(): Promise<void> {
    this.service = await startService(this.config, pino({ level: 'warn' }), {
      listen: this.o.listen ?? false,
      now: this.now,
      pollIntervalMs: 100,
      sendIntervalMs: 100,
      sweepIntervalMs: 1_000,
      turnJobIntervalMs: 100,
    });
    this.cleanups.push(() => this.service.stop());
  }

  player(faction: string): Player {
    return this.players.find((p) => p.faction === faction)!;
  }

  /** A player writes to their private address; the mail server receives it at the test's now. */
  async write(faction: string, body: string, w: Written = {}): Promise<void> {
    const p = this.player(faction);
    const raw = [
      `From: ${w.from ?? p.email}`,
      `To: ${w.to ?? `orders+${p.secret}@${DOMAIN}`}`,
      `Subject: ${w.subject ?? 'orders'}`,
      `Message-ID: <${faction}-${this.clock}@example.org>`,
      ...(w.headers ?? []),
      `Date: ${this.now().toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n');
    await this.dovecot.append(this.imap.user, 'INBOX', raw, [], this.now());
  }

  /** Waits until `count` more mails have been sent, and adds them to the transcript under `step`. */
  async sent(step: string, count: number): Promise<CapturedMail[]> {
    await eventually(() => expect(this.smtp.messages.length - this.seen).toBeGreaterThanOrEqual(count), {
      timeoutMs: 60_000,
      why: `${step}: ${count} mails`,
    });
    // Nothing more comes for this step (the loops run every 100 ms).
    await new Promise((r) => setTimeout(r, 500));
    const mails = this.smtp.messages.slice(this.seen);
    expect(mails.length, `${step}: mails sent (${mails.map((m) => `${m.envelope.to.join(',')}: ${m.subject}`).join(' | ')})`).toBe(count);
    this.seen = this.smtp.messages.length;
    const entries = mails.map((m) => describeMail(m, this.o.describe)).sort();
    this.transcript.push(`######## ${step}\n`, ...entries);
    return mails;
  }

  at(when: Date): void {
    this.clock = when.getTime();
  }

  async deadlineOf(turn: number) {
    return (await findTurn(this.db.db, this.gameId, turn))!;
  }

  /** Every mail sent, as the golden file has it: written with UPDATE_GOLDEN=1, else compared. */
  matchGolden(file: string): void {
    const text = this.transcript.join('');
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    expect(existsSync(file), `${file} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  }
}

/**
 * The HTML part as a reader moving by headings meets it: every heading, then how many tables,
 * preformatted blocks and images (by source) it holds. Entities decoded, so the text reads as shown.
 */
export function htmlOutline(html: string | false | undefined): string[] {
  if (!html) return ['html: no'];
  const text = (s: string) =>
    s
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const headings = [...html.matchAll(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/g)].map(
    (h) => `  ${'  '.repeat(Number(h[1]) - 1)}h${h[1]} ${text(h[2]!)}`,
  );
  const count = (re: RegExp) => (html.match(re) ?? []).length;
  // mailparser inlines a cid image as a data: URL; its type is what tells the image from a stray one.
  const images =
    [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)].map((i) => i[1]!.replace(/^(data:[^;,]*)[;,].*$/s, '$1 (inline)')).join(' ') ||
    'none';
  return ['html:', ...headings, `  tables: ${count(/<table\b/g)}, pre: ${count(/<pre\b/g)}, images: ${images}`];
}

export interface DescribeOptions {
  /** Show the Reply-To, a press token replaced by `p-<token>` (tokens are random). */
  replyTo?: boolean;
}

/** A press token in an address or a text: random, so the golden file names it by its place only. */
export const hideTokens = (s: string) => s.replace(/\+p-[a-z2-7]{26}@/g, '+p-<token>@');

/** A mail as the golden file keeps it: what the player sees, our Message-IDs replaced by numbers. */
export function describeMail(m: CapturedMail, o: DescribeOptions = {}): string {
  const ids = (v: string | string[] | undefined) =>
    [v ?? []]
      .flat()
      .map((id) => (id.includes(`@${DOMAIN}`) && !id.startsWith('<game.') ? '<ours>' : id))
      .join(' ');
  const files = m.parsed.attachments.map((a) => {
    const what =
      a.contentType === 'application/json'
        ? createHash('sha256').update(a.content).digest('hex').slice(0, 16)
        : `${a.content.length > 0 ? 'non-empty' : 'empty'}`;
    return `${a.filename ?? '-'} ${a.contentType}${a.cid ? ` cid:${a.cid}` : ''} ${what}`;
  });
  return [
    `==== to: ${m.envelope.to.join(', ')}`,
    `subject: ${m.subject}`,
    ...(o.replyTo ? [`reply-to: ${hideTokens(m.header('reply-to') ?? '')}`] : []),
    `in-reply-to: ${ids(m.inReplyTo)}`,
    `references: ${ids(m.references)}`,
    ...(files.length ? [`attachments: ${files.join('; ')}`] : []),
    ...htmlOutline(m.parsed.html),
    '',
    hideTokens((m.text ?? '').replace(/\r\n/g, '\n').trimEnd()),
    '',
    '',
  ].join('\n');
}
