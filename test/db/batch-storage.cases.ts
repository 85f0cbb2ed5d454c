// Batch repository cases (many rows per statement: rows as one JSON parameter, keys as arrays),
// run on PGlite (storage.test.ts) and on PostgreSQL (storage.int.test.ts): the two drivers
// serialise parameters differently, so every case runs on both.
import { randomBytes } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { recordsetInsert, rowsOf } from '../../src/db/arrays.ts';
import type { Database } from '../../src/db/client.ts';
import { findGames, insertGame } from '../../src/db/games.ts';
import {
  contentSha256,
  findInbound,
  inboundRaw,
  lockInboundMany,
  markProcessedMany,
  storeInbound,
  storeInboundBatch,
  type InboundArrival,
  type InboundSource,
} from '../../src/db/inbound.ts';
import { countSentSince, enqueueMany, findOutboxByMessageId, newMessageId, ownMessageIds, type OutboxInput } from '../../src/db/outbox.ts';
import { addAddress, insertPlayer, playersForMail, type Player } from '../../src/db/players.ts';
import { inboundMessages, outbox } from '../../src/db/schema.ts';
import { insertSheets, latestSheets, latestSheetsOf } from '../../src/db/sheets.ts';
import { insertTurn, lockTurns } from '../../src/db/turns.ts';
import { initialState } from '../../src/games/initial-state.ts';
import { plainGame } from './tables.ts';

