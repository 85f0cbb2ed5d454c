// The press digest (docs/press.md §4, D-PRESS-11): a player who chose DIGEST gets the messages
// that waited for them in one mail at 07:00 on their clocks, and once more when the orders
// deadline's last reminder is due, each with who wrote it (a faction, or "anonymous"), to whom,
// the text and the reply address of its conversation (the reader's own press token), and how many
// messages their mutes kept from them. Run by the turn job; every pass may repeat it.
import type { Board } from '../../adjudicator/map.ts';
import { sideName, sideNameAsObject } from '../../adjudicator/render/vocabulary.ts';
import type { Db } from '../../db/client.ts';
import type { Game } from '../../db/games.ts';
import { enqueue } from '../../db/outbox.ts';
import { listPlayers, type Player } from '../../db/players.ts';
import { digestChosenAt, markDigested, mutedBy, mutedUncounted, pendingDigest, type DigestItem, type MuteTarget } from '../../db/press.ts';
import type { Turn } from '../../db/turns.ts';
import { pressTexts, type DigestEntry } from '../../text/press.ts';
import { latestDailyTime } from '../deadline.ts';
import { gameMail, privateAddress, type MailAddressing } from '../game-mail.ts';
import { boardFor } from '../input.ts';
import { formatInstant } from '../time-format.ts';
import { pressReplyAddress } from './press-token.ts';

/** The digest's daily time on the reader's clocks. */
export const DIGEST_HOUR = 7;

/**
 * The digest time a player is due at `now`: the latest of today's (or yesterday's) 07:00 in their
 * zone and the open turn's last reminder (`lastReminderAt`, when it has come). A digest carries
 * what was visible by then; one mail per player and slot.
 */
export function digestSlot(now: Date, timeZone: string, lastReminderAt: Date | null): Date {
  const daily = latestDailyTime(now, DIGEST_HOUR, 0, timeZone);
  return lastReminderAt && lastReminderAt <= now && lastReminderAt > daily ? lastReminderAt : daily;
}

/** When the open turn's last reminder before the orders deadline is due (the smallest offset), or null without reminders. */
export function lastReminderAt(game: Pick<Game, 'reminderMinutes'>, turn: Pick<Turn, 'deadline' | 'status'> | null): Date | null {
  const offsets = game.reminderMinutes.filter((m) => m > 0);
  if (!turn || turn.status !== 'open' || offsets.length === 0) return null;
  return new Date(turn.deadline.getTime() - Math.min(...offsets) * 60_000);
}

/** Thrown inside a digest's transaction to undo its marks: this slot's digest went already. */
class AlreadySent extends Error {}

/**
 * Sends the game's due digests: for each seated player with messages waiting, those visible by
 * their slot, in one mail whose dedupe key names player and slot; the messages are marked
 * digested (and the muted ones counted) in the same transaction as the mail is queued, so a pass
 * run twice, or by two instances, sends it once. Run for any game with messages waiting, whatever
 * its state; `turn`: the open turn, whose last reminder is a slot too (none when paused or over,
 * D-PRESS-32). Returns the digests queued.
 */
