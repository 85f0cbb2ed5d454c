// Press between players (docs/press.md §4, §6): conversations, messages stored before any relay,
// who each went to and how, Reply-To tokens, mutes, the digest, reports. Every function takes a
// Db, so intake's batch transaction stores a mail's messages, relays and acknowledgement at once.
// The writer of an anonymous message is stored (the referees see them, the hourly cap counts them)
// and leaves the database only through the functions that say so.
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { pgArray, recordsetInsert, rowsOf, tableRowsFrom, type ColumnSpec } from './arrays.ts';
import type { Db } from './client.ts';
import {
  outbox,
  players,
  pressMessages,
  pressPreferences,
  pressRecipients,
  pressReports,
  pressThreads,
  pressTokens,
  mutes,
} from './schema.ts';

export type PressThread = typeof pressThreads.$inferSelect;
export type PressMessage = typeof pressMessages.$inferSelect;
export type NewPressMessage = typeof pressMessages.$inferInsert;
export type PressToken = typeof pressTokens.$inferSelect;
export type PressRecipientRow = typeof pressRecipients.$inferSelect;

/** Who receives a relay or owns a token: a player, a referee (or, for relays, an observer), by id. */
export interface Recipient {
  kind: 'player' | 'referee' | 'observer';
  id: number;
}

// ——— conversations ———

/**
 * The signed conversation of these participants (sorted here: the order they were named in does
 * not make another one), made on first use. With `hiddenWriterPlayerId`, a new anonymous
 * conversation, every time (D-PRESS-7: two anonymous messages are never linked).
 */
export async function findOrCreateThread(
  db: Db,
  t: { gameId: string; kind: PressThread['kind']; participants: readonly string[]; hiddenWriterPlayerId?: number | null },
): Promise<PressThread> {
  // Broadcasts are one conversation per game, whoever is seated.
  const participants = t.kind === 'all' ? [] : [...new Set(t.participants)].sort();
  const values = {
    gameId: t.gameId,
    kind: t.kind,
    participants,
    anonymous: t.hiddenWriterPlayerId != null,
    hiddenWriterPlayerId: t.hiddenWriterPlayerId ?? null,
  };
  if (values.anonymous) return (await db.insert(pressThreads).values(values).returning())[0]!;
  const existing = () =>
    db
      .select()
      .from(pressThreads)
      .where(
        and(
          eq(pressThreads.gameId, t.gameId),
          eq(pressThreads.kind, t.kind),
          sql`${pressThreads.participants} = ${pgArray(participants)}::text[]`,
          eq(pressThreads.anonymous, false),
        ),
      );
  // Looked up first: a conversation is made once and written in many times, and every statement
  // is a round trip inside intake's batch transaction (bench:press).
  const [known] = await existing();
  if (known) return known;
  const [made] = await db
    .insert(pressThreads)
    .values(values)
    .onConflictDoNothing({
      target: [pressThreads.gameId, pressThreads.kind, pressThreads.participants],
      where: sql`not ${pressThreads.anonymous}`,
    })
    .returning();
  if (made) return made;
  // Made meanwhile by another transaction.
  const [found] = await existing();
  if (!found) throw new Error(`press thread ${t.gameId}/${t.kind}/${participants.join(',')} conflicted but cannot be found`);
  return found;
}

/** A conversation `findOrCreateThreads` is asked for: the arguments of `findOrCreateThread`. */
export interface ThreadWanted {
  gameId: string;
  kind: PressThread['kind'];
  participants: readonly string[];
  hiddenWriterPlayerId?: number | null;
}

const threadKey = (gameId: string, kind: string, participants: readonly string[]) =>
  `${gameId}\u001f${kind}\u001f${participants.join('\u001f')}`;

/**
 * `findOrCreateThread` for a batch of mail, in the order asked: the signed conversations that
 * exist read with one statement, the missing ones and every anonymous one made with one more.
 * The same signed conversation asked twice is the same row.
 */
export async function findOrCreateThreads(
  db: Db,
  wanted: readonly ThreadWanted[],
  /**
   * Signed conversations this transaction has found or made already, by `threadKey`: not read
   * again (a conversation's row never changes once made), and those found here are added.
   */
  known?: Map<string, PressThread>,
): Promise<PressThread[]> {
  const norm = wanted.map((t) => ({
    gameId: t.gameId,
    kind: t.kind,
    participants: t.kind === 'all' ? [] : [...new Set(t.participants)].sort(),
    anonymous: t.hiddenWriterPlayerId != null,
    hiddenWriterPlayerId: t.hiddenWriterPlayerId ?? null,
  }));
  const signed = known ?? new Map<string, PressThread>();
  const keysOf = (rows: typeof norm) =>
    [...new Set(rows.filter((t) => !t.anonymous).map((t) => threadKey(t.gameId, t.kind, t.participants)))].filter((k) => !signed.has(k));
  const lookUp = async (keys: string[]) => {
    if (keys.length === 0) return;
    const games = [...new Set(keys.map((k) => k.split('\u001f')[0]!))];
    const rows = await db
      .select()
      .from(pressThreads)
      .where(
        and(
          inArray(pressThreads.gameId, games),
          eq(pressThreads.anonymous, false),
          sql`${pressThreads.gameId} || chr(31) || ${pressThreads.kind} || chr(31) || array_to_string(${pressThreads.participants}, chr(31)) = any(${pgArray(keys)}::text[])`,
        ),
      );
    for (const r of rows) signed.set(threadKey(r.gameId, r.kind, r.participants), r);
  };
  await lookUp(keysOf(norm));
  // Made in the order asked: ids as one after the other would give them.
  const missing = new Set<string>();
  const toMake: typeof norm = [];
  for (const t of norm) {
    const k = threadKey(t.gameId, t.kind, t.participants);
    if (t.anonymous) toMake.push(t);
    else if (!signed.has(k) && !missing.has(k)) {
      missing.add(k);
      toMake.push(t);
    }
  }
  const anonymous = norm.filter((t) => t.anonymous);
  const made: PressThread[] = [];
  for (let i = 0; i < toMake.length; i += CHUNK) {
    // Rows come back in the order given (one VALUES list): the anonymous ones are matched by place.
    made.push(
      ...(await db
        .insert(pressThreads)
        .values(toMake.slice(i, i + CHUNK))
        .onConflictDoNothing({
          target: [pressThreads.gameId, pressThreads.kind, pressThreads.participants],
          where: sql`not ${pressThreads.anonymous}`,
        })
        .returning()),
    );
  }
  const fresh = made.filter((r) => r.anonymous);
  if (fresh.length !== anonymous.length) throw new Error('anonymous press threads not all made');
  for (const r of made) if (!r.anonymous) signed.set(threadKey(r.gameId, r.kind, r.participants), r);
  // Made meanwhile by another transaction.
  const raced = [...missing].filter((k) => !signed.has(k));
  await lookUp(raced);
  let next = 0;
  return norm.map((t) => {
    if (t.anonymous) return fresh[next++]!;
    const found = signed.get(threadKey(t.gameId, t.kind, t.participants));
    if (!found) throw new Error(`press thread ${t.gameId}/${t.kind}/${t.participants.join(',')} conflicted but cannot be found`);
    return found;
  });
}

