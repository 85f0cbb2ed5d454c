// Inbound mail, stored byte for byte before anything else happens to it, so that nothing is
// lost if parsing or answering fails, and so the referee can always see what a player sent.
import { createHash } from 'node:crypto';
import { and, asc, eq, getTableColumns, inArray, lte, notInArray, or, sql } from 'drizzle-orm';
import { pgArray, rowsOf, recordsetInsert } from './arrays.ts';
import type { Db } from './client.ts';
import { rootCause } from './retry.ts';
import { inboundMessages } from './schema.ts';

export type InboundMessage = typeof inboundMessages.$inferSelect;
export type InboundSource = InboundMessage['source'];
export type InboundStatus = InboundMessage['status'];

export interface InboundMeta {
  source: InboundSource;
  /** Unique per delivery: `imap:<uidvalidity>:<uid>`, a maildir file name, `cli:<sha256>`… */
  sourceKey: string;
  /** Taken from the headers when not given (undefined); null means the mail has none. */
  messageId?: string | null;
  receivedAt?: Date;
}

/** Longer than this, a Message-ID is not one (and would not fit in the dedupe index). */
const MAX_MESSAGE_ID = 500;

/**
 * The Message-ID header, unfolded, without angle brackets; null when there is none or it is not
 * a plausible one (control characters end it; an overlong one is dropped, so the mail is deduped
 * by its delivery alone).
 */
export function headerMessageId(raw: Uint8Array): string | null {
  const head = headerBlock(raw)
    .toString('latin1')
    .replace(/\r?\n[ \t]+/g, ' ');
  // eslint-disable-next-line no-control-regex -- control characters are what must not get in
  const m = /^message-id:[ \t]*<?([^\s<>\x00-\x1f\x7f]+)>?/im.exec(head);
  return m && m[1]!.length <= MAX_MESSAGE_ID ? m[1]! : null;
}

/**
 * sha256 of the body only: two copies of one message (say To: the private address and Cc: the
 * common one) differ in their trace headers (Received, Delivered-To) but not in their body.
 */
export function contentSha256(raw: Uint8Array): string {
  return createHash('sha256')
    .update(asBuffer(raw).subarray(headerBlock(raw).length))
    .digest('hex');
}

// A view, not a copy: messages may be megabytes.
const asBuffer = (raw: Uint8Array): Buffer => Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);

function headerBlock(raw: Uint8Array): Buffer {
  const buf = asBuffer(raw);
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  const ends = [crlf < 0 ? -1 : crlf + 4, lf < 0 ? -1 : lf + 2].filter((n) => n >= 0);
  return buf.subarray(0, ends.length ? Math.min(...ends) : buf.length);
}

export interface InboundArrival extends InboundMeta {
  raw: Uint8Array;
}

/**
 * Stores a message unless it is already stored: the same delivery (source key), or the same
 * message arriving twice (Message-ID and body). Returns the stored row's id either way.
 */
export async function storeInbound(db: Db, raw: Uint8Array, meta: InboundMeta): Promise<{ id: number; duplicate: boolean }> {
  return (await storeInboundBatch(db, [{ ...meta, raw }]))[0]!;
}

/**
 * storeInbound for many messages, in one statement, answered in the order given. A message
 * repeated within the batch is stored once; its later copies are duplicates. If the statement
 * fails for something in the mails, the messages are stored one by one, so that one that cannot
 * be stored does not hold up the others; one that cannot be stored even alone because of its
 * Message-ID is tried once more without it. A lost connection is thrown at once: the insert may
 * or may not have been written, and a retry without the Message-ID would store a second copy that
 * nothing dedupes. Throws if any message is left unstored (the caller's retry dedupes).
 */