export async function sendDigests(db: Db, mail: MailAddressing, game: Game, turn: Turn | null, now: Date): Promise<number> {
  const waiting = await pendingDigest(db, game.id, now);
  if (waiting.length === 0) return 0;
  // Only seated players: a seat that changed hands is nobody's to write to (D-PRESS-9).
  const seated = new Map((await listPlayers(db, game.id)).map((p) => [p.id, p]));
  const byPlayer = new Map<number, DigestItem[]>();
  for (const item of waiting) {
    if (!seated.has(item.recipientId)) continue;
    const list = byPlayer.get(item.recipientId);
    if (list) list.push(item);
    else byPlayer.set(item.recipientId, [item]);
  }
  if (byPlayer.size === 0) return 0;
  const players = [...byPlayer.keys()];
  const chosen = await digestChosenAt(db, players);
  // Mutes as they stand now: a MUTE sent while messages waited covers them too (D-PRESS-11).
  const mutes = await mutedBy(db, players);
  const board = boardFor(game.map);
  const reminder = game.status === 'active' ? lastReminderAt(game, turn) : null;
  let sent = 0;
  for (const [playerId, items] of byPlayer) {
    const p = seated.get(playerId)!;
    const slot = digestSlot(now, p.timeZone ?? game.timeZone, reminder);
    const due = items.filter((i) => i.visibleAt <= slot);
    const muted = mutes.get(playerId) ?? [];
    const isMuted = (i: DigestItem) => mutedNow(i, muted);
    const shown = due.filter((i) => !isMuted(i));
    // Nothing to show: what is muted waits (an UNMUTE before the next digest lets it through).
    if (shown.length === 0) continue;
    const hidden = due.filter(isMuted).map((i) => i.messageId);
    try {
      await db.transaction(async (tx) => {
        const since = chosen.get(playerId) ?? slot;
        // Marked first, counted from what the marks return: a muted message committed meanwhile
        // is either marked and counted here or left for the next digest, never marked uncounted.
        const count =
          (await markDigested(tx, playerId, hidden, { outboxId: null, at: now })) +
          (await mutedUncounted(tx, playerId, { gameId: game.id, after: since, upTo: slot, mark: now }));
        const m = digestMail(mail, game, board, p, shown, count, slot);
        const { mail: row, duplicate } = await enqueue(tx, m);
        // This slot's digest went already: what arrived since waits for the next one.
        if (duplicate) throw new AlreadySent();
        await markDigested(
          tx,
          playerId,
          shown.map((i) => i.messageId),
          { outboxId: row.id, at: now },
        );
      });
      sent++;
    } catch (err) {
      if (!(err instanceof AlreadySent)) throw err;
    }
  }
  return sent;
}

/** Whether the reader's mutes cover this message: a signed one by its faction, an anonymous one only by MUTE ANONYMOUS (D-PRESS-25); a referee's never. */
function mutedNow(i: DigestItem, muted: readonly MuteTarget[]): boolean {
  if (i.byReferee) return false;
  if (i.sign === 'anonymous') return muted.some((t) => t.kind === 'anonymous');
  return muted.some((t) => t.kind === 'faction' && t.faction === i.writerFaction);
}

function digestMail(mail: MailAddressing, game: Game, board: Board, p: Player, items: DigestItem[], muted: number, slot: Date) {
  const T = pressTexts[p.lang];
  // "A: te e i Cavalieri": Italian names the audience with its articles, as the relays do.
  const name = (x: string) => (x === p.faction ? T.you : sideNameAsObject(board, x, p.lang));
  const entries: DigestEntry[] = items.map((i) => ({
    // The anonymous writer never leaves the database here (pendingDigest): "anonymous" to all.
    from: i.byReferee ? T.referee : i.writerFaction ? sideName(board, i.writerFaction, p.lang) : null,
    to:
      i.audienceKind === 'all'
        ? T.everyone
        : i.audienceKind === 'referee'
          ? T.referees
          : // The hidden writer of a conversation reads a reply to it: named "you" to themselves.
            T.list([...i.audienceFactions.map(name), ...(i.audienceFactions.includes(p.faction) ? [] : [T.you])]),
    turn: i.turn,
    text: i.text,
    replyAddress: i.replyToken ? pressReplyAddress(mail, i.replyToken) : privateAddress(mail, p.secret),
  }));
  const rendered = T.digest({
    game: game.id,
    gameName: game.name,
    until: formatInstant(slot, p.timeZone ?? game.timeZone, p.lang),
    entries,
    muted,
    privateAddress: privateAddress(mail, p.secret),
  });
  return gameMail(mail, {
    kind: 'press-digest',
    gameId: game.id,
    to: p.email,
    replySecret: p.secret,
    subject: rendered.subject,
    text: rendered.text,
    dedupeKey: `press-digest:${p.id}:${slot.toISOString()}`,
  });
}