/** Rows a bulk insert writes at once: well under PostgreSQL's 65,535 parameters a statement. */
const CHUNK = 1_000;

// ——— messages ———

/** Stores a message; the same (mail, block) again returns the stored one (`duplicate`): a mail is applied once. */
export async function insertPressMessage(db: Db, m: NewPressMessage): Promise<{ message: PressMessage; duplicate: boolean }> {
  const [row] = await db
    .insert(pressMessages)
    .values(m)
    .onConflictDoNothing({ target: [pressMessages.inboundId, pressMessages.block] })
    .returning();
  if (row) return { message: row, duplicate: false };
  if (m.inboundId == null) throw new Error('a press message without a mail cannot conflict');
  const [seen] = await db
    .select()
    .from(pressMessages)
    .where(and(eq(pressMessages.inboundId, m.inboundId), eq(pressMessages.block, m.block ?? 0)));
  if (!seen) throw new Error(`press message ${m.inboundId}/${m.block} conflicted but cannot be found`);
  return { message: seen, duplicate: true };
}

/** The columns a batch's messages are written with (`created_at` is the database's now()). */
const messageSpec = {
  gameId: 'text',
  threadId: 'bigint',
  turn: 'integer',
  writerPlayerId: 'bigint',
  writerRefereeId: 'bigint',
  writerFaction: 'text',
  sign: 'text',
  audienceKind: 'text',
  audienceFactions: 'text[]',
  text: 'text',
  chars: 'integer',
  inboundId: 'bigint',
  block: 'integer',
  inReplyToMessageId: 'bigint',
  status: 'text',
  refusal: 'jsonb',
  receivedAt: 'timestamptz',
  visibleAt: 'timestamptz',
  public: 'boolean',
} as const satisfies ColumnSpec<NewPressMessage>;

/**
 * `insertPressMessage` for a batch of mail, in the order given: one statement to insert, one more
 * to read back the ones stored before (a mail applied before is `duplicate`). Every row has a mail.
 */
export async function insertPressMessages(
  db: Db,
  rows: readonly NewPressMessage[],
): Promise<Array<{ message: PressMessage; duplicate: boolean }>> {
  const key = (inboundId: number | null | undefined, block: number | null | undefined) => `${inboundId}:${block ?? 0}`;
  const made = new Map<string, PressMessage>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const slice = rows.slice(i, i + CHUNK);
    if (slice.some((m) => m.inboundId == null)) throw new Error('a press message without a mail in a batch');
    // As one JSON parameter (recordsetInsert), with the columns' defaults filled in here: a
    // parameter a cell cost more to build and send than the insert itself. The one unique key
    // besides the generated id is (inbound_id, block), so any conflict is a mail applied before.
    const raw = await rowsOf<Record<string, unknown>>(
      db,
      recordsetInsert(
        pressMessages,
        messageSpec,
        slice.map((m) => ({ ...m, audienceFactions: m.audienceFactions ?? [], block: m.block ?? 0, public: m.public ?? false })),
        { onConflictDoNothing: true, returning: '*' },
      ),
    );
    for (const r of tableRowsFrom(pressMessages, raw)) made.set(key(r.inboundId, r.block), r);
  }
  const seen = new Map<string, PressMessage>();
  const missing = rows.filter((m) => !made.has(key(m.inboundId, m.block)));
  if (missing.length) {
    const found = await db
      .select()
      .from(pressMessages)
      .where(
        sql`${pressMessages.inboundId}::text || ':' || ${pressMessages.block} = any(${pgArray(missing.map((m) => key(m.inboundId, m.block)))}::text[])`,
      );
    for (const r of found) seen.set(key(r.inboundId, r.block), r);
  }
  return rows.map((m) => {
    const k = key(m.inboundId, m.block);
    const message = made.get(k);
    if (message) return { message, duplicate: false };
    const old = seen.get(k);
    if (!old) throw new Error(`press message ${k} conflicted but cannot be found`);
    return { message: old, duplicate: true };
  });
}

/** The outbox dedupe key of a message's relay to one recipient: a retried batch never doubles it. */
export function relayDedupeKey(messageId: number, r: Recipient): string {
  return `press:${messageId}:${r.kind}:${r.id}`;
}

