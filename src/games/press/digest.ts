// The press digest (docs/press.md §4, D-PRESS-11): a player who chose DIGEST gets the messages
// that waited for them in one mail at 07:00 on their clocks, and once more when the orders
// deadline's last reminder is due, each with who wrote it (a faction, or "anonymous"), to whom,
// the text and the reply address of its conversation (the reader's own press token), and how many
// messages their mutes kept from them. Run by the turn job; every pass may repeat it.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { Db } from '../../db/client.ts';
import type { Game } from '../../db/games.ts';
import { enqueue } from '../../db/outbox.ts';
import { listPlayers, type Player } from '../../db/players.ts';
import { digestChosenAt, markDigested, mutedUncounted, pendingDigest, type DigestItem } from '../../db/press.ts';
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

/**
 * Sends the game's due digests: for each seated player with messages waiting, those visible by
 * their slot, in one mail whose dedupe key names player and slot; the messages are marked
 * digested (and the muted ones counted) in the same transaction as the mail is queued, so a pass
 * run twice, or by two instances, sends it once. Returns the digests queued.
 */
export async function sendDigests(db: Db, mail: MailAddressing, game: Game, turn: Turn | null, now: Date): Promise<number> {
  const waiting = await pendingDigest(db, game.id, now);
  if (waiting.length === 0) return 0;
  // Only seated players: a seat that changed hands is nobody's to write to (D-PRESS-9).
  const seated = new Map((await listPlayers(db, game.id)).map((p) => [p.id, p]));
  const byPlayer = new Map<number, DigestItem[]>();
  for (const item of waiting)
    if (seated.has(item.recipientId)) byPlayer.set(item.recipientId, [...(byPlayer.get(item.recipientId) ?? []), item]);
  if (byPlayer.size === 0) return 0;
  const chosen = await digestChosenAt(db, [...byPlayer.keys()]);
  const board = boardFor(game.map);
  const reminder = lastReminderAt(game, turn);
  let sent = 0;
  for (const [playerId, items] of byPlayer) {
    const p = seated.get(playerId)!;
    const slot = digestSlot(now, p.timeZone ?? game.timeZone, reminder);
    const due = items.filter((i) => i.visibleAt <= slot);
    if (due.length === 0) continue;
    const queued = await db.transaction(async (tx) => {
      const since = chosen.get(playerId) ?? slot;
      const muted = await mutedUncounted(tx, playerId, { after: since, upTo: slot });
      const m = digestMail(mail, game, board, p, due, muted, slot);
      const { mail: row, duplicate } = await enqueue(tx, m);
      // This slot's digest went already: what arrived since waits for the next one.
      if (duplicate) return false;
      await markDigested(
        tx,
        playerId,
        due.map((i) => i.messageId),
        { outboxId: row.id, at: now },
      );
      await mutedUncounted(tx, playerId, { after: since, upTo: slot, mark: now });
      return true;
    });
    if (queued) sent++;
  }
  return sent;
}

function digestMail(mail: MailAddressing, game: Game, board: Board, p: Player, items: DigestItem[], muted: number, slot: Date) {
  const T = pressTexts[p.lang];
  const name = (x: string) => (x === p.faction ? T.you : sideName(board, x, p.lang));
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