export async function storeInboundBatch(db: Db, mails: InboundArrival[]): Promise<Array<{ id: number; duplicate: boolean }>> {
  try {
    return await insertInbound(db, mails);
  } catch (err) {
    if (!isTheMails(err)) throw err;
    if (mails.length > 1) {
      const stored: Array<{ id: number; duplicate: boolean }> = [];
      for (const mail of mails) stored.push(...(await storeInboundBatch(db, [mail])));
      return stored;
    }
    if (mails[0]!.messageId === null) throw err;
    return insertInbound(db, [{ ...mails[0]!, messageId: null }]);
  }
}

/**
 * A failure caused by what a mail holds, not by the moment: a value PostgreSQL refuses (class 22,
 * data exceptions), a constraint (class 23, a unique one the insert did not absorb among them), or
 * an index entry too large (54000). Anything else (a lost connection, a restart, a timeout) is the
 * caller's to retry as it was.
 */
function isTheMails(err: unknown): boolean {
  const code = (rootCause(err) as { code?: unknown }).code;
  return typeof code === 'string' && (code === '54000' || code.startsWith('22') || code.startsWith('23'));
}

async function insertInbound(db: Db, mails: InboundArrival[]): Promise<Array<{ id: number; duplicate: boolean }>> {
  if (mails.length === 0) return [];
  const rows = mails.map((m) => ({
    source: m.source,
    sourceKey: m.sourceKey,
    messageId: m.messageId === undefined ? headerMessageId(m.raw) : m.messageId,
    contentSha256: contentSha256(m.raw),
    raw: asBuffer(m.raw),
    size: m.raw.byteLength,
    ...(m.receivedAt ? { receivedAt: m.receivedAt } : {}),
  }));
  const spec = {
    source: 'text',
    sourceKey: 'text',
    messageId: 'text',
    contentSha256: 'text',
    raw: 'bytea',
    size: 'integer',
    receivedAt: 'timestamptz',
  } as const;
  // No conflict target: either unique constraint (source key, message id + hash) means "seen".
  // receivedAt: the server's time when the source knows it, else now (the column's default).
  const now = new Date();
  const inserted = (
    await rowsOf<{ id: string | number; sourceKey: string; messageId: string | null; contentSha256: string }>(
      db,
      recordsetInsert(
        inboundMessages,
        spec,
        rows.map((r) => ({ receivedAt: now, ...r })),
        {
          onConflictDoNothing: true,
          returning: {
            id: inboundMessages.id,
            sourceKey: inboundMessages.sourceKey,
            messageId: inboundMessages.messageId,
            contentSha256: inboundMessages.contentSha256,
          },
        },
      ),
    )
  ).map((r) => ({ ...r, id: Number(r.id) })); // raw rows: node-postgres answers bigint as a string
  // By source key, unique in the table: a batch's rows are matched in one pass, not one scan each.
  const bySourceKey = new Map(inserted.map((row) => [row.sourceKey, row]));
  const answers: Array<{ id: number; duplicate: boolean } | null> = rows.map((r) => {
    const row = bySourceKey.get(r.sourceKey);
    if (!row || row.messageId !== r.messageId || row.contentSha256 !== r.contentSha256) return null;
    bySourceKey.delete(r.sourceKey); // a later copy of the same delivery in this batch is a duplicate
    return { id: row.id, duplicate: false };
  });
  const unresolved = rows.filter((_, i) => answers[i] === null);
  if (unresolved.length === 0) return answers as Array<{ id: number; duplicate: boolean }>;

  const keys = unresolved.map((r) => r.sourceKey);
  const messageIds = unresolved.flatMap((r) => (r.messageId === null ? [] : [r.messageId]));
  const seen = await db
    .select({
      id: inboundMessages.id,
      sourceKey: inboundMessages.sourceKey,
      messageId: inboundMessages.messageId,
      contentSha256: inboundMessages.contentSha256,
    })
    .from(inboundMessages)
    .where(or(inArray(inboundMessages.sourceKey, keys), messageIds.length ? inArray(inboundMessages.messageId, messageIds) : undefined))
    .orderBy(asc(inboundMessages.id));
  return rows.map((r, i) => {
    const answer = answers[i];
    if (answer) return answer;
    const match = seen.find(
      (s) => s.sourceKey === r.sourceKey || (r.messageId !== null && s.messageId === r.messageId && s.contentSha256 === r.contentSha256),
    );
    if (!match) throw new Error(`inbound message ${r.sourceKey} conflicted but cannot be found`);
    return { id: match.id, duplicate: true };
  });
}