export interface NewRecipient extends Recipient {
  messageId: number;
  address: string;
  delivery: PressRecipientRow['delivery'];
  outboxId?: number | null;
}

/** Who a message went to; a row already there is kept (a retried batch). */
export async function addRecipients(db: Db, rows: readonly NewRecipient[]): Promise<void> {
  if (rows.length === 0) return;
  // One JSON parameter (recordsetInsert): a batch writes hundreds of rows.
  await db.execute(
    recordsetInsert(
      pressRecipients,
      { messageId: 'bigint', recipientKind: 'text', recipientId: 'bigint', address: 'text', delivery: 'text', outboxId: 'bigint' },
      rows.map((r) => ({
        messageId: r.messageId,
        recipientKind: r.kind,
        recipientId: r.id,
        address: r.address,
        delivery: r.delivery,
        outboxId: r.outboxId ?? null,
      })),
      { onConflictDoNothing: true },
    ),
  );
}

/**
 * The outbox row that carried a recipient's copy of a message, as SQL over `press_recipients`
 * aliased `pr`: their relay, found by its dedupe key (`relayDedupeKey`, unique in the outbox), or
 * the digest that carried it (`outbox_id`). Relays are not linked by id when queued: an UPDATE
 * of every recipient after the batch's mail is written cost a round trip and a rewrite of each
 * row (bench:press), for a link the dedupe key makes already.
 */
const carriedBy = (o: string) =>
  sql.raw(`(${o}.dedupe_key = 'press:' || pr.message_id || ':' || pr.recipient_kind || ':' || pr.recipient_id or ${o}.id = pr.outbox_id)`);

/**
 * The latest relayed message of conversation `thread` whose relay or digest to the recipient
 * (`kind`, `rid`) has a Message-ID among `refs`, as SQL (null when none): read from the named mail
 * (outbox_message_id), not by walking the conversation, which read all of it for a reply citing
 * an old relay. A relay names its message in its dedupe key (`relayDedupeKey`); a digest is the
 * recipient's `outbox_id` (press_recipients_mail).
 */
const namedInThread = (thread: SQL, kind: SQL, rid: SQL, refs: SQL) => sql`(
  select max(c.id) from (
    select pm.id, pm.thread_id, pm.status from ${pressMessages} pm where pm.id = any(array(
      select case when o.dedupe_key ~ '^press:[0-9]+:' then split_part(o.dedupe_key, ':', 2)::bigint end
        from ${outbox} o
        where o.message_id = any(${refs})
          and o.dedupe_key = 'press:' || split_part(o.dedupe_key, ':', 2) || ':' || (${kind})::text || ':' || (${rid})::text
      union all
      select x.message_id from (
        select pr.message_id, pr.recipient_kind, pr.recipient_id from ${pressRecipients} pr
        where pr.outbox_id = any(array(select o.id from ${outbox} o where o.message_id = any(${refs})))
        offset 0
      ) x where x.recipient_kind = (${kind})::text and x.recipient_id = (${rid})::bigint
    ))
    -- Fences (offset 0): the named mail by its Message-ID, then its messages by their key, then
    -- their conversation and recipient. Given the choice, a planner whose statistics lag a burst
    -- walked the conversation (and every relayed message) or every recipient's row for each reply.
    offset 0
  ) c where c.thread_id = (${thread})::bigint and c.status = 'relayed')`;

/** Who these messages went to, each with the outbox row that carried it (its relay or digest), null when none did. */
export async function recipientsWithMail(
  db: Db,
  messageIds: readonly number[],
): Promise<Array<PressRecipientRow & { mailId: number | null }>> {
  if (messageIds.length === 0) return [];
  const raw = await rowsOf<Record<string, unknown> & { mail_id: string | number | null }>(
    db,
    sql`select pr.*, (select o.id from ${outbox} o where ${carriedBy('o')} order by o.id limit 1) as mail_id
      from ${pressRecipients} pr where pr.message_id = any(${pgArray([...messageIds])}::bigint[])
      order by pr.message_id, pr.recipient_kind, pr.recipient_id`,
  );
  const rows = tableRowsFrom(pressRecipients, raw);
  return rows.map((r, i) => ({ ...r, mailId: raw[i]!.mail_id === null ? null : Number(raw[i]!.mail_id) }));
}

/** `messageTimesSince` for several writers: each one's accepted messages received since `since`, oldest first. */
export async function messageTimesOfWriters(
  db: Db,
  playerIds: readonly number[],
  since: Date,
): Promise<Map<number, Array<{ at: Date; toReferees: boolean }>>> {
  const out = new Map<number, Array<{ at: Date; toReferees: boolean }>>();
  if (playerIds.length === 0) return out;
  const rows = await db
    .select({ writer: pressMessages.writerPlayerId, at: pressMessages.receivedAt, kind: pressMessages.audienceKind })
    .from(pressMessages)
    .where(
      and(
        inArray(pressMessages.writerPlayerId, [...new Set(playerIds)]),
        eq(pressMessages.status, 'relayed'),
        gte(pressMessages.receivedAt, since),
      ),
    )
    .orderBy(asc(pressMessages.receivedAt));
  for (const r of rows) {
    const list = out.get(r.writer!) ?? [];
    list.push({ at: r.at, toReferees: r.kind === 'referee' });
    out.set(r.writer!, list);
  }
  return out;
}

/**
 * When the writer's accepted messages were received since `since` (an hour ago), apart for those
 * to the referees, which have a cap of their own (D-PRESS-4, D-PRESS-12): `decidePress`'s facts.
 */
