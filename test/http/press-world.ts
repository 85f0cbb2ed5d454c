// Press stored in a game of four (hutt, aristocrats, sith, knights) as relays leave it, for the
// pages that publish it (the game page's broadcasts, the revealed archive) and the console: a
// signed broadcast with hostile text over several lines, an anonymous one by the Knights (who
// otherwise write nothing and are written to by nobody, so their name on a page would be a leak),
// private and group messages signed and anonymous, a message to the referees and a referee's
// answer (never published), one not visible yet and one refused (never published either).
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { findOrCreateThread, insertPressMessage, reportMessage } from '../../src/db/press.ts';
import { listPlayers } from '../../src/db/players.ts';
import { findRefereeByEmail } from '../../src/db/referees.ts';
import { addReferee } from '../../src/referee/accounts.ts';
import { games } from '../../src/db/schema.ts';
import { HOSTILE_TEXT } from './hostile-text.ts';

/** Words that appear only in messages never published (to the referees, not yet visible, refused). */
export const UNPUBLISHED = ['REFEREE-PLEA', 'REFEREE-ANSWER', 'NOT-YET-VISIBLE', 'REFUSED-WORDS'];
export const BROADCAST_TEXT = `Peace to all.\nSecond line ${HOSTILE_TEXT}`;
export const ANONYMOUS_BROADCAST = 'Beware the Hutt, all of you.';
/** The anonymous writer: named nowhere a player or the public reads (D-PRESS-10). */
export const ANONYMOUS_WRITER = 'knights';

export async function setPress(db: Db, gameId: string, settings: object): Promise<void> {
  await db.update(games).set({ pressSettings: settings }).where(eq(games.id, gameId));
}

/** Stores the messages (times before `now`), and reports the signed broadcast; returns its id. */
export async function seedPress(db: Db, gameId: string, now: Date = new Date()): Promise<{ reportedId: number }> {
  const players = await listPlayers(db, gameId);
  const p = (f: string) => players.find((x) => x.faction === f)!;
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  let block = 0;
  const store = async (m: {
    writer: string | null;
    refereeId?: number;
    sign: 'signed' | 'anonymous';
    audienceKind: 'factions' | 'all' | 'referee';
    factions?: string[];
    text: string;
    at: Date;
    visibleAt?: Date;
    turn?: number;
    thread: number | null;
    refused?: boolean;
    /** Relayed while the game published its messages to everyone (D-PRESS-33): every broadcast here but one. */
    public?: boolean;
  }) => {
    const { message } = await insertPressMessage(db, {
      gameId,
      threadId: m.thread,
      turn: m.turn ?? 1,
      writerPlayerId: m.writer ? p(m.writer).id : null,
      writerRefereeId: m.refereeId ?? null,
      writerFaction: m.writer,
      sign: m.sign,
      audienceKind: m.audienceKind,
      audienceFactions: m.factions ?? [],
      text: m.text,
      chars: [...m.text].length,
      inboundId: null,
      block: block++,
      status: m.refused ? 'refused' : 'relayed',
      refusal: m.refused ? { reason: 'not-in-play', factions: ['merchants'] } : null,
      receivedAt: m.at,
      visibleAt: m.visibleAt ?? m.at,
      public: m.public ?? (m.audienceKind === 'all' && !m.refused),
    });
    return message.id;
  };
  const all = await findOrCreateThread(db, { gameId, kind: 'all', participants: [] });
  const anonAll = await findOrCreateThread(db, { gameId, kind: 'all', participants: [], hiddenWriterPlayerId: p('knights').id });
  const huttAri = await findOrCreateThread(db, { gameId, kind: 'factions', participants: ['hutt', 'aristocrats'] });
  const anonGroup = await findOrCreateThread(db, {
    gameId,
    kind: 'factions',
    participants: ['aristocrats', 'sith'],
    hiddenWriterPlayerId: p('knights').id,
  });
  const referee = await findOrCreateThread(db, { gameId, kind: 'referee', participants: ['aristocrats'] });
  await addReferee(db, `press-world-${gameId}@x.org`, 'test');
  const ref = (await findRefereeByEmail(db, `press-world-${gameId}@x.org`))!;

  const reportedId = await store({
    writer: 'hutt',
    sign: 'signed',
    audienceKind: 'all',
    text: BROADCAST_TEXT,
    at: ago(300),
    thread: all.id,
  });
  await store({
    writer: 'knights',
    sign: 'anonymous',
    audienceKind: 'all',
    text: ANONYMOUS_BROADCAST,
    at: ago(200),
    visibleAt: ago(190),
    thread: anonAll.id,
  });
  await store({
    writer: 'hutt',
    sign: 'signed',
    audienceKind: 'factions',
    factions: ['aristocrats'],
    text: 'A private deal, Aristocrats.',
    at: ago(180),
    thread: huttAri.id,
  });
  await store({
    writer: 'aristocrats',
    sign: 'signed',
    audienceKind: 'factions',
    factions: ['hutt'],
    text: 'Deal accepted.',
    at: ago(170),
    turn: 2,
    thread: huttAri.id,
  });
  await store({
    writer: 'knights',
    sign: 'anonymous',
    audienceKind: 'factions',
    factions: ['aristocrats', 'sith'],
    text: 'A group whisper.',
    at: ago(160),
    visibleAt: ago(150),
    thread: anonGroup.id,
  });
  // A reply in the anonymous conversation: it reaches the hidden writer too, who is not in its audience.
  await store({
    writer: 'sith',
    sign: 'signed',
    audienceKind: 'factions',
    factions: ['aristocrats'],
    text: 'A reply to the whisperer.',
    at: ago(145),
    thread: anonGroup.id,
  });
  await store({
    writer: 'aristocrats',
    sign: 'signed',
    audienceKind: 'referee',
    text: 'REFEREE-PLEA help',
    at: ago(140),
    thread: referee.id,
  });
  await store({
    writer: null,
    refereeId: ref.id,
    sign: 'signed',
    audienceKind: 'factions',
    factions: ['aristocrats'],
    text: 'REFEREE-ANSWER ok',
    at: ago(130),
    thread: referee.id,
  });
  await store({
    writer: 'sith',
    sign: 'signed',
    audienceKind: 'all',
    text: 'NOT-YET-VISIBLE',
    at: ago(1),
    visibleAt: new Date(now.getTime() + 3_600_000),
    thread: all.id,
  });
  await store({ writer: 'sith', sign: 'signed', audienceKind: 'all', text: 'REFUSED-WORDS', at: ago(100), thread: null, refused: true });
  await reportMessage(db, { messageId: reportedId, playerId: p('sith').id, reason: 'insults', inboundId: null });
  return { reportedId };
}