export interface InboundOutcome {
  status: Exclude<InboundStatus, 'pending'>;
  /** A word for the referee console: `sheet`, `auto-reply`, `unknown-sender`, `too-large`… */
  outcome: string;
  detail?: unknown;
  gameId?: string | null;
  playerId?: number | null;
  at?: Date;
}

/** What the processing of one message needs of its row: all but the bytes. */
export type InboundHead = Omit<InboundMessage, 'raw'>;

/** Locks messages' rows (in id order, so two instances never deadlock) and reads all but the bytes. */
export async function lockInboundMany(tx: Db, ids: number[]): Promise<Map<number, InboundHead>> {
  if (ids.length === 0) return new Map();
  const { raw: _bytes, ...columns } = getTableColumns(inboundMessages);
  // One array parameter, not one per id: drizzle builds and types each parameter, and a batch has many ids.
  const rows = await tx
    .select(columns)
    .from(inboundMessages)
    .where(sql`${inboundMessages.id} = any(${pgArray(ids)}::bigint[])`)
    .orderBy(asc(inboundMessages.id))
    .for('no key update');
  return new Map(rows.map((r) => [r.id, r]));
}

/** The bytes of stored messages, by id. */
export async function inboundRaw(db: Db, ids: number[]): Promise<Map<number, Buffer>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: inboundMessages.id, raw: inboundMessages.raw })
    .from(inboundMessages)
    .where(inArray(inboundMessages.id, ids));
  return new Map(rows.map((r) => [r.id, r.raw]));
}

/** markProcessed for many messages in one statement (the outcomes travel as one JSON parameter). */
export async function markProcessedMany(db: Db, outcomes: Array<{ id: number; outcome: InboundOutcome }>): Promise<void> {
  if (outcomes.length === 0) return;
  const records = outcomes.map(({ id, outcome: o }) => ({
    id,
    status: o.status,
    outcome: o.outcome,
    detail: o.detail ?? null,
    game_id: o.gameId ?? null,
    player_id: o.playerId ?? null,
    at: (o.at ?? new Date()).toISOString(),
  }));
  await db.execute(sql`
    update ${inboundMessages} set
      status = u.status, outcome = u.outcome, outcome_detail = u.detail,
      game_id = u.game_id, player_id = u.player_id, processed_at = u.at
    from json_to_recordset(${JSON.stringify(records)}::json)
      as u(id bigint, status text, outcome text, detail jsonb, game_id text, player_id bigint, at timestamptz)
    where ${inboundMessages.id} = u.id`);
}

/** After this many failed attempts a message is set aside as `unprocessable` (D-MAIL-21). */
export const MAX_PROCESSING_ATTEMPTS = 5;

/**
 * Counts a failed attempt to process a pending message; the last allowed one sets it aside for
 * the referee. Returns whether it was set aside.
 */
export async function noteProcessingFailure(db: Db, id: number, error: string, at: Date = new Date()): Promise<boolean> {
  const giveUp = sql`${inboundMessages.attempts} + 1 >= ${MAX_PROCESSING_ATTEMPTS}`;
  const [row] = await db
    .update(inboundMessages)
    .set({
      attempts: sql`${inboundMessages.attempts} + 1`,
      lastError: error.slice(0, 2000),
      status: sql`case when ${giveUp} then 'rejected' else ${inboundMessages.status} end`,
      outcome: sql`case when ${giveUp} then 'unprocessable' else ${inboundMessages.outcome} end`,
      processedAt: sql`case when ${giveUp} then ${at.toISOString()}::timestamptz else ${inboundMessages.processedAt} end`,
    })
    .where(and(eq(inboundMessages.id, id), eq(inboundMessages.status, 'pending')))
    .returning({ status: inboundMessages.status });
  return row?.status === 'rejected';
}

