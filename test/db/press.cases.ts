// Press and dispute repositories (docs/press.md §6), run on PGlite (press.test.ts) and on
// PostgreSQL (press.int.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict } from '../../src/adjudicator/types.ts';
import type { Database } from '../../src/db/client.ts';
import {
  countDisputes,
  findDispute,
  hasOpenDispute,
  disputeOfMail,
  gameDisputes,
  insertDispute,
  lapseDisputes,
  openDisputes,
  settleDispute,
} from '../../src/db/disputes.ts';
import { insertEdictVersion } from '../../src/db/edicts.ts';
import { insertGame } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { enqueueMany, listOutbox, newMessageId } from '../../src/db/outbox.ts';
import { insertPlayer } from '../../src/db/players.ts';
import { newPressToken } from '../../src/games/press/press-token.ts';
import {
  addRecipients,
  deliveryOf,
  digestChosenAt,
  gamesWithPendingDigest,
  findOrCreateThread,
  findToken,
  findTokens,
  insertPressMessage,
  issueToken,
  latestBroadcasts,
  listBroadcasts,
  revealedPress,
  listPressForReferee,
  markDigested,
  mutedUncounted,
  messageForReply,
  messagesForReplies,
  recipientsWithMail,
  messageTimesSince,
  mute,
  mutedBy,
  pendingDigest,
  relayDedupeKey,
  reportMessage,
  revokeTokensOfPlayer,
  revokeTokensOfReferee,
  setDelivery,
  unmute,
  type NewPressMessage,
} from '../../src/db/press.ts';
import { gameReferees, referees } from '../../src/db/schema.ts';
import { insertTurn } from '../../src/db/turns.ts';
import { initialState } from '../../src/games/initial-state.ts';

