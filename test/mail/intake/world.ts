// A small world for intake tests: an in-memory PGlite with one game of four players, and a
// builder of order mails as a mail client would send them. The database is the test file's,
// emptied for each new world (test/harness/pglite.ts).
import pino from 'pino';
import type { Database, Db } from '../../../src/db/client.ts';
import { updateGame } from '../../../src/db/games.ts';
import { findTurn, insertTurn, updateTurn, type Turn } from '../../../src/db/turns.ts';
import { createGame, fileDispute, type CreatedGame } from '../../../src/games/index.ts';
import type { IntakeDeps } from '../../../src/mail/intake/process-inbound.ts';
import { receiveMail } from '../../../src/mail/intake/receive.ts';
import { databasePerFile } from '../../harness/pglite.ts';

export const DOMAIN = 'sf.example';
export const ADDRESSES = ['anna@example.org', 'bruno@example.org', 'carla@example.org', 'dario@example.org'];

export interface World {
  database: Database;
  deps: IntakeDeps;
  created: CreatedGame;
  clock: { now: Date };
}

const fileDatabase = databasePerFile();

/** A new world; the previous one of this file is gone (its database emptied). */
export async function makeWorld(opts: { rateLimit?: number; maxBytes?: number } = {}): Promise<World> {
  const database = await fileDatabase.fresh();
  const clock = { now: new Date('2026-03-02T10:00:00Z') };
  let n = 0;
  const created = await createGame(
    database.db,
    {
      name: 'Andromeda',
      players: ADDRESSES.map((email, i) => ({ email, lang: i % 2 === 0 ? 'it' : 'en' })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    { actor: 'test', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => clock.now, newSecret: () => `k7Q2-x9P${'mnpq'[n++]}` },
  );
  const deps: IntakeDeps = {
    db: database.db,
    log: pino({ level: 'silent' }),
    now: () => clock.now,
    mail: {
      domain: DOMAIN,
      ordersLocalPart: 'orders',
      maxBytes: opts.maxBytes ?? 10_000_000,
      replyRateLimitPerHour: opts.rateLimit ?? 20,
      ourAddresses: [`orders@${DOMAIN}`],
    },
    // As intakeDeps wires it: a DISPUTE is filed as a game action by mail.
    fileDispute: (db, a) =>
      fileDispute(db, { actor: 'mail', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => clock.now }, a),
  };
  return { database, deps, created, clock };
}

let seq = 0;
export interface MailSpec {
  from: string;
  to?: string;
  subject?: string;
  body: string;
  headers?: Record<string, string>;
  messageId?: string;
}

export function orderMail(spec: MailSpec): Buffer {
  const id = spec.messageId ?? `<m${++seq}.${Date.now()}@example.org>`;
  const head = [
    `From: Player <${spec.from}>`,
    `To: ${spec.to ?? `orders@${DOMAIN}`}`,
    `Subject: ${spec.subject ?? 'orders'}`,
    `Date: Mon, 2 Mar 2026 10:00:00 +0000`,
    `Message-ID: ${id}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    ...Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${spec.body.replace(/\r?\n/g, '\r\n')}`, 'utf8');
}

/** Delivers a mail as a source would: stored with the server's reception time, then processed. */
export async function deliver(world: World, raw: Buffer, receivedAt = world.clock.now) {
  return receiveMail(world.deps, { raw, source: 'cli', sourceKey: `test:${++seq}`, receivedAt });
}

export const privateTo = (world: World, i: number) => `orders+${world.created.players[i]!.secret}@${DOMAIN}`;

/** Turn 2 of a game with the Sith in office, their unit on N9: a turn where moves count. */
export async function openTurnTwo(db: Db, gameId = 'andromeda'): Promise<Turn> {
  const t1 = (await findTurn(db, gameId, 1))!;
  const state = { ...t1.state, turn: 2, election: false, chancellor: 'sith', units: [...t1.state.units, { side: 'sith', at: 'N9' }] };
  await updateTurn(db, gameId, 1, { status: 'adjudicated' });
  const deadline = new Date(t1.deadline.getTime() + 7 * 86_400_000);
  const turn = await insertTurn(db, {
    gameId,
    number: 2,
    election: false,
    state,
    deadline,
    declarationDeadline: new Date(deadline.getTime() - 86_400_000),
    status: 'open',
  });
  await updateGame(db, gameId, { currentTurn: 2 });
  return turn;
}