/** Records what became of a message. Null when there is no such message. */
export async function markProcessed(db: Db, id: number, o: InboundOutcome): Promise<Omit<InboundMessage, 'raw'> | null> {
  const { raw: _bytes, ...columns } = getTableColumns(inboundMessages); // not megabytes back for a word
  const [row] = await db
    .update(inboundMessages)
    .set({
      status: o.status,
      outcome: o.outcome,
      outcomeDetail: o.detail ?? null,
      gameId: o.gameId ?? null,
      playerId: o.playerId ?? null,
      processedAt: o.at ?? new Date(),
    })
    .where(eq(inboundMessages.id, id))
    .returning(columns);
  return row ?? null;
}

export async function findInbound(db: Db, id: number): Promise<InboundMessage | null> {
  const [row] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
  return row ?? null;
}

/** Whether any mail received by `at` is stored but not yet processed: a turn is not closed on it. */
export async function pendingReceivedBy(db: Db, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.status, 'pending'), lte(inboundMessages.receivedAt, at)))
    .limit(1);
  return row !== undefined;
}

/**
 * Stored but not yet processed (say the process stopped in between), oldest first; `skip`: ids
 * this caller already tried and left pending.
 */
export async function listPendingInbound(db: Db, limit = 100, skip: readonly number[] = []): Promise<InboundMessage[]> {
  const pending = eq(inboundMessages.status, 'pending');
  return db
    .select()
    .from(inboundMessages)
    .where(skip.length ? and(pending, notInArray(inboundMessages.id, [...skip])) : pending)
    .orderBy(asc(inboundMessages.receivedAt), asc(inboundMessages.id))
    .limit(limit);
}

/** How a player's code has been misused lately: when they were last warned and what came since. */
export interface CodeMisuse {
  lastWarnedAt: Date | null;
  /** Attempts since that warning (or in the window, if none), not yet reported to the player. */
  unreported: number;
  firstUnreportedAt: Date | null;
}

/**
 * For each player, mail that used their code from another address (`sender-mismatch`) received
 * since `since`, in the games given (which the game index narrows to): one statement. A warning
 * sent is marked in the row's detail (`warned: true`).
 */
export async function codeMisuseOf(db: Db, players: Array<{ id: number; gameId: string }>, since: Date): Promise<Map<number, CodeMisuse>> {
  if (players.length === 0) return new Map();
  const ids = pgArray(players.map((p) => p.id));
  const games = pgArray([...new Set(players.map((p) => p.gameId))]);
  const rows = await rowsOf<{ playerId: string | number; lastWarned: string | Date | null; n: number; first: string | Date | null }>(
    db,
    sql`
    with m as (
      select player_id, processed_at, coalesce(outcome_detail->>'warned', '') = 'true' as warned from ${inboundMessages}
      where game_id = any(${games}::text[]) and received_at >= ${since.toISOString()}::timestamptz
        and outcome = 'sender-mismatch' and player_id = any(${ids}::bigint[])),
    w as (select player_id, max(processed_at) as last from m where warned group by player_id)
    select m.player_id as "playerId", w.last as "lastWarned",
      count(*) filter (where w.last is null or m.processed_at > w.last)::int as n,
      min(m.processed_at) filter (where w.last is null or m.processed_at > w.last) as first
    from m left join w using (player_id) group by m.player_id, w.last`,
  );
  const at = (d: string | Date | null) => (d === null ? null : new Date(d));
  return new Map(
    rows.map((r) => [Number(r.playerId), { lastWarnedAt: at(r.lastWarned), unreported: Number(r.n), firstUnreportedAt: at(r.first) }]),
  );
}