const T0 = new Date('2025-04-01T08:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const FACTIONS = ['hutt', 'aristocrats', 'sith', 'knights'];

/** Game ids, source keys, Message-IDs and addresses are all prefixed: these cases share a database with storage.cases.ts on PostgreSQL. */
const GAME = 'batches';
const OTHER = 'batches-other';

const mail = (headers: string, body = 'V: Sith\r\n') => Buffer.from(`${headers}\r\n\r\n${body}`, 'latin1');
const arrival = (sourceKey: string, raw: Uint8Array, extra: Partial<InboundArrival> = {}): InboundArrival => ({
  source: 'imap',
  sourceKey,
  raw,
  ...extra,
});

/**
 * Strings that an array literal or a JSON text must quote or escape, or that a careless
 * serialiser turns into something else (`NULL` read as SQL NULL, `{…}` as a nested array or an
 * object, a backslash eaten, `\u2028` cut).
 */
const AWKWARD = [
  'He said "hi"',
  'back\\slash',
  'C:\\orders\\turn 2\\',
  '\\"',
  'a,b,,c',
  '{braces}',
  '}{',
  '{"a","b"}',
  'NULL',
  'null',
  '',
  ' ',
  '  padded  ',
  "it's",
  'line 1\nline 2\r\nline 3\ttabbed',
  'Ostilità – Τραντορ 東京 🚀 \u2028 é',
  '$1 ::text[] ARRAY[1]',
];

async function seedGame(db: Database['db'], id: string, turnNumbers: number[]) {
  await insertGame(db, plainGame(id, id));
  for (const number of turnNumbers) {
    await insertTurn(db, {
      gameId: id,
      number,
      election: number === 1,
      state: initialState(classicMap(), id, FACTIONS, { victoryPlanets: 12, nmrHostility: 'keep' }),
      deadline: minutes(7 * 24 * 60 * number),
      declarationDeadline: minutes(7 * 24 * 60 * number - 60),
      status: 'open',
    });
  }
}

export function batchStorageCases(open: () => Promise<Database>): void {
  describe('batches', () => {
    let database: Database;
    let db: Database['db'];
    const players: Player[] = [];
    beforeAll(async () => {
      database = await open();
      db = database.db;
      await seedGame(db, GAME, [1, 2, 3]);
      await seedGame(db, OTHER, [1]);
      for (const [i, faction] of FACTIONS.entries()) {
        players.push(
          await insertPlayer(db, {
            gameId: GAME,
            faction,
            email: `b${i}@batch.example`,
            lang: 'en',
            secret: `bAtc-h${'mnpq'[i]}77`,
            joinedTurn: 1,
          }),
        );
      }
      players.push(
        await insertPlayer(db, {
          gameId: OTHER,
          faction: 'hutt',
          email: 'b0@batch.example',
          lang: 'it',
          secret: 'oThe-r777',
          joinedTurn: 1,
        }),
      );
      players.push(
        await insertPlayer(db, {
          gameId: OTHER,
          faction: 'sith',
          email: 'lone@batch.example',
          lang: 'it',
          secret: 'oThe-r888',
          joinedTurn: 1,
        }),
      );
    }, 60_000); // starting PGlite takes seconds, more on a busy machine
    afterAll(async () => {
      await database?.close();
    });

    const rowsWithKey = (sourceKey: string) => db.select().from(inboundMessages).where(eq(inboundMessages.sourceKey, sourceKey));
    const rowsWithMessageId = (messageId: string) => db.select().from(inboundMessages).where(eq(inboundMessages.messageId, messageId));

    /** outcome_detail as stored, read as text: Drizzle's jsonb reader would parse a JSON string holding JSON a second time. */
    const storedDetail = async (id: number) => {
      const [row] = await rowsOf<{ detail: string | null }>(
        db,
        sql`select outcome_detail::text as detail from ${inboundMessages} where id = ${id}`,
      );
      return row?.detail == null ? row?.detail : (JSON.parse(row.detail) as unknown);
    };

    describe('storeInboundBatch', () => {
      it('stores every mail byte for byte, with its reception time: non-UTF-8, NUL bytes, a megabyte, a view into a larger buffer', async () => {
        const latin = Buffer.concat([
          mail('Message-ID: <latin@batch.example>\r\nSubject: =?x?= \xe8'),
          Buffer.from([0xff, 0xfe, 0xe8, 0x80, 0xc3, 0x28, 0x0d]),
        ]);
        const nuls = Buffer.concat([
          mail('Message-ID: <nul@batch.example>'),
          Buffer.from([0x00, 0x00, 0x41, 0x00, 0x5c, 0x78, 0x30, 0x30, 0x00]),
        ]);
        const mega = Buffer.concat([mail('Message-ID: <mega@batch.example>', ''), randomBytes(1024 * 1024)]);
        // A Uint8Array that is a window into the middle of a bigger buffer: only the window is the mail.
        const backing = Buffer.concat([
          Buffer.from('GARBAGE BEFORE'),
          mail('Message-ID: <view@batch.example>', 'B2-C3\r\n'),
          Buffer.from('GARBAGE AFTER'),
        ]);
        const view = new Uint8Array(
          backing.buffer,
          backing.byteOffset + 'GARBAGE BEFORE'.length,
          backing.length - 'GARBAGE BEFORE'.length - 'GARBAGE AFTER'.length,
        );
        const mails = [
          arrival('batch:bytes:latin', latin, { receivedAt: minutes(1) }),
          arrival('batch:bytes:nul', nuls, { receivedAt: minutes(2), source: 'maildir' }),
          arrival('batch:bytes:mega', mega, { receivedAt: minutes(3), source: 'cli' }),
          arrival('batch:bytes:view', view, { receivedAt: new Date('2025-04-01T08:04:05.678Z') }),
        ];
        const answers = await storeInboundBatch(db, mails);
        expect(answers.map((a) => a.duplicate)).toEqual([false, false, false, false]);
        expect(new Set(answers.map((a) => a.id)).size).toBe(4);
        for (const [i, m] of mails.entries()) {
          const row = await findInbound(db, answers[i]!.id);
          const expected = Buffer.from(m.raw.buffer, m.raw.byteOffset, m.raw.byteLength);
          expect(Buffer.isBuffer(row?.raw)).toBe(true);
          expect(row!.raw.length).toBe(expected.length);
          expect(row!.raw.equals(expected)).toBe(true);
          expect(row).toMatchObject({
            source: m.source,
            sourceKey: m.sourceKey,
            size: expected.length,
            status: 'pending',
            receivedAt: m.receivedAt,
            contentSha256: contentSha256(expected),
          });
        }
        expect((await findInbound(db, answers[1]!.id))?.messageId).toBe('nul@batch.example');
        expect((await findInbound(db, answers[3]!.id))?.messageId).toBe('view@batch.example');
        // inboundRaw reads the same bytes back, by id.
        const raws = await inboundRaw(db, [answers[2]!.id, answers[0]!.id]);
        expect([...raws.keys()].sort((a, b) => a - b)).toEqual([answers[0]!.id, answers[2]!.id].sort((a, b) => a - b));
        expect(raws.get(answers[2]!.id)?.equals(mega)).toBe(true);
        expect(raws.get(answers[0]!.id)?.equals(latin)).toBe(true);
      });

      it('takes the time of storing when the source does not know the reception time', async () => {
        const before = Date.now();
        const [a] = await storeInboundBatch(db, [arrival('batch:no-time', mail('Message-ID: <no-time@batch.example>'))]);
        const after = Date.now();
        const t = (await findInbound(db, a!.id))!.receivedAt.getTime();
        expect(t).toBeGreaterThanOrEqual(before);
        expect(t).toBeLessThanOrEqual(after);
      });

      it('answers in the order the mails were given', async () => {
        const keys = ['batch:order:e', 'batch:order:a', 'batch:order:d', 'batch:order:b', 'batch:order:c'];
        const answers = await storeInboundBatch(
          db,
          keys.map((k) => arrival(k, mail(`Message-ID: <${k.replace(/:/g, '.')}@batch.example>`, `${k}\r\n`))),
        );
        expect(answers).toHaveLength(keys.length);
        const stored = await Promise.all(answers.map((a) => findInbound(db, a.id)));
        expect(stored.map((r) => r?.sourceKey)).toEqual(keys);
        expect(stored.map((r) => r?.raw.toString('latin1').split('\r\n\r\n')[1])).toEqual(keys.map((k) => `${k}\r\n`));
      });

      it('stores a delivery repeated within the batch once: later copies answer with the first one’s id', async () => {
        const raw = mail('Message-ID: <twice-key@batch.example>');
        const other = mail('Message-ID: <between@batch.example>');
        const answers = await storeInboundBatch(db, [
          arrival('batch:twice-key', raw),
          arrival('batch:between', other),
          arrival('batch:twice-key', raw),
          arrival('batch:twice-key', raw),
        ]);
        expect(answers[0]!.duplicate).toBe(false);
        expect(answers[1]!.duplicate).toBe(false);
        expect(answers[2]).toEqual({ id: answers[0]!.id, duplicate: true });
        expect(answers[3]).toEqual({ id: answers[0]!.id, duplicate: true });
        expect(answers[1]!.id).not.toBe(answers[0]!.id);
        expect(await rowsWithKey('batch:twice-key')).toHaveLength(1);
      });

      it('stores one message arriving twice in one batch with other trace headers once (Message-ID and body)', async () => {
        const first = mail(
          'Received: from mx1 by mx2; Tue, 1 Apr 2025 08:00:00 +0000\r\nFrom: b0@batch.example\r\nMessage-ID: <copies@batch.example>',
        );
        const copy = mail(
          'Delivered-To: orders@batch.example\r\nReceived: from mx3 by mx4; Tue, 1 Apr 2025 08:00:02 +0000\r\nFrom: b0@batch.example\r\nMessage-ID: <copies@batch.example>',
        );
        // Same Message-ID, another body: another message (a client reusing ids must not lose a sheet).
        const edited = mail('From: b0@batch.example\r\nMessage-ID: <copies@batch.example>', 'V: Hutt\r\n');
        const answers = await storeInboundBatch(db, [
          arrival('batch:copies:1', first),
          arrival('batch:copies:2', copy, { source: 'maildir' }),
          arrival('batch:copies:3', edited),
        ]);
        expect(answers[0]!.duplicate).toBe(false);
        expect(answers[1]).toEqual({ id: answers[0]!.id, duplicate: true });
        expect(answers[2]!.duplicate).toBe(false);
        expect(answers[2]!.id).not.toBe(answers[0]!.id);
        const rows = await rowsWithMessageId('copies@batch.example');
        expect(rows.map((r) => r.sourceKey).sort()).toEqual(['batch:copies:1', 'batch:copies:3']);
        // The copy kept is the first one, as it came.
        expect((await findInbound(db, answers[0]!.id))?.raw.equals(first)).toBe(true);
      });

      it('mixes mail stored before with new mail, answering each in its place', async () => {
        const old = mail('X-Trace: old\r\nMessage-ID: <old@batch.example>');
        const stored = await storeInbound(db, old, { source: 'imap', sourceKey: 'batch:mix:old' });
        const oldCopy = mail('X-Trace: another hop\r\nMessage-ID: <old@batch.example>');
        const answers = await storeInboundBatch(db, [
          arrival('batch:mix:new1', mail('Message-ID: <mix-new1@batch.example>')),
          arrival('batch:mix:old', old),
          arrival('batch:mix:new2', mail('Message-ID: <mix-new2@batch.example>')),
          arrival('batch:mix:old-copy', oldCopy, { source: 'maildir' }),
        ]);
        expect(answers[1]).toEqual({ id: stored.id, duplicate: true });
        expect(answers[3]).toEqual({ id: stored.id, duplicate: true });
        expect(answers[0]!.duplicate).toBe(false);
        expect(answers[2]!.duplicate).toBe(false);
        expect((await findInbound(db, answers[0]!.id))?.sourceKey).toBe('batch:mix:new1');
        expect((await findInbound(db, answers[2]!.id))?.sourceKey).toBe('batch:mix:new2');
        expect(await rowsWithKey('batch:mix:old-copy')).toHaveLength(0);
      });

      it('deduplicates mail without a Message-ID by its source key only, never by its body', async () => {
        const body = mail('From: b1@batch.example\r\nSubject: no id');
        const answers = await storeInboundBatch(db, [
          arrival('batch:noid:a', body),
          arrival('batch:noid:b', body),
          arrival('batch:noid:a', body),
        ]);
        expect(answers[0]!.duplicate).toBe(false);
        expect(answers[1]!.duplicate).toBe(false);
        expect(answers[1]!.id).not.toBe(answers[0]!.id);
        expect(answers[2]).toEqual({ id: answers[0]!.id, duplicate: true });
        expect((await findInbound(db, answers[0]!.id))?.messageId).toBeNull();
        // Offered again in a later batch: still the same rows.
        expect(await storeInboundBatch(db, [arrival('batch:noid:b', body), arrival('batch:noid:a', body)])).toEqual([
          { id: answers[1]!.id, duplicate: true },
          { id: answers[0]!.id, duplicate: true },
        ]);
      });

      it('answers an empty batch with nothing', async () => {
        expect(await storeInboundBatch(db, [])).toEqual([]);
      });

      it('stores what it can when one mail cannot be stored, and still throws for that one', async () => {
        const good = arrival('batch:atomic:good', mail('Message-ID: <atomic@batch.example>'));
        const bad = arrival('batch:atomic:bad', mail('Message-ID: <atomic-bad@batch.example>'), { source: 'pigeon' as InboundSource });
        await expect(storeInboundBatch(db, [good, bad])).rejects.toThrow();
        expect(await rowsWithKey('batch:atomic:good')).toHaveLength(1);
        expect(await rowsWithKey('batch:atomic:bad')).toHaveLength(0);
      });

      it('stores a mail whose Message-ID is overlong or holds control characters, and the rest of its batch', async () => {
        const long = `<${'x'.repeat(5_000)}@batch.example>`;
        const mails = [
          arrival('batch:poison:before', mail('Message-ID: <poison-before@batch.example>')),
          arrival('batch:poison:long', mail(`Message-ID: ${long}`)),
          arrival('batch:poison:nul', mail('Message-ID: <poison\u0000nul@batch.example>')),
          arrival('batch:poison:after', mail('Message-ID: <poison-after@batch.example>')),
        ];
        const stored = await storeInboundBatch(db, mails);
        expect(stored.map((r) => r.duplicate)).toEqual([false, false, false, false]);
        const rows = await Promise.all(stored.map((r) => findInbound(db, r.id)));
        expect(rows.map((r) => r?.messageId)).toEqual(['poison-before@batch.example', null, 'poison', 'poison-after@batch.example']);
        expect(rows[1]!.raw.toString('latin1')).toContain(long); // the bytes as they came
      });

      it('when even a single mail fails with its Message-ID, stores it without one', async () => {
        // Given explicitly (the header reader drops such ids): random, so too big for the index even compressed.
        const [r] = await storeInboundBatch(db, [
          arrival('batch:poison:explicit', mail('Subject: x'), { messageId: randomBytes(6_000).toString('base64') }),
        ]);
        expect((await findInbound(db, r!.id))?.messageId).toBeNull();
      });
    });

    describe('processing many stored messages', () => {
      it('lockInboundMany reads the asked rows without their bytes; unknown ids are absent', async () => {
        const answers = await storeInboundBatch(db, [
          arrival('batch:lock:1', mail('Message-ID: <lock1@batch.example>')),
          arrival('batch:lock:2', mail('Message-ID: <lock2@batch.example>')),
        ]);
        const ids = answers.map((a) => a.id);
        const rows = await db.transaction((tx) => lockInboundMany(tx, [ids[1]!, 999_999_999, ids[0]!]));
        expect([...rows.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
        expect(rows.get(ids[0]!)).toMatchObject({ sourceKey: 'batch:lock:1', status: 'pending' });
        expect(rows.get(ids[0]!)).not.toHaveProperty('raw');
        expect((await db.transaction((tx) => lockInboundMany(tx, []))).size).toBe(0);
      });

      it('markProcessedMany records each outcome, with awkward JSON, and leaves other messages alone', async () => {
        const answers = await storeInboundBatch(
          db,
          [0, 1, 2, 3].map((i) => arrival(`batch:mark:${i}`, mail(`Message-ID: <mark${i}@batch.example>`), { receivedAt: minutes(i) })),
        );
        const [a, b, c, untouched] = answers.map((x) => x.id) as [number, number, number, number];
        const awkward = {
          quote: 'He said "no" \\ and left',
          backslashes: 'C:\\games\\sf\\',
          unicode: 'Ostilità – 東京 🚀 \u2028',
          arrayLike: '{"a","b"}',
          nullWord: 'NULL',
          nested: { list: [1, 'two', null, { three: [true, false] }], empty: {}, none: [] },
          number: 12.5,
        };
        await markProcessedMany(db, [
          {
            id: a,
            outcome: { status: 'processed', outcome: 'sheet', detail: awkward, gameId: GAME, playerId: players[0]!.id, at: minutes(10) },
          },
          {
            id: b,
            outcome: {
              status: 'rejected',
              outcome: 'sender-mismatch',
              detail: { from: 'mallory "the" <m@x>', answered: false },
              gameId: OTHER,
              playerId: null,
              at: minutes(11),
            },
          },
          { id: c, outcome: { status: 'ignored', outcome: 'automatic', at: minutes(12) } },
        ]);
        expect(await findInbound(db, a)).toMatchObject({
          status: 'processed',
          outcome: 'sheet',
          outcomeDetail: awkward,
          gameId: GAME,
          playerId: players[0]!.id,
          processedAt: minutes(10),
        });
        expect(await findInbound(db, b)).toMatchObject({
          status: 'rejected',
          outcome: 'sender-mismatch',
          outcomeDetail: { from: 'mallory "the" <m@x>', answered: false },
          gameId: OTHER,
          playerId: null,
          processedAt: minutes(11),
        });
        expect(await findInbound(db, c)).toMatchObject({
          status: 'ignored',
          outcome: 'automatic',
          outcomeDetail: null,
          gameId: null,
          playerId: null,
          processedAt: minutes(12),
        });
        expect(await findInbound(db, untouched)).toMatchObject({
          status: 'pending',
          outcome: null,
          outcomeDetail: null,
          gameId: null,
          playerId: null,
          processedAt: null,
        });
        // Stored as JSON objects, not as strings holding JSON.
        expect(await storedDetail(a)).toEqual(awkward);
        expect(await storedDetail(b)).toEqual({ from: 'mallory "the" <m@x>', answered: false });
        expect(await storedDetail(c)).toBeNull();
        // Nothing at all: no statement, no error.
        await expect(markProcessedMany(db, [])).resolves.toBeUndefined();
      });

      it('markProcessedMany takes the time of marking when none is given', async () => {
        const [x] = await storeInboundBatch(db, [arrival('batch:mark:now', mail('Message-ID: <mark-now@batch.example>'))]);
        const before = Date.now();
        await markProcessedMany(db, [{ id: x!.id, outcome: { status: 'ignored', outcome: 'own-mail' } }]);
        const after = Date.now();
        const at = (await findInbound(db, x!.id))!.processedAt!.getTime();
        expect(at).toBeGreaterThanOrEqual(before);
        expect(at).toBeLessThanOrEqual(after);
      });
    });

    describe('recordsetInsert and the outbox in bulk', () => {
      it('writes NULLs in text, bigint and jsonb columns, and absent values as NULL', async () => {
        type Row = {
          source: string;
          sourceKey: string;
          messageId?: string | null;
          contentSha256: string;
          raw: Buffer;
          size: number;
          outcome?: string | null;
          outcomeDetail?: unknown;
          playerId?: number | null;
          receivedAt: Date;
        };
        const raw = Buffer.from([0x00, 0xff, 0x5c, 0x22, 0x7b, 0x7d, 0x2c]); // NUL, ÿ, \ " { } ,
        const rows: Row[] = [
          {
            source: 'cli',
            sourceKey: 'batch:bulk:nulls',
            messageId: null,
            contentSha256: 'x',
            raw,
            size: 7,
            outcome: null,
            outcomeDetail: null,
            playerId: null,
            receivedAt: T0,
          },
          { source: 'cli', sourceKey: 'batch:bulk:absent', contentSha256: 'y', raw: Buffer.alloc(0), size: 0, receivedAt: T0 },
          {
            source: 'cli',
            sourceKey: 'batch:bulk:full',
            messageId: 'bulk@batch.example',
            contentSha256: 'z',
            raw,
            size: 7,
            outcome: 'NULL',
            outcomeDetail: { s: 'NULL', q: '"', b: '\\' },
            playerId: players[1]!.id,
            receivedAt: minutes(5),
          },
        ];
        const spec = {
          source: 'text',
          sourceKey: 'text',
          messageId: 'text',
          contentSha256: 'text',
          raw: 'bytea',
          size: 'integer',
          outcome: 'text',
          outcomeDetail: 'jsonb',
          playerId: 'bigint',
          receivedAt: 'timestamptz',
        } as const;
        const returned = await rowsOf<{ key: string }>(
          db,
          recordsetInsert(inboundMessages, spec, rows, { returning: { key: inboundMessages.sourceKey } }),
        );
        expect(returned.map((r) => r.key).sort()).toEqual(['batch:bulk:absent', 'batch:bulk:full', 'batch:bulk:nulls']);
        const [nulls] = await rowsWithKey('batch:bulk:nulls');
        expect(nulls).toMatchObject({ messageId: null, outcome: null, outcomeDetail: null, playerId: null, size: 7, receivedAt: T0 });
        expect(nulls!.raw.equals(raw)).toBe(true);
        const [absent] = await rowsWithKey('batch:bulk:absent');
        expect(absent).toMatchObject({ messageId: null, outcome: null, outcomeDetail: null, playerId: null, size: 0 });
        expect(absent!.raw.length).toBe(0);
        const [full] = await rowsWithKey('batch:bulk:full');
        // The word NULL is a string, not a missing value.
        expect(full).toMatchObject({
          messageId: 'bulk@batch.example',
          outcome: 'NULL',
          outcomeDetail: { s: 'NULL', q: '"', b: '\\' },
          playerId: players[1]!.id,
          receivedAt: minutes(5),
        });
        expect(await storedDetail(full!.id)).toEqual({ s: 'NULL', q: '"', b: '\\' });
        expect(await storedDetail(nulls!.id)).toBeNull();
      });

      it('keeps quotes, backslashes, commas, braces, newlines and unicode intact in text and jsonb', async () => {
        const rows = AWKWARD.map((s, i) => ({
          source: 'cli',
          sourceKey: `batch:awkward:${i}`,
          messageId: s,
          contentSha256: `awkward-${i}`,
          raw: Buffer.from(s, 'utf8'),
          size: Buffer.byteLength(s),
          outcome: s,
          outcomeDetail: { s, list: [s, s], [s]: s },
        }));
        const spec = {
          source: 'text',
          sourceKey: 'text',
          messageId: 'text',
          contentSha256: 'text',
          raw: 'bytea',
          size: 'integer',
          outcome: 'text',
          outcomeDetail: 'jsonb',
        } as const;
        await db.execute(recordsetInsert(inboundMessages, spec, rows));
        const back = await db
          .select()
          .from(inboundMessages)
          .where(
            inArray(
              inboundMessages.sourceKey,
              rows.map((r) => r.sourceKey),
            ),
          )
          .orderBy(asc(inboundMessages.id));
        expect(back.map((r) => r.sourceKey)).toEqual(rows.map((r) => r.sourceKey));
        expect(back.map((r) => r.messageId)).toEqual(AWKWARD);
        expect(back.map((r) => r.outcome)).toEqual(AWKWARD);
        expect(back.map((r) => r.outcomeDetail)).toEqual(rows.map((r) => r.outcomeDetail));
        expect(back.map((r) => r.raw.toString('utf8'))).toEqual(AWKWARD);
      });

      it('writes jsonb values of every JSON kind as they are, a JSON null as NULL', async () => {
        const values: unknown[] = [
          'a string',
          'null',
          '{"not":"an object"}',
          42,
          -0.5,
          true,
          false,
          [],
          [1, 'two', null],
          {},
          { a: { b: [null] } },
          null,
        ];
        const rows = values.map((v, i) => ({
          source: 'cli',
          sourceKey: `batch:kinds:${i}`,
          contentSha256: `kinds-${i}`,
          raw: Buffer.from([i]),
          size: 1,
          outcomeDetail: v,
        }));
        const spec = {
          source: 'text',
          sourceKey: 'text',
          contentSha256: 'text',
          raw: 'bytea',
          size: 'integer',
          outcomeDetail: 'jsonb',
        } as const;
        await db.execute(recordsetInsert(inboundMessages, spec, rows));
        // Read as text: Drizzle's jsonb reader parses a JSON string that looks like JSON a second
        // time ("null" comes back null), which would hide what was stored.
        const back = await rowsOf<{ key: string; detail: string | null }>(
          db,
          sql`select source_key as key, outcome_detail::text as detail from ${inboundMessages}
              where source_key like 'batch:kinds:%' order by id`,
        );
        expect(back.map((r) => r.key)).toEqual(rows.map((r) => r.sourceKey));
        expect(back.map((r) => (r.detail === null ? undefined : JSON.parse(r.detail)))).toEqual(
          values.map((v) => (v === null ? undefined : v)),
        );
        expect(back.at(-1)!.detail).toBeNull(); // SQL NULL, not the JSON value null
      });

      it('enqueueMany writes many mails with awkward text and NULL columns, skipping dedupe keys already there', async () => {
        const letter = (i: number, s: string): OutboxInput => ({
          kind: 'ack',
          gameId: i % 2 ? null : GAME,
          toAddress: `awkward${i}@batch.example`,
          replyTo: i % 3 ? null : s,
          subject: s,
          inReplyTo: null,
          references: i % 2 ? s : null,
          messageId: newMessageId('batch.example'),
          bodyText: `${s}\n--\n${s}`,
          bodyHtml: i % 4 ? null : `<p>${s}</p>`,
          dedupeKey: `batch:enqueue:${i}`,
        });
        const letters = AWKWARD.map((s, i) => letter(i, s));
        await enqueueMany(db, letters);
        // A second batch repeating one key (and holding one new mail): the first stays as it was.
        const again = { ...letter(0, 'a second try'), messageId: newMessageId('batch.example') };
        const fresh = letter(100, 'new');
        await enqueueMany(db, [again, fresh]);
        const back = await db
          .select()
          .from(outbox)
          .where(
            inArray(
              outbox.toAddress,
              [...letters, fresh].map((l) => l.toAddress),
            ),
          )
          .orderBy(asc(outbox.id));
        expect(back).toHaveLength(letters.length + 1);
        for (const l of [...letters, fresh]) {
          const row = back.find((r) => r.dedupeKey === l.dedupeKey);
          expect(row).toMatchObject({
            kind: l.kind,
            gameId: l.gameId,
            toAddress: l.toAddress,
            replyTo: l.replyTo,
            subject: l.subject,
            inReplyTo: null,
            references: l.references,
            messageId: l.messageId,
            bodyText: l.bodyText,
            bodyHtml: l.bodyHtml,
            status: 'pending',
            attempts: 0,
          });
        }
        expect(await findOutboxByMessageId(db, again.messageId)).toBeNull();
        await expect(enqueueMany(db, [])).resolves.toBeUndefined();
      });

      it('ownMessageIds recognises our own Message-IDs among others', async () => {
        const ours = newMessageId('batch.example');
        await enqueueMany(db, [
          {
            kind: 'ack',
            gameId: GAME,
            toAddress: 'own@batch.example',
            subject: 's',
            messageId: ours,
            bodyText: 'b',
            dedupeKey: 'batch:own',
          },
        ]);
        expect(await ownMessageIds(db, [ours, 'theirs@example.org', `x${ours}`])).toEqual(new Set([ours]));
        expect(await ownMessageIds(db, [])).toEqual(new Set());
      });
    });

    describe('reads for a batch', () => {
      it('countSentSince counts only the given kinds since the given time, per address', async () => {
        const since = minutes(-60);
        let n = 0;
        const sent = (to: string, kind: string, at: Date) => ({
          kind,
          gameId: GAME,
          toAddress: to,
          subject: 's',
          messageId: newMessageId('batch.example'),
          bodyText: 'b',
          dedupeKey: `batch:count:${n++}`,
          createdAt: at,
        });
        await db.insert(outbox).values([
          sent('count-a@batch.example', 'ack', minutes(-30)),
          sent('count-a@batch.example', 'refusal', minutes(-10)),
          sent('count-a@batch.example', 'ack', since), // exactly at `since`: counted
          sent('count-a@batch.example', 'welcome', minutes(-5)), // not a reply
          sent('count-a@batch.example', 'ack', minutes(-61)), // before the hour
          sent('count-b@batch.example', 'refusal', minutes(-1)),
          sent('count-b@batch.example', 'chancellor-sheet', minutes(-1)),
          sent('count-c@batch.example', 'ack', minutes(-1)), // not asked about
        ]);
        const counts = await countSentSince(
          db,
          ['count-a@batch.example', 'count-b@batch.example', 'count-d@batch.example'],
          ['ack', 'refusal'],
          since,
        );
        expect(counts).toEqual(
          new Map([
            ['count-a@batch.example', 3],
            ['count-b@batch.example', 1],
          ]),
        );
        expect(await countSentSince(db, ['count-a@batch.example'], ['welcome'], since)).toEqual(new Map([['count-a@batch.example', 1]]));
        expect(await countSentSince(db, [], ['ack'], since)).toEqual(new Map());
      });

      it('latestSheetsOf returns the newest version per faction asked, and nothing for a faction without sheets', async () => {
        const [inbound] = await storeInboundBatch(db, [arrival('batch:sheet-source', mail('Message-ID: <sheet-source@batch.example>'))]);
        const sheet = (faction: string, turn: number, version: number, text: string, inboundId: number | null = null) => ({
          gameId: GAME,
          turn,
          faction,
          version,
          text,
          parsed: { text, orders: [{ from: 'B2', to: 'C3' }], note: 'quote " backslash \\' },
          status: (version % 2 ? 'valid' : 'problems') as 'valid' | 'problems',
          receivedAt: minutes(version),
          inboundId,
        });
        const ids = await insertSheets(db, [
          sheet('sith', 1, 1, 'V: Sith'),
          sheet('sith', 1, 2, 'V: Hutt'),
          sheet('sith', 1, 3, 'V: "Knights", {really}\\', inbound!.id),
          sheet('hutt', 1, 1, 'H: Sith'),
          sheet('sith', 2, 1, 'turn two'),
          sheet('sith', 2, 2, 'turn two, again'),
        ]);
        // insertSheets answers the new sheets' ids by inbound id.
        expect([...ids.keys()]).toEqual([inbound!.id]);
        const latest = await latestSheetsOf(db, [
          { gameId: GAME, turn: 1, faction: 'knights' },
          { gameId: GAME, turn: 1, faction: 'sith' },
          { gameId: GAME, turn: 1, faction: 'hutt' },
          { gameId: GAME, turn: 2, faction: 'sith' },
          { gameId: GAME, turn: 3, faction: 'sith' },
          { gameId: 'no-such-game', turn: 1, faction: 'sith' },
        ]);
        expect(latest.map((s) => [s.turn, s.faction, s.version, s.text]).sort()).toEqual([
          [1, 'hutt', 1, 'H: Sith'],
          [1, 'sith', 3, 'V: "Knights", {really}\\'],
          [2, 'sith', 2, 'turn two, again'],
        ]);
        const sith1 = latest.find((s) => s.turn === 1 && s.faction === 'sith')!;
        expect(sith1.id).toBe(ids.get(inbound!.id));
        expect(sith1.inboundId).toBe(inbound!.id);
        // The raw rows are mapped exactly as Drizzle maps them (types, dates, jsonb).
        const drizzle = await latestSheets(db, GAME, 1);
        expect(latest.filter((s) => s.turn === 1).sort((x, y) => x.faction.localeCompare(y.faction))).toEqual(drizzle);
        expect(sith1.receivedAt).toEqual(minutes(3));
        expect(sith1.createdAt).toBeInstanceOf(Date);
        expect(Number.isNaN(sith1.createdAt.getTime())).toBe(false);
        expect(await latestSheetsOf(db, [])).toEqual([]);
      });

      it('lockTurns locks and returns only the turns asked for, in game and number order', async () => {
        const turns = await db.transaction((tx) =>
          lockTurns(tx, [
            { gameId: OTHER, number: 1 },
            { gameId: GAME, number: 3 },
            { gameId: GAME, number: 1 },
            { gameId: GAME, number: 9 },
            { gameId: 'no-such-game', number: 1 },
          ]),
        );
        expect(turns.map((t) => [t.gameId, t.number])).toEqual([
          [GAME, 1],
          [GAME, 3],
          [OTHER, 1],
        ]);
        expect(turns.map((t) => t.state.gameId)).toEqual([GAME, GAME, OTHER]);
        expect(await db.transaction((tx) => lockTurns(tx, []))).toEqual([]);
      });

      it('playersForMail finds the owners of secrets (any case), their games’ players, and whoever writes from an address', async () => {
        const ids = (ps: Player[]) => ps.map((p) => p.id);
        const [b0, b1, b2, b3, otherHutt, lone] = players;
        // A secret of the game `batches`: all its players; none of the other game.
        expect(ids(await playersForMail(db, { secrets: [' BATC-HM77 '], emails: [] }))).toEqual(ids([b0!, b1!, b2!, b3!]));
        // An address: that player in every game; nobody else.
        expect(ids(await playersForMail(db, { secrets: [], emails: ['B0@Batch.Example'] }))).toEqual(ids([b0!, otherHutt!]));
        expect(ids(await playersForMail(db, { secrets: ['oThe-r888'], emails: ['b3@batch.example'] }))).toEqual(
          ids([b3!, otherHutt!, lone!]),
        );
        expect(await playersForMail(db, { secrets: ['nobody'], emails: ['nobody@batch.example'] })).toEqual([]);
        expect(await playersForMail(db, { secrets: [], emails: [] })).toEqual([]);
        // D-SEAT-3: any of a player's addresses finds them, each row carrying all of them, the primary first.
        await addAddress(db, lone!, 'Lone@Phone.example');
        const [found] = await playersForMail(db, { secrets: [], emails: ['lone@phone.example'] });
        expect(found).toMatchObject({ id: lone!.id, email: 'lone@batch.example', addresses: ['lone@batch.example', 'lone@phone.example'] });
        expect((await playersForMail(db, { secrets: ['oThe-r888'], emails: [] })).map((p) => p.addresses)).toEqual([
          ['b0@batch.example'],
          ['lone@batch.example', 'lone@phone.example'],
        ]);
      });

      it('findGames reads each game asked for once, and nothing for unknown ids', async () => {
        const games = await findGames(db, [GAME, OTHER, GAME, 'no-such-game']);
        expect(games.map((g) => g.id).sort()).toEqual([GAME, OTHER].sort());
        expect(await findGames(db, [])).toEqual([]);
      });
    });
  });
}