export async function messageTimesSince(db: Db, playerId: number, since: Date): Promise<{ players: Date[]; referees: Date[] }> {
  const rows = await db
    .select({ at: pressMessages.receivedAt, kind: pressMessages.audienceKind })
    .from(pressMessages)
    .where(and(eq(pressMessages.writerPlayerId, playerId), eq(pressMessages.status, 'relayed'), gte(pressMessages.receivedAt, since)))
    .orderBy(asc(pressMessages.receivedAt));
  return {
    players: rows.filter((r) => r.kind !== 'referee').map((r) => r.at),
    referees: rows.filter((r) => r.kind === 'referee').map((r) => r.at),
  };
}

/**
 * The message a reply (or REPORT) answers: the one whose relay to this recipient has a Message-ID
 * among the reply's In-Reply-To/References (bare, as the outbox keeps them); failing that, the
 * latest relayed in the conversation to them that they can know of at `now` (the reply's receipt):
 * visible (an anonymous one's delay is over) and not muted for them, so that a REPORT never tells
 * its writer that a hidden message exists (D-PRESS-10). Null when nothing in it reached them.
 */
export async function messageForReply(
  db: Db,
  q: { threadId: number; recipient: Recipient; references: readonly string[]; now: Date },
): Promise<PressMessage | null> {
  return (await messagesForReplies(db, [q]))[0]?.message ?? null;
}

/**
 * `messageForReply` for several replies, in the order asked: one statement for them all, and one
 * more for the messages found. `named`: found by a relay named in the references (else the latest).
 */
export async function messagesForReplies(
  db: Db,
  qs: ReadonlyArray<{ threadId: number; recipient: Recipient; references: readonly string[]; now: Date }>,
): Promise<Array<{ message: PressMessage; named: boolean } | null>> {
  if (qs.length === 0) return [];
  // A relay named in the references first; else the latest to the recipient that they can know
  // of at the reply's receipt: visible and not muted for them (as messageForReply, D-PRESS-10).
  // Each walks the conversation from its latest message (press_messages_thread is on thread_id,
  // id) and stops at the first that fits; the recipient's row is a subquery a message, so that the
  // planner cannot join them all and sort, which read a whole conversation for every reply.
  const found = await rowsOf<{ i: string | number; id: string | number; named: boolean }>(
    db,
    sql`select q.i, m.id, m.named from unnest(
        ${pgArray(qs.map((q) => q.threadId))}::bigint[], ${pgArray(qs.map((q) => q.recipient.kind))}::text[],
        ${pgArray(qs.map((q) => q.recipient.id))}::bigint[], ${pgArray(qs.map((q) => q.references.join('\u001f')))}::text[],
        ${pgArray(qs.map((q) => q.now.toISOString()))}::timestamptz[]
      ) with ordinality as q(thread_id, kind, rid, refs, at, i)
      cross join lateral (
        select case when q.refs <> ''
          then ${namedInThread(sql`q.thread_id`, sql`q.kind`, sql`q.rid`, sql`string_to_array(q.refs, chr(31))`)} end as id
        offset 0 -- read once: flattened, it was read again for each use of n.id
      ) n
      cross join lateral (
        select n.id is not null as named, coalesce(
          n.id,
          (select pm.id from ${pressMessages} pm
            where pm.thread_id = q.thread_id and pm.visible_at <= q.at
              and (select pr.delivery <> 'muted' from ${pressRecipients} pr
                where pr.message_id = pm.id and pr.recipient_kind = q.kind and pr.recipient_id = q.rid and pm.status = 'relayed')
            order by pm.id desc limit 1)
        ) as id
        offset 0
      ) m
      where m.id is not null`,
  );
  const ids = [...new Set(found.map((r) => Number(r.id)))];
  const messages = ids.length ? await db.select().from(pressMessages).where(inArray(pressMessages.id, ids)) : [];
  const byId = new Map(messages.map((m) => [m.id, m]));
  const answer = new Map(
    found.flatMap((r) => {
      const message = byId.get(Number(r.id));
      return message ? [[Number(r.i) - 1, { message, named: r.named }] as const] : [];
    }),
  );
  return qs.map((_, i) => answer.get(i) ?? null);
}

// ——— Reply-To tokens ———

/**
 * The owner's live token in a conversation, made with their first relay there (and its random
 * thread root, `t.<uuid>@domain`, D-PRESS-7) and reused after.
 */
export async function issueToken(
  db: Db,
  q: { threadId: number; owner: Recipient & { kind: 'player' | 'referee' }; domain: string; newToken: () => string },
): Promise<PressToken> {
  const live = () =>
    db
      .select()
      .from(pressTokens)
      .where(
        and(
          eq(pressTokens.threadId, q.threadId),
          eq(pressTokens.ownerKind, q.owner.kind),
          eq(pressTokens.ownerId, q.owner.id),
          isNull(pressTokens.revokedAt),
        ),
      );
  const [found] = await live();
  if (found) return found;
  const [made] = await db
    .insert(pressTokens)
    .values({
      token: q.newToken(),
      threadId: q.threadId,
      ownerKind: q.owner.kind,
      ownerId: q.owner.id,
      rootMessageId: `t.${randomUUID()}@${q.domain}`,
    })
    .onConflictDoNothing({
      target: [pressTokens.threadId, pressTokens.ownerKind, pressTokens.ownerId],
      where: sql`${pressTokens.revokedAt} is null`,
    })
    .returning();
  if (made) return made;
  const [raced] = await live();
  if (!raced) throw new Error(`press token of thread ${q.threadId} conflicted but cannot be found`);
  return raced;
}

/**
 * `issueToken` for a batch: each owner's live token in each conversation asked, in the order asked,
 * read with one statement and the missing ones made with one more (an owner asked twice in one
 * conversation gets one token, as they would one after the other).
 */