const T0 = new Date('2025-03-20T10:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);
const GAME = 'orione';
const FACTIONS = ['hutt', 'aristocrats', 'sith', 'knights'];

export function pressCases(open: () => Promise<Database>): void {
  let database: Database;
  let db: Database['db'];
  const seat: Record<string, number> = {};
  let refereeId = 0;
  let mails = 0;
  /** A stored mail, for the (inbound, block) key. */
  const inbound = async () =>
    (
      await storeInbound(db, Buffer.from(`Message-ID: <m${++mails}@x.it>\r\n\r\nPRESS\r\n`), {
        source: 'cli',
        sourceKey: `cli:press:${mails}`,
      })
    ).id;
  const message = (m: Partial<NewPressMessage> & Pick<NewPressMessage, 'threadId' | 'text'>): NewPressMessage => ({
    gameId: GAME,
    turn: 1,
    writerPlayerId: seat.sith!,
    writerFaction: 'sith',
    sign: 'signed',
    audienceKind: 'factions',
    audienceFactions: ['hutt'],
    chars: m.text.length,
    status: 'relayed',
    receivedAt: T0,
    visibleAt: T0,
    ...m,
  });

  beforeAll(async () => {
    database = await open();
    db = database.db;
    await insertGame(db, {
      id: GAME,
      name: 'Orione',
      map: 'classic',
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
      declarationLeadMinutes: 1440,
      reminderMinutes: [1440],
      disputeWindowMinutes: 1440,
      victoryPlanets: 12,
      nmrHostility: 'keep',
      status: 'active',
      currentTurn: 1,
    });
    for (const n of [1, 2, 3])
      await insertTurn(db, {
        gameId: GAME,
        number: n,
        election: n === 1,
        state: initialState(classicMap(), GAME, FACTIONS, { victoryPlanets: 12, nmrHostility: 'keep' }),
        deadline: minutes(n * 7 * 24 * 60),
        declarationDeadline: minutes(n * 6 * 24 * 60),
        status: n < 3 ? 'adjudicated' : 'open',
      });
    for (const [i, f] of FACTIONS.entries()) {
      const p = await insertPlayer(db, {
        gameId: GAME,
        faction: f,
        email: `${f}@example.com`,
        lang: 'en',
        secret: `pr${i}a-b${i}cd`,
        joinedTurn: 1,
      });
      seat[f] = p.id;
    }
    const [ref] = await db
      .insert(referees)
      .values({ email: 'ada@example.com', passwordHash: '$argon2id$v=19$m=1,t=1,p=1$x$y' })
      .returning();
    refereeId = ref!.id;
    await db.insert(gameReferees).values({ gameId: GAME, refereeId });
  }, 60_000); // starting PGlite takes seconds, more on a busy machine
  afterAll(async () => {
    await database?.close();
  });

  describe('conversations', () => {
    it('finds a signed conversation again whatever the order its factions are named in; every anonymous one is new (D-PRESS-7)', async () => {
      const a = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['sith', 'hutt', 'knights'] });
      const b = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['knights', 'sith', 'hutt', 'sith'] });
      expect(b.id).toBe(a.id);
      expect(a.participants).toEqual(['hutt', 'knights', 'sith']);
      const other = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['hutt', 'sith'] });
      expect(other.id).not.toBe(a.id);
      // Broadcasts: one conversation per game, whoever is seated.
      const all1 = await findOrCreateThread(db, { gameId: GAME, kind: 'all', participants: FACTIONS });
      const all2 = await findOrCreateThread(db, { gameId: GAME, kind: 'all', participants: ['hutt'] });
      expect(all2.id).toBe(all1.id);
      const anon1 = await findOrCreateThread(db, {
        gameId: GAME,
        kind: 'factions',
        participants: ['hutt', 'knights'],
        hiddenWriterPlayerId: seat.sith!,
      });
      const anon2 = await findOrCreateThread(db, {
        gameId: GAME,
        kind: 'factions',
        participants: ['hutt', 'knights'],
        hiddenWriterPlayerId: seat.sith!,
      });
      expect(anon1.id).not.toBe(anon2.id);
      expect(anon1).toMatchObject({ anonymous: true, hiddenWriterPlayerId: seat.sith });
    });

    it('finds the same conversation when two transactions make it at once', async () => {
      const make = (tx: Database['db']) =>
        findOrCreateThread(tx, { gameId: GAME, kind: 'factions', participants: ['aristocrats', 'knights'] });
      const [a, b] = await Promise.all([db.transaction((tx) => make(tx)), db.transaction((tx) => make(tx))]);
      expect(a.id).toBe(b.id);
    });
  });

  describe('messages', () => {
    it("stores a mail's block once: the same (mail, block) again returns the first (a retried batch)", async () => {
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['hutt', 'sith'] });
      const inboundId = await inbound();
      const first = await insertPressMessage(db, message({ threadId: thread.id, text: 'Truce until turn 6.', inboundId, block: 0 }));
      const again = await insertPressMessage(db, message({ threadId: thread.id, text: 'something else', inboundId, block: 0 }));
      expect(first.duplicate).toBe(false);
      expect(again).toEqual({ message: first.message, duplicate: true });
      const second = await insertPressMessage(db, message({ threadId: thread.id, text: 'Second block.', inboundId, block: 1 }));
      expect(second.duplicate).toBe(false);
      expect(second.message.id).not.toBe(first.message.id);
    });

    it('refuses what the model forbids: a relayed message with no conversation, a refusal without its reason, no writer', async () => {
      await expect(insertPressMessage(db, message({ threadId: null, text: 'x' }))).rejects.toThrow();
      await expect(insertPressMessage(db, message({ threadId: null, text: 'x', status: 'refused' }))).rejects.toThrow();
      await expect(
        insertPressMessage(db, message({ threadId: null, text: 'x', writerPlayerId: null, writerFaction: null })),
      ).rejects.toThrow();
      const refused = await insertPressMessage(
        db,
        message({ threadId: null, text: 'x', status: 'refused', refusal: { reason: 'press-off' } }),
      );
      expect(refused.message.refusal).toEqual({ reason: 'press-off' });
    });

    it('records each recipient once and links them to their relays by dedupe key', async () => {
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['hutt', 'knights', 'sith'] });
      const { message: m } = await insertPressMessage(
        db,
        message({ threadId: thread.id, text: 'To both of you.', audienceFactions: ['hutt', 'knights'], inboundId: await inbound() }),
      );
      const hutt = { kind: 'player' as const, id: seat.hutt! };
      const knights = { kind: 'player' as const, id: seat.knights! };
      const rows = [
        { messageId: m.id, ...hutt, address: 'hutt@example.com', delivery: 'immediate' as const },
        { messageId: m.id, ...knights, address: 'knights@example.com', delivery: 'immediate' as const },
      ];
      await addRecipients(db, rows);
      await addRecipients(db, rows); // a retried batch
      const relayId = newMessageId('sf.example');
      await enqueueMany(db, [
        {
          kind: 'press',
          gameId: GAME,
          toAddress: 'hutt@example.com',
          subject: 's',
          messageId: relayId,
          bodyText: 'b',
          dedupeKey: relayDedupeKey(m.id, hutt),
        },
      ]);
      // Hutt's relay is theirs by its dedupe key; the Knights' is not queued: no mail carried it yet.
      const [relay] = await listOutbox(db, { gameId: GAME });
      expect((await recipientsWithMail(db, [m.id])).map((r) => [r.recipientId, r.mailId])).toEqual(
        [
          [seat.hutt!, relay!.id],
          [seat.knights!, null],
        ].sort((a, b) => Number(a[0]) - Number(b[0])),
      );
      // The reply names the relay in its In-Reply-To: that message; without, the latest to them in the conversation.
      const later = await insertPressMessage(
        db,
        message({ threadId: thread.id, text: 'And another.', audienceFactions: ['hutt', 'knights'], inboundId: await inbound() }),
      );
      await addRecipients(db, [{ messageId: later.message.id, ...hutt, address: 'hutt@example.com', delivery: 'immediate' }]);
      expect((await messageForReply(db, { threadId: thread.id, recipient: hutt, references: ['other@x', relayId], now: T0 }))?.id).toBe(
        m.id,
      );
      expect((await messageForReply(db, { threadId: thread.id, recipient: hutt, references: [], now: T0 }))?.id).toBe(later.message.id);
      // Hutt's relay names nothing for the Knights: their latest in the conversation; a faction it never reached, nothing.
      expect((await messageForReply(db, { threadId: thread.id, recipient: knights, references: [relayId], now: T0 }))?.id).toBe(m.id);
      expect(
        await messageForReply(db, {
          threadId: thread.id,
          recipient: { kind: 'player', id: seat.aristocrats! },
          references: [relayId],
          now: T0,
        }),
      ).toBeNull();

      // D-PRESS-10: without a Message-ID, never one they cannot know of yet: not visible, or muted for them.
      const hidden = await insertPressMessage(
        db,
        message({ threadId: thread.id, text: 'Not yet.', audienceFactions: ['hutt'], inboundId: await inbound(), visibleAt: minutes(12) }),
      );
      const muted = await insertPressMessage(
        db,
        message({ threadId: thread.id, text: 'Muted.', audienceFactions: ['hutt'], inboundId: await inbound() }),
      );
      await addRecipients(db, [
        { messageId: hidden.message.id, ...hutt, address: 'hutt@example.com', delivery: 'immediate' },
        { messageId: muted.message.id, ...hutt, address: 'hutt@example.com', delivery: 'muted' },
      ]);
      expect((await messageForReply(db, { threadId: thread.id, recipient: hutt, references: [], now: T0 }))?.id).toBe(later.message.id);
      expect((await messageForReply(db, { threadId: thread.id, recipient: hutt, references: [], now: minutes(12) }))?.id).toBe(
        hidden.message.id,
      );
    });

    it('answers a reply citing a digest with the message that digest carried, in one read or many', async () => {
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['hutt', 'sith'] });
      const sith = { kind: 'player' as const, id: seat.sith! };
      const carried = await insertPressMessage(
        db,
        message({ threadId: thread.id, text: 'Digested.', audienceFactions: ['sith'], inboundId: await inbound() }),
      );
      const after = await insertPressMessage(
        db,
        message({ threadId: thread.id, text: 'Then this.', audienceFactions: ['sith'], inboundId: await inbound() }),
      );
      await addRecipients(db, [
        { messageId: carried.message.id, ...sith, address: 'sith@example.com', delivery: 'digest' },
        { messageId: after.message.id, ...sith, address: 'sith@example.com', delivery: 'immediate' },
      ]);
      const digestId = newMessageId('sf.example');
      await enqueueMany(db, [
        {
          kind: 'press-digest',
          gameId: GAME,
          toAddress: 'sith@example.com',
          subject: 'd',
          messageId: digestId,
          bodyText: 'b',
          dedupeKey: `digest:${digestId}`,
        },
      ]);
      const [digest] = (await listOutbox(db, { gameId: GAME })).filter((m) => m.messageId === digestId);
      expect(await markDigested(db, seat.sith!, [carried.message.id], { outboxId: digest!.id, at: T0 })).toBe(1);
      const asked = { threadId: thread.id, recipient: sith, references: [`${digestId}`], now: T0 };
      expect((await messageForReply(db, asked))?.id).toBe(carried.message.id);
      const [many] = await messagesForReplies(db, [asked]);
      expect(many).toMatchObject({ named: true, message: { id: carried.message.id } });
      // Citing nothing of theirs: the latest that reached them.
      expect((await messagesForReplies(db, [{ ...asked, references: ['unknown@x'] }]))[0]).toMatchObject({
        named: false,
        message: { id: after.message.id },
      });
      expect((await recipientsWithMail(db, [carried.message.id]))[0]?.mailId).toBe(digest!.id);
    });

    it("gives the writer's accepted messages of the last hour by receipt, those to the referees apart (D-PRESS-4, D-PRESS-12)", async () => {
      const writer = seat.knights!;
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['hutt', 'knights'] });
      const refThread = await findOrCreateThread(db, { gameId: GAME, kind: 'referee', participants: ['knights'] });
      const at = (m: number) => new Date(minutes(600).getTime() + m * 60_000);
      const w = { writerPlayerId: writer, writerFaction: 'knights' };
      await insertPressMessage(db, message({ ...w, threadId: thread.id, text: 'old', receivedAt: at(-61), visibleAt: at(-61) }));
      await insertPressMessage(db, message({ ...w, threadId: thread.id, text: 'a', receivedAt: at(-50), visibleAt: at(-50) }));
      await insertPressMessage(db, message({ ...w, threadId: thread.id, text: 'b', receivedAt: at(-10), visibleAt: at(-10) }));
      await insertPressMessage(
        db,
        message({
          ...w,
          threadId: null,
          text: 'refused',
          status: 'refused',
          refusal: { reason: 'too-long' },
          receivedAt: at(-5),
          visibleAt: at(-5),
        }),
      );
      await insertPressMessage(
        db,
        message({
          ...w,
          threadId: refThread.id,
          audienceKind: 'referee',
          audienceFactions: [],
          text: 'help',
          receivedAt: at(-3),
          visibleAt: at(-3),
        }),
      );
      const times = await messageTimesSince(db, writer, at(-60));
      expect(times.players).toEqual([at(-50), at(-10)]);
      expect(times.referees).toEqual([at(-3)]);
    });
  });

  describe('tokens', () => {
    it('issues one live token per conversation and owner, finds it in any case, and never after revocation (D-PRESS-9)', async () => {
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['aristocrats', 'hutt'] });
      const owner = { kind: 'player' as const, id: seat.aristocrats! };
      const t = await issueToken(db, { threadId: thread.id, owner, domain: 'sf.example', newToken: newPressToken });
      expect(t.token).toMatch(/^p-[a-z2-7]{26}$/);
      expect(t.rootMessageId).toMatch(/^t\.[0-9a-f-]{36}@sf\.example$/);
      expect((await issueToken(db, { threadId: thread.id, owner, domain: 'sf.example', newToken: newPressToken })).token).toBe(t.token);
      const other = await issueToken(db, {
        threadId: thread.id,
        owner: { kind: 'player', id: seat.hutt! },
        domain: 'sf.example',
        newToken: newPressToken,
      });
      expect(other.token).not.toBe(t.token);
      expect(other.rootMessageId).not.toBe(t.rootMessageId);

      const found = await findToken(db, ` ${t.token.toUpperCase()} `);
      expect(found).toMatchObject({
        token: t.token,
        ownerKind: 'player',
        ownerId: seat.aristocrats,
        thread: { id: thread.id, gameId: GAME },
      });
      expect(await findToken(db, 'p-aaaaaaaaaaaaaaaaaaaaaaaaaa')).toBeNull();

      expect(await revokeTokensOfPlayer(db, seat.aristocrats!, minutes(5))).toBe(1);
      expect(await findToken(db, t.token)).toBeNull();
      expect(await findToken(db, other.token)).not.toBeNull();
      // The batch lookup intake uses agrees: live tokens only, in any case, with their conversation.
      const batch = await findTokens(db, [t.token, other.token.toUpperCase(), 'p-aaaaaaaaaaaaaaaaaaaaaaaaaa']);
      expect([...batch.keys()]).toEqual([other.token]);
      expect(batch.get(other.token)).toMatchObject({ ownerId: seat.hutt, thread: { id: thread.id } });
      // Only the owner's live token was revoked; a new one for them is a new token.
      const fresh = await issueToken(db, { threadId: thread.id, owner, domain: 'sf.example', newToken: newPressToken });
      expect(fresh.token).not.toBe(t.token);
    });

    it("revokes a referee's tokens in one game only", async () => {
      const owner = { kind: 'referee' as const, id: refereeId };
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'referee', participants: ['hutt'] });
      const t = await issueToken(db, { threadId: thread.id, owner, domain: 'sf.example', newToken: newPressToken });
      expect(await revokeTokensOfReferee(db, 'elsewhere', refereeId)).toBe(0);
      expect(await findToken(db, t.token)).not.toBeNull();
      expect(await revokeTokensOfReferee(db, GAME, refereeId)).toBe(1);
      expect(await findToken(db, t.token)).toBeNull();
    });

    it('refuses a token with capitals (a lower-case key is the whole of case-insensitivity)', async () => {
      const thread = await findOrCreateThread(db, { gameId: GAME, kind: 'all', participants: [] });
      const { pressTokens } = await import('../../src/db/schema.ts');
      await expect(
        db.insert(pressTokens).values({
          token: 'p-AAAAAAAAAAAAAAAAAAAAAAAAAA',
          threadId: thread.id,
          ownerKind: 'player',
          ownerId: seat.hutt!,
          rootMessageId: 'r@x',
        }),
      ).rejects.toThrow();
    });
  });

  describe('mutes, delivery, digest, reports', () => {
    it('mutes and unmutes a faction and anonymous messages (D-PRESS-11)', async () => {
      const p = seat.hutt!;
      await mute(db, p, { kind: 'faction', faction: 'sith' });
      await mute(db, p, { kind: 'faction', faction: 'sith' });
      await mute(db, p, { kind: 'anonymous' });
      expect((await mutedBy(db, [p, seat.sith!])).get(p)).toEqual([{ kind: 'anonymous' }, { kind: 'faction', faction: 'sith' }]);
      expect((await mutedBy(db, [seat.sith!])).has(seat.sith!)).toBe(false);
      expect(await unmute(db, p, { kind: 'faction', faction: 'sith' })).toBe(true);
      expect(await unmute(db, p, { kind: 'faction', faction: 'sith' })).toBe(false);
      expect((await mutedBy(db, [p])).get(p)).toEqual([{ kind: 'anonymous' }]);
    });

    it("keeps each player's delivery, immediate by default", async () => {
      await setDelivery(db, seat.knights!, 'digest');
      await setDelivery(db, seat.hutt!, 'digest');
      await setDelivery(db, seat.hutt!, 'immediate');
      const d = await deliveryOf(db, [seat.knights!, seat.hutt!, seat.sith!]);
      expect([d.get(seat.knights!), d.get(seat.hutt!), d.get(seat.sith!)]).toEqual(['digest', 'immediate', 'immediate']);
    });

    it('D-PRESS-24: DIGEST again keeps the time it was chosen (the muted count starts there); a change moves it', async () => {
      const s = seat.sith!;
      await setDelivery(db, s, 'digest', minutes(10));
      await setDelivery(db, s, 'digest', minutes(20));
      expect((await digestChosenAt(db, [s])).get(s)).toEqual(minutes(10));
      await setDelivery(db, s, 'immediate', minutes(30));
      await setDelivery(db, s, 'digest', minutes(40));
      expect((await digestChosenAt(db, [s])).get(s)).toEqual(minutes(40));
      await setDelivery(db, s, 'immediate', minutes(50));
    });

    it('gives a digest what waits and is visible, without an anonymous writer, and marks only what it carried', async () => {
      const k = seat.knights!;
      const signed = await findOrCreateThread(db, { gameId: GAME, kind: 'factions', participants: ['knights', 'sith'] });
      const anon = await findOrCreateThread(db, {
        gameId: GAME,
        kind: 'factions',
        participants: ['knights'],
        hiddenWriterPlayerId: seat.hutt!,
      });
      const now = minutes(2000);
      const a = await insertPressMessage(
        db,
        message({ threadId: signed.id, text: 'signed', audienceFactions: ['knights'], visibleAt: minutes(1000) }),
      );
      const b = await insertPressMessage(
        db,
        message({
          threadId: anon.id,
          text: 'anon',
          writerPlayerId: seat.hutt!,
          writerFaction: 'hutt',
          sign: 'anonymous',
          audienceFactions: ['knights'],
          visibleAt: minutes(1500),
        }),
      );
      // Still in its random delay: not in today's digest.
      const c = await insertPressMessage(
        db,
        message({
          threadId: anon.id,
          text: 'later',
          writerPlayerId: seat.hutt!,
          writerFaction: 'hutt',
          sign: 'anonymous',
          audienceFactions: ['knights'],
          visibleAt: minutes(2010),
        }),
      );
      const muted = await insertPressMessage(
        db,
        message({ threadId: signed.id, text: 'muted', audienceFactions: ['knights'], visibleAt: minutes(1200) }),
      );
      for (const m of [a, b, c])
        await addRecipients(db, [{ messageId: m.message.id, kind: 'player', id: k, address: 'knights@example.com', delivery: 'digest' }]);
      await addRecipients(db, [{ messageId: muted.message.id, kind: 'player', id: k, address: 'knights@example.com', delivery: 'muted' }]);

      const items = await pendingDigest(db, GAME, now);
      expect(items.map((i) => i.text)).toEqual(['signed', 'anon']);
      expect(items[0]).toMatchObject({ writerFaction: 'sith', sign: 'signed', recipientId: k, threadId: signed.id });
      expect(items[1]).toMatchObject({ writerFaction: null, sign: 'anonymous' });
      expect(JSON.stringify(items)).not.toMatch(/hutt/);
      expect(await mutedUncounted(db, k, { gameId: GAME, after: minutes(1000), upTo: now })).toBe(1);
      // Only this game's messages are counted (and read).
      expect(await mutedUncounted(db, k, { gameId: 'elsewhere', after: minutes(1000), upTo: now })).toBe(0);
      expect(await gamesWithPendingDigest(db, now)).toEqual([GAME]);
      expect(await mutedUncounted(db, k, { gameId: GAME, after: minutes(1200), upTo: now })).toBe(0);
      // Counted once: marked, it is not counted again.
      expect(await mutedUncounted(db, k, { gameId: GAME, after: minutes(1000), upTo: now, mark: now })).toBe(1);
      expect(await mutedUncounted(db, k, { gameId: GAME, after: minutes(1000), upTo: now })).toBe(0);

      expect(
        await markDigested(
          db,
          k,
          items.map((i) => i.messageId),
          { outboxId: null, at: now },
        ),
      ).toBe(2);
      expect(
        await markDigested(
          db,
          k,
          items.map((i) => i.messageId),
          { outboxId: null, at: now },
        ),
      ).toBe(0);
      expect((await pendingDigest(db, GAME, minutes(2020))).map((i) => i.text)).toEqual(['later']);
      // What waits in its random delay does not count yet; once visible, it does.
      expect(await gamesWithPendingDigest(db, now)).toEqual([]);
      expect(await gamesWithPendingDigest(db, minutes(2020))).toEqual([GAME]);
    });

    it('takes a report once per message and player, and shows reported messages first to the referees with their writer', async () => {
      const anon = await findOrCreateThread(db, {
        gameId: GAME,
        kind: 'factions',
        participants: ['aristocrats'],
        hiddenWriterPlayerId: seat.sith!,
      });
      const { message: m } = await insertPressMessage(
        db,
        message({
          threadId: anon.id,
          text: 'threat',
          sign: 'anonymous',
          audienceFactions: ['aristocrats'],
          receivedAt: minutes(-100),
          visibleAt: minutes(-90),
        }),
      );
      const inboundId = await inbound();
      expect(await reportMessage(db, { messageId: m.id, playerId: seat.aristocrats!, reason: 'insults', inboundId })).toEqual({
        duplicate: false,
      });
      expect(await reportMessage(db, { messageId: m.id, playerId: seat.aristocrats!, reason: 'again', inboundId })).toEqual({
        duplicate: true,
      });
      const list = await listPressForReferee(db, GAME);
      expect(list[0]).toMatchObject({
        id: m.id,
        writerFaction: 'sith',
        writerEmail: 'sith@example.com',
        sign: 'anonymous',
        reports: [{ playerId: seat.aristocrats, reason: 'insults' }],
      });
      expect(list.slice(1).every((r) => r.reports.length === 0)).toBe(true);
      expect(list.length).toBeGreaterThan(5);
    });
  });

  describe('broadcasts', () => {
    it('lists messages to everyone, visible ones only, never an anonymous writer nor when it was written (D-PRESS-10)', async () => {
      const all = await findOrCreateThread(db, { gameId: GAME, kind: 'all', participants: [] });
      const anonAll = await findOrCreateThread(db, {
        gameId: GAME,
        kind: 'all',
        participants: [],
        hiddenWriterPlayerId: seat.aristocrats!,
      });
      const aristocrats = {
        writerPlayerId: seat.aristocrats!,
        writerFaction: 'aristocrats',
        audienceKind: 'all' as const,
        audienceFactions: ['hutt', 'sith', 'knights'],
        public: true,
      };
      const inboundId = await inbound();
      // One mail, a signed and an anonymous broadcast: the anonymous one is seen 7 minutes later.
      await insertPressMessage(
        db,
        message({
          ...aristocrats,
          threadId: all.id,
          text: 'Peace to all.',
          inboundId,
          block: 0,
          receivedAt: minutes(3000),
          visibleAt: minutes(3000),
        }),
      );
      await insertPressMessage(
        db,
        message({
          ...aristocrats,
          threadId: anonAll.id,
          sign: 'anonymous',
          text: 'The Sith lie.',
          inboundId,
          block: 1,
          receivedAt: minutes(3000),
          visibleAt: minutes(3007),
        }),
      );
      await insertPressMessage(
        db,
        message({
          ...aristocrats,
          threadId: all.id,
          text: 'refused',
          status: 'refused',
          refusal: { reason: 'press-closed' },
          receivedAt: minutes(3001),
          visibleAt: minutes(3001),
        }),
      );
      await insertPressMessage(
        db,
        message({
          writerPlayerId: null,
          writerRefereeId: refereeId,
          writerFaction: null,
          audienceKind: 'all',
          threadId: all.id,
          public: true,
          text: 'Play nice.',
          receivedAt: minutes(3002),
          visibleAt: minutes(3002),
        }),
      );

      const early = await listBroadcasts(db, GAME, minutes(3005));
      expect(early.map((b) => b.text)).toEqual(['Peace to all.', 'Play nice.']);
      const later = await listBroadcasts(db, GAME, minutes(3010));
      expect(later).toEqual([
        { turn: 1, writerFaction: 'aristocrats', byReferee: false, sign: 'signed', text: 'Peace to all.', at: minutes(3000) },
        { turn: 1, writerFaction: null, byReferee: true, sign: 'signed', text: 'Play nice.', at: minutes(3002) },
        { turn: 1, writerFaction: null, byReferee: false, sign: 'anonymous', text: 'The Sith lie.', at: minutes(3007) },
      ]);
      const anonymous = JSON.stringify(later.filter((b) => b.sign === 'anonymous'));
      expect(anonymous).not.toMatch(/aristocrat/i);
      expect(anonymous).not.toMatch(new RegExp(`"(id|writerPlayerId)":${seat.aristocrats}`));

      // The game page's newest first, with the count (D-PRESS-28).
      const newest = await latestBroadcasts(db, GAME, 2, minutes(3010));
      expect(newest.total).toBe(3);
      expect(newest.broadcasts.map((b) => b.text)).toEqual(['The Sith lie.', 'Play nice.']);
      expect((await latestBroadcasts(db, GAME, 50, minutes(3005))).total).toBe(2);
      // Revealed at the end (D-PRESS-18): the same, oldest first, never the refused one, the anonymous writer unnamed.
      const revealed = (await revealedPress(db, GAME, minutes(3010))).filter((m) => m.audienceKind === 'all');
      expect(revealed.map((m) => m.text)).toEqual(['Peace to all.', 'Play nice.', 'The Sith lie.']);
      expect(revealed[2]).toMatchObject({ writerFaction: null, sign: 'anonymous', byReferee: false });
      expect(JSON.stringify(revealed[2])).not.toMatch(/aristocrat/i);
      expect(revealed.every((m) => m.conversation >= 1)).toBe(true);
    });
  });

  describe('disputes', () => {
    const edict = { gameId: GAME } as unknown as Edict;
    const edictOf = (turn: number, version: number) => ({
      gameId: GAME,
      turn,
      version,
      json: edict,
      textIt: 'it',
      textEn: 'en',
      createdBy: 'system',
      reason: version > 1 ? 'amended' : null,
    });
    const dispute = (turn: number, inboundId: number, block = 0) => ({
      gameId: GAME,
      turn,
      edictVersion: 1,
      playerId: seat.sith!,
      faction: 'sith',
      inboundId,
      block,
      reason: 'my unit in I8 should have advanced (R-ADV-2)',
      receivedAt: minutes(turn * 10_000),
    });

    beforeAll(async () => {
      await insertEdictVersion(db, edictOf(1, 1));
      await insertEdictVersion(db, edictOf(2, 1));
    });

    it("takes a mail's dispute once, several blocks of a mail apart", async () => {
      const inboundId = await inbound();
      const a = await insertDispute(db, dispute(2, inboundId, 0));
      const again = await insertDispute(db, { ...dispute(2, inboundId, 0), reason: 'other' });
      expect(again).toEqual({ dispute: a.dispute, duplicate: true });
      const b = await insertDispute(db, dispute(2, inboundId, 1));
      expect(b.duplicate).toBe(false);
      expect(a.dispute.status).toBe('open');
      expect(await countDisputes(db, GAME, 2, seat.sith!)).toBe(2);
      expect(await countDisputes(db, GAME, 2, seat.hutt!)).toBe(0);
      // An edict version that does not exist cannot be disputed.
      await expect(insertDispute(db, { ...dispute(2, await inbound()), edictVersion: 9 })).rejects.toThrow();
    });

    it('is open until settled once: rejected with a reason, or amended by a version that exists', async () => {
      const open2 = await openDisputes(db, GAME, 2);
      expect(open2).toHaveLength(2);
      expect(await hasOpenDispute(db, GAME, 2)).toBe(true);
      const [x, y] = open2;
      await expect(settleDispute(db, x!.id, { status: 'rejected', reason: ' ' }, 'referee:ada')).rejects.toThrow(/reason/);
      const rejected = await settleDispute(
        db,
        x!.id,
        { status: 'rejected', reason: 'R-ADV-2 was applied' },
        'referee:ada',
        minutes(20_100),
      );
      expect(rejected).toMatchObject({
        status: 'rejected',
        settledBy: 'referee:ada',
        settlementReason: 'R-ADV-2 was applied',
        settledAt: minutes(20_100),
      });
      expect(await settleDispute(db, x!.id, { status: 'rejected', reason: 'twice' }, 'referee:ada')).toBeNull();
      await expect(settleDispute(db, y!.id, { status: 'amended', version: 2 }, 'referee:ada')).rejects.toThrow();
      await insertEdictVersion(db, edictOf(2, 2));
      expect(await settleDispute(db, y!.id, { status: 'amended', version: 2 }, 'referee:ada')).toMatchObject({
        status: 'amended',
        amendedVersion: 2,
      });
      expect(await hasOpenDispute(db, GAME, 2)).toBe(false);
      expect(await openDisputes(db, GAME)).toEqual([]);
    });

    it('lapses what is still open on the turns before, and nothing else (D-PRESS-15)', async () => {
      const d1 = await insertDispute(db, dispute(1, await inbound()));
      const d2 = await insertDispute(db, dispute(2, await inbound()));
      const lapsed = await lapseDisputes(db, GAME, 2, minutes(30_000));
      expect(lapsed.map((d) => d.id)).toEqual([d1.dispute.id]);
      expect(await findDispute(db, d1.dispute.id)).toMatchObject({ status: 'lapsed', settledBy: 'system' });
      expect(await hasOpenDispute(db, GAME, 1)).toBe(false);
      expect((await openDisputes(db, GAME)).map((d) => d.id)).toEqual([d2.dispute.id]);
      expect(await settleDispute(db, d1.dispute.id, { status: 'rejected', reason: 'late' }, 'referee:ada')).toBeNull();
    });

    it("finds a mail's dispute by (mail, block), and lists a game's disputes open first, then by turn", async () => {
      const mail = await inbound();
      const d = await insertDispute(db, dispute(2, mail, 3));
      expect(await disputeOfMail(db, mail, 3)).toEqual(d.dispute);
      expect(await disputeOfMail(db, mail, 0)).toBeNull();
      const all = await gameDisputes(db, GAME);
      const firstSettled = all.findIndex((x) => x.status !== 'open');
      expect(firstSettled).toBeGreaterThan(0);
      expect(all.slice(firstSettled).every((x) => x.status !== 'open')).toBe(true);
      expect(all.slice(0, firstSettled).map((x) => x.id)).toEqual((await openDisputes(db, GAME)).map((x) => x.id));
      expect(all.some((x) => x.status === 'lapsed') && all.some((x) => x.status === 'rejected')).toBe(true);
    });
  });
}