export async function issueTokens(
  db: Db,
  wanted: ReadonlyArray<{ threadId: number; owner: Recipient & { kind: 'player' | 'referee' } }>,
  a: {
    domain: string;
    newToken: () => string;
    /** Conversations this transaction has just made (anonymous ones): nobody has a token there yet, so none is looked for. */
    fresh?: ReadonlySet<number>;
  },
): Promise<PressToken[]> {
  const key = (threadId: number, kind: string, id: number) => `${threadId}:${kind}:${id}`;
  const live = new Map<string, PressToken>();
  const lookUp = async (keys: string[]) => {
    if (keys.length === 0) return;
    const rows = await db
      .select()
      .from(pressTokens)
      .where(
        and(
          inArray(pressTokens.threadId, [...new Set(keys.map((k) => Number(k.split(':')[0])))]),
          isNull(pressTokens.revokedAt),
          sql`${pressTokens.threadId}::text || ':' || ${pressTokens.ownerKind} || ':' || ${pressTokens.ownerId} = any(${pgArray(keys)}::text[])`,
        ),
      );
    for (const r of rows) live.set(key(r.threadId, r.ownerKind, r.ownerId), r);
  };
  const keys = [...new Set(wanted.filter((w) => !a.fresh?.has(w.threadId)).map((w) => key(w.threadId, w.owner.kind, w.owner.id)))];
  await lookUp(keys);
  const toMake: Array<typeof pressTokens.$inferInsert> = [];
  const asked = new Set<string>();
  // Made in the order asked, so that `newToken` is called as `issueToken` one after the other would.
  for (const w of wanted) {
    const k = key(w.threadId, w.owner.kind, w.owner.id);
    if (live.has(k) || asked.has(k)) continue;
    asked.add(k);
    toMake.push({
      token: a.newToken(),
      threadId: w.threadId,
      ownerKind: w.owner.kind,
      ownerId: w.owner.id,
      rootMessageId: `t.${randomUUID()}@${a.domain}`,
    });
  }
  for (let i = 0; i < toMake.length; i += CHUNK) {
    const made = await db
      .insert(pressTokens)
      .values(toMake.slice(i, i + CHUNK))
      .onConflictDoNothing({
        target: [pressTokens.threadId, pressTokens.ownerKind, pressTokens.ownerId],
        where: sql`${pressTokens.revokedAt} is null`,
      })
      .returning();
    for (const r of made) live.set(key(r.threadId, r.ownerKind, r.ownerId), r);
  }
  await lookUp([...asked].filter((k) => !live.has(k)));
  return wanted.map((w) => {
    const found = live.get(key(w.threadId, w.owner.kind, w.owner.id));
    if (!found) throw new Error(`press token of thread ${w.threadId} conflicted but cannot be found`);
    return found;
  });
}

export type FoundToken = PressToken & { thread: PressThread };

/** A live token and its conversation, in whatever case the address came back; null when unknown or revoked. */
export async function findToken(db: Db, token: string): Promise<FoundToken | null> {
  const [row] = await db
    .select({ token: pressTokens, thread: pressThreads })
    .from(pressTokens)
    .innerJoin(pressThreads, eq(pressThreads.id, pressTokens.threadId))
    .where(and(eq(pressTokens.token, token.trim().toLowerCase()), isNull(pressTokens.revokedAt)));
  return row ? { ...row.token, thread: row.thread } : null;
}

/** `findToken` for a batch of mail: the live ones among these, by token (lower case). */
export async function findTokens(db: Db, tokens: readonly string[]): Promise<Map<string, FoundToken>> {
  const wanted = [...new Set(tokens.map((t) => t.trim().toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ token: pressTokens, thread: pressThreads })
    .from(pressTokens)
    .innerJoin(pressThreads, eq(pressThreads.id, pressTokens.threadId))
    .where(and(inArray(pressTokens.token, wanted), isNull(pressTokens.revokedAt)));
  return new Map(rows.map((r) => [r.token.token, { ...r.token, thread: r.thread }]));
}

/** The seat changed hands (D-SEAT-1/2, D-PRESS-9): the player's tokens name nobody from now on. */
export async function revokeTokensOfPlayer(db: Db, playerId: number, at: Date = new Date()): Promise<number> {
  const rows = await db
    .update(pressTokens)
    .set({ revokedAt: at })
    .where(and(eq(pressTokens.ownerKind, 'player'), eq(pressTokens.ownerId, playerId), isNull(pressTokens.revokedAt)))
    .returning({ token: pressTokens.token });
  return rows.length;
}

/** The referee left the game: their tokens in its conversations name nobody from now on. */
export async function revokeTokensOfReferee(db: Db, gameId: string, refereeId: number, at: Date = new Date()): Promise<number> {
  const rows = await db
    .update(pressTokens)
    .set({ revokedAt: at })
    .where(
      and(
        eq(pressTokens.ownerKind, 'referee'),
        eq(pressTokens.ownerId, refereeId),
        isNull(pressTokens.revokedAt),
        inArray(pressTokens.threadId, db.select({ id: pressThreads.id }).from(pressThreads).where(eq(pressThreads.gameId, gameId))),
      ),
    )
    .returning({ token: pressTokens.token });
  return rows.length;
}

// ——— mutes and delivery ———

const ANONYMOUS = '*anonymous*';
/** What a player mutes: a faction, or every anonymous message. */
export type MuteTarget = { kind: 'faction'; faction: string } | { kind: 'anonymous' };

const muteKey = (t: MuteTarget): string => (t.kind === 'anonymous' ? ANONYMOUS : t.faction);
const muteTarget = (key: string): MuteTarget => (key === ANONYMOUS ? { kind: 'anonymous' } : { kind: 'faction', faction: key });

/** MUTE (D-PRESS-11); muting twice is muting. */
export async function mute(db: Db, playerId: number, target: MuteTarget): Promise<void> {
  await db
    .insert(mutes)
    .values({ playerId, muted: muteKey(target) })
    .onConflictDoNothing();
}

/** UNMUTE; true when something was muted. */
export async function unmute(db: Db, playerId: number, target: MuteTarget): Promise<boolean> {
  const rows = await db
    .delete(mutes)
    .where(and(eq(mutes.playerId, playerId), eq(mutes.muted, muteKey(target))))
    .returning({ muted: mutes.muted });
  return rows.length > 0;
}

/** What each of these players muted (a player who muted nothing is absent): the command's answer, and the relays' deliveries. */
export async function mutedBy(db: Db, playerIds: readonly number[]): Promise<Map<number, MuteTarget[]>> {
  const out = new Map<number, MuteTarget[]>();
  if (playerIds.length === 0) return out;
  const rows = await db
    .select()
    .from(mutes)
    .where(inArray(mutes.playerId, [...playerIds]))
    .orderBy(asc(mutes.playerId), asc(mutes.muted));
  for (const r of rows) out.set(r.playerId, [...(out.get(r.playerId) ?? []), muteTarget(r.muted)]);
  return out;
}

/** DIGEST / IMMEDIATE. */
export async function setDelivery(db: Db, playerId: number, delivery: 'immediate' | 'digest', at: Date = new Date()): Promise<void> {
  await db
    .insert(pressPreferences)
    .values({ playerId, delivery, updatedAt: at })
    // The same choice again changes nothing: its time is where the digest's muted count starts (D-PRESS-24).
    .onConflictDoUpdate({
      target: pressPreferences.playerId,
      set: { delivery, updatedAt: at },
      setWhere: sql`${pressPreferences.delivery} <> excluded.delivery`,
    });
}

/** Each player's choice; `immediate` for those who never chose. */
export async function deliveryOf(db: Db, playerIds: readonly number[]): Promise<Map<number, 'immediate' | 'digest'>> {
  const out = new Map<number, 'immediate' | 'digest'>(playerIds.map((id) => [id, 'immediate']));
  if (playerIds.length === 0) return out;
  const rows = await db
    .select()
    .from(pressPreferences)
    .where(inArray(pressPreferences.playerId, [...playerIds]));
  for (const r of rows) out.set(r.playerId, r.delivery);
  return out;
}

// ——— the digest ———

export interface DigestItem {
  messageId: number;
  threadId: number;
  recipientId: number;
  address: string;
  turn: number;
  /** Null for an anonymous message, and for a referee's (`byReferee`). */
  writerFaction: string | null;
  byReferee: boolean;
  sign: 'signed' | 'anonymous';
  audienceKind: PressMessage['audienceKind'];
  audienceFactions: string[];
  text: string;
  visibleAt: Date;
  /** The recipient's live token in the message's conversation (the digest writes its reply address); null if none. */
  replyToken: string | null;
}

/** A player's copy of a message kept for their digest, not yet sent, and visible by `now` (a press_recipients row joined to its message). */
function waitingForDigest(now: Date) {
  return and(
    eq(pressRecipients.recipientKind, 'player'),
    eq(pressRecipients.delivery, 'digest'),
    isNull(pressRecipients.digestedAt),
    lte(pressMessages.visibleAt, now),
  );
}

/**
 * Who wrote a message, as players may read it: an anonymous writer's faction is null already in
 * SQL, so that it never leaves the database for a player's mail or page (D-PRESS-10).
 */
const writerAsPlayersSeeIt = {
  writerFaction: sql<string | null>`case when ${pressMessages.sign} = 'signed' then ${pressMessages.writerFaction} end`,
  byReferee: sql<boolean>`${pressMessages.writerRefereeId} is not null`,
};

/**
 * The game's messages waiting for players' digests, by player then message; an anonymous
 * message's writer is not in them (the digest is a player's mail). Only what is visible by `now`:
 * an anonymous message waits for its random delay here too.
 */
export async function pendingDigest(db: Db, gameId: string, now: Date = new Date()): Promise<DigestItem[]> {
  return db
    .select({
      messageId: pressMessages.id,
      threadId: sql<number>`${pressMessages.threadId}`.mapWith(Number),
      recipientId: pressRecipients.recipientId,
      address: pressRecipients.address,
      turn: pressMessages.turn,
      ...writerAsPlayersSeeIt,
      sign: pressMessages.sign,
      audienceKind: pressMessages.audienceKind,
      audienceFactions: pressMessages.audienceFactions,
      text: pressMessages.text,
      visibleAt: pressMessages.visibleAt,
      replyToken: pressTokens.token,
    })
    .from(pressRecipients)
    .innerJoin(pressMessages, eq(pressMessages.id, pressRecipients.messageId))
    .leftJoin(
      pressTokens,
      and(
        eq(pressTokens.threadId, pressMessages.threadId),
        eq(pressTokens.ownerKind, 'player'),
        eq(pressTokens.ownerId, pressRecipients.recipientId),
        isNull(pressTokens.revokedAt),
      ),
    )
    .where(and(waitingForDigest(now), eq(pressMessages.gameId, gameId)))
    .orderBy(asc(pressRecipients.recipientId), asc(pressMessages.visibleAt), asc(pressMessages.id));
}

/**
 * These messages went to the player in a digest (`outboxId`: its mail). Named one by one, so a
 * message that arrived after the digest was read waits for the next.
 */
export async function markDigested(
  db: Db,
  playerId: number,
  messageIds: readonly number[],
  d: { outboxId: number | null; at?: Date },
): Promise<number> {
  if (messageIds.length === 0) return 0;
  const rows = await db
    .update(pressRecipients)
    .set({ digestedAt: d.at ?? new Date(), outboxId: d.outboxId })
    .where(
      and(
        eq(pressRecipients.recipientKind, 'player'),
        eq(pressRecipients.recipientId, playerId),
        inArray(pressRecipients.messageId, [...messageIds]),
        eq(pressRecipients.delivery, 'digest'),
        isNull(pressRecipients.digestedAt),
      ),
    )
    .returning({ id: pressRecipients.messageId });
  return rows.length;
}

/**
 * The messages a player's mutes kept from them, visible in (`after`, `upTo`] and not yet counted
 * in a digest (D-PRESS-11). `mark`: count them now (their `digested_at` set), so the next digest
 * counts only newer ones.
 */
export async function mutedUncounted(
  db: Db,
  playerId: number,
  q: { gameId: string; after: Date; upTo: Date; mark?: Date },
): Promise<number> {
  const visible = db
    .select({ id: pressMessages.id })
    .from(pressMessages)
    .where(and(eq(pressMessages.gameId, q.gameId), gt(pressMessages.visibleAt, q.after), lte(pressMessages.visibleAt, q.upTo)));
  const which = and(
    eq(pressRecipients.recipientKind, 'player'),
    eq(pressRecipients.recipientId, playerId),
    eq(pressRecipients.delivery, 'muted'),
    isNull(pressRecipients.digestedAt),
    inArray(pressRecipients.messageId, visible),
  );
  if (q.mark) {
    const rows = await db.update(pressRecipients).set({ digestedAt: q.mark }).where(which).returning({ id: pressRecipients.messageId });
    return rows.length;
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pressRecipients)
    .where(which);
  return row?.n ?? 0;
}

/**
 * The games with messages waiting for a player's digest and visible by `now`, whatever the game's
 * state: a paused game's press and what waited at a game's end still go (D-PRESS-32).
 */
export async function gamesWithPendingDigest(db: Db, now: Date = new Date()): Promise<string[]> {
  const rows = await db
    .selectDistinct({ gameId: pressMessages.gameId })
    .from(pressRecipients)
    .innerJoin(pressMessages, eq(pressMessages.id, pressRecipients.messageId))
    .where(waitingForDigest(now))
    .orderBy(asc(pressMessages.gameId));
  return rows.map((r) => r.gameId);
}

/** When each of these players last chose the digest (no row: never; the muted count starts there). */
export async function digestChosenAt(db: Db, playerIds: readonly number[]): Promise<Map<number, Date>> {
  if (playerIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(pressPreferences)
    .where(and(inArray(pressPreferences.playerId, [...playerIds]), eq(pressPreferences.delivery, 'digest')));
  return new Map(rows.map((r) => [r.playerId, r.updatedAt]));
}

// ——— reports ———

/** REPORT: once per message and player (a second report of the same message is the first: `duplicate`). */
export async function reportMessage(
  db: Db,
  r: { messageId: number; playerId: number; reason: string; inboundId: number | null },
): Promise<{ duplicate: boolean }> {
  const rows = await db.insert(pressReports).values(r).onConflictDoNothing().returning({ id: pressReports.messageId });
  return { duplicate: rows.length === 0 };
}

// ——— what people see ———

export interface RefereePressRow {
  id: number;
  threadId: number | null;
  turn: number;
  /** The writer, anonymous or not: referees see who wrote (D-PRESS-10). */
  writerPlayerId: number | null;
  writerRefereeId: number | null;
  writerFaction: string | null;
  writerEmail: string | null;
  sign: 'signed' | 'anonymous';
  audienceKind: PressMessage['audienceKind'];
  audienceFactions: string[];
  /** A reply in an anonymous conversation also reached its hidden writer (not in audienceFactions): their faction and address. */
  hiddenReader: { faction: string; email: string } | null;
  text: string;
  status: 'relayed' | 'refused';
  refusal: unknown;
  receivedAt: Date;
  reports: { playerId: number; reason: string; at: Date }[];
}

/** The console's press view: every message of the game with its writer, reported ones first, then newest first. */
export async function listPressForReferee(db: Db, gameId: string, limit = 500): Promise<RefereePressRow[]> {
  const reported = sql<number>`(select count(*) from ${pressReports} where ${pressReports.messageId} = ${pressMessages.id})::int`;
  const rows = await db
    .select({
      id: pressMessages.id,
      threadId: pressMessages.threadId,
      turn: pressMessages.turn,
      writerPlayerId: pressMessages.writerPlayerId,
      writerRefereeId: pressMessages.writerRefereeId,
      writerFaction: pressMessages.writerFaction,
      writerEmail: players.email,
      sign: pressMessages.sign,
      audienceKind: pressMessages.audienceKind,
      audienceFactions: pressMessages.audienceFactions,
      hiddenReader: sql<{
        faction: string;
        email: string;
      } | null>`(select json_build_object('faction', h.faction, 'email', h.email) from ${players} h
        where h.id = ${pressThreads.hiddenWriterPlayerId} and h.id is distinct from ${pressMessages.writerPlayerId})`,
      text: pressMessages.text,
      status: pressMessages.status,
      refusal: pressMessages.refusal,
      receivedAt: pressMessages.receivedAt,
      reported,
    })
    .from(pressMessages)
    .leftJoin(players, eq(players.id, pressMessages.writerPlayerId))
    .leftJoin(pressThreads, eq(pressThreads.id, pressMessages.threadId))
    .where(eq(pressMessages.gameId, gameId))
    .orderBy(sql`${reported} > 0 desc`, desc(pressMessages.receivedAt), desc(pressMessages.id))
    .limit(limit);
  const ids = rows.filter((r) => r.reported > 0).map((r) => r.id);
  const reports = ids.length
    ? await db.select().from(pressReports).where(inArray(pressReports.messageId, ids)).orderBy(asc(pressReports.createdAt))
    : [];
  return rows.map(({ reported: _, ...r }) => ({
    ...r,
    reports: reports.filter((x) => x.messageId === r.id).map((x) => ({ playerId: x.playerId, reason: x.reason, at: x.createdAt })),
  }));
}

/** A message to everyone as the public page and observers see it. */
export interface PublicBroadcast {
  turn: number;
  /** The writer's faction when signed; null when anonymous or a referee's. */
  writerFaction: string | null;
  byReferee: boolean;
  sign: 'signed' | 'anonymous';
  text: string;
  /** When players could first see it (an anonymous message's random delay included), never when it was written. */
  at: Date;
}

/** A public message's columns: an anonymous writer's faction is null here, in SQL (D-PRESS-10). */
const publicBroadcastColumns = {
  turn: pressMessages.turn,
  ...writerAsPlayersSeeIt,
  sign: pressMessages.sign,
  text: pressMessages.text,
  at: pressMessages.visibleAt,
};

/** The game's messages to everyone that its page shows now: visible, and public when relayed (D-PRESS-33). */
const publicBroadcasts = (gameId: string, now: Date) =>
  and(
    eq(pressMessages.gameId, gameId),
    eq(pressMessages.audienceKind, 'all'),
    eq(pressMessages.status, 'relayed'),
    eq(pressMessages.public, true),
    lte(pressMessages.visibleAt, now),
  );

/**
 * The game's public messages to everyone (D-PRESS-33), oldest first, as far as they are visible at `now`. An
 * anonymous writer never leaves the database here; nor do ids or receipt times, which would line
 * an anonymous message up with a signed one from the same mail (D-PRESS-10).
 */
export async function listBroadcasts(db: Db, gameId: string, now: Date = new Date()): Promise<PublicBroadcast[]> {
  return db
    .select(publicBroadcastColumns)
    .from(pressMessages)
    .where(publicBroadcasts(gameId, now))
    .orderBy(asc(pressMessages.visibleAt), asc(pressMessages.id));
}

/**
 * The newest `limit` visible messages to everyone, newest first, and how many are visible in all:
 * the public page and its JSON (`listBroadcasts`'s rows, the same care for anonymous writers).
 * Only those relayed while the game published them (observers = broadcasts, D-PRESS-33).
 */
export async function latestBroadcasts(
  db: Db,
  gameId: string,
  limit: number,
  now: Date = new Date(),
): Promise<{ total: number; broadcasts: PublicBroadcast[] }> {
  const visible = publicBroadcasts(gameId, now);
  const [broadcasts, [count]] = await Promise.all([
    db
      .select(publicBroadcastColumns)
      .from(pressMessages)
      .where(visible)
      .orderBy(desc(pressMessages.visibleAt), desc(pressMessages.id))
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(pressMessages)
      .where(visible),
  ]);
  return { total: count?.n ?? 0, broadcasts };
}

/** A message of a finished game as its revealed archive shows it (D-PRESS-18). */
export interface RevealedMessage extends PublicBroadcast {
  /** The conversation, numbered 1, 2, … in the order it first spoke in the game (never a stored id). */
  conversation: number;
  /** The conversation's kind; `anonymous` when its writer is hidden (D-PRESS-7). */
  conversationKind: 'factions' | 'all';
  anonymousConversation: boolean;
  /** Who it went to: everyone, or these factions (never an anonymous conversation's hidden writer). */
  audienceKind: 'factions' | 'all';
  audienceFactions: string[];
  /** A reply in an anonymous conversation: it reached the hidden writer too, shown as "Anonymous" (D-PRESS-10). */
  toHiddenWriter: boolean;
}

/**
 * Every relayed message of the game between players, oldest first, as visible at `now`, for the
 * archive published at the end when `reveal = at-end` (D-PRESS-18, D-PRESS-27). Messages in the referees'
 * conversations are not in it: a player wrote those to the referees alone. An anonymous writer
 * never leaves the database here either (D-PRESS-10).
 */
export async function revealedPress(db: Db, gameId: string, now: Date = new Date()): Promise<RevealedMessage[]> {
  const rows = await db
    .select({
      threadId: sql<number>`${pressMessages.threadId}`.mapWith(Number),
      conversationKind: sql<'factions' | 'all'>`${pressThreads.kind}`,
      anonymousConversation: pressThreads.anonymous,
      turn: pressMessages.turn,
      ...writerAsPlayersSeeIt,
      sign: pressMessages.sign,
      audienceKind: sql<'factions' | 'all'>`${pressMessages.audienceKind}`,
      audienceFactions: pressMessages.audienceFactions,
      toHiddenWriter: sql<boolean>`coalesce(${pressThreads.hiddenWriterPlayerId} is distinct from ${pressMessages.writerPlayerId} and ${pressThreads.anonymous}, false)`,
      text: pressMessages.text,
      at: pressMessages.visibleAt,
    })
    .from(pressMessages)
    .innerJoin(pressThreads, eq(pressThreads.id, pressMessages.threadId))
    .where(
      and(
        eq(pressMessages.gameId, gameId),
        eq(pressMessages.status, 'relayed'),
        sql`${pressMessages.audienceKind} <> 'referee'`,
        sql`${pressThreads.kind} <> 'referee'`,
        lte(pressMessages.visibleAt, now),
      ),
    )
    .orderBy(asc(pressMessages.visibleAt), asc(pressMessages.id));
  const numbers = new Map<number, number>();
  return rows.map(({ threadId, ...r }) => {
    if (!numbers.has(threadId)) numbers.set(threadId, numbers.size + 1);
    return { ...r, conversation: numbers.get(threadId)! };
  });
}
