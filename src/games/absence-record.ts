// Recording an absence and moving deadlines for it (D-ABS-1): the application side of absence.ts.
// Moves are written to the audit log (`turn.deadline-moved`), which is also what counts against the
// game's limits; every player is told the new deadline.
import { absencesOfGame, endAbsencesOf, insertAbsence, unrecordedAbsenceMail } from '../db/absences.ts';
import { listAudit, recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame, type Game } from '../db/games.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { findPlayer, listPlayers, type Player } from '../db/players.ts';
import { lockTurn, updateTurn } from '../db/turns.ts';
import { sideName } from '../adjudicator/render/vocabulary.ts';
import { turnTexts } from '../text/turn-mail.ts';
import { boardFor } from './input.ts';
import { deadlineAfterAbsences, localDay, type AbsenceDays } from './absence.ts';
import type { GamesContext } from './context.ts';
import { declarationDeadlineOf } from './schedule.ts';
import { formatInstant } from './time-format.ts';
import { playerMail } from './game-mail.ts';

const MOVED = 'turn.deadline-moved';

export type AbsenceOutcome = { ok: true; moved: { from: Date; to: Date } | null } | { ok: false; reason: 'in-the-past' | 'no-open-turn' };

/**
 * Absences that intake accepted (outcome `absence`, D-ABS-1) and that are not recorded yet: each
 * recorded with its mail, once (a unique index on the mail), the open turn's deadline moved for it.
 */
export async function applyAbsenceMail(db: Db, ctx: GamesContext): Promise<number> {
  const rows = await unrecordedAbsenceMail(db, 100);
  let applied = 0;
  for (const r of rows) {
    const days = (r.detail as { absence?: AbsenceDays } | null)?.absence;
    const player = r.playerId === null ? null : await findPlayer(db, r.playerId);
    if (!r.gameId || !player || !days) continue;
    try {
      await recordAbsence(db, r.gameId, player, days, ctx, r.id);
      applied++;
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err; // another instance recorded it first
    }
  }
  return applied;
}

/** A player's absence: stored, and the open turn's deadline moved if it falls inside it. */
export async function recordAbsence(
  db: Db,
  gameId: string,
  player: Player,
  days: AbsenceDays,
  ctx: GamesContext,
  inboundId: number | null = null,
): Promise<AbsenceOutcome> {
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game || game.status !== 'active') return { ok: false, reason: 'no-open-turn' } as const;
    if (days.toDay < localDay(now, game.timeZone)) return { ok: false, reason: 'in-the-past' } as const;
    await insertAbsence(tx, { gameId, playerId: player.id, fromDay: days.fromDay, toDay: days.toDay, inboundId });
    await recordAudit(tx, { actor: `player:${player.faction}`, gameId, action: 'absence', detail: { ...days, player: player.id } });
    const turn = await lockTurn(tx, gameId, game.currentTurn);
    if (!turn || turn.status !== 'open') return { ok: true, moved: null } as const;
    const moved = await moveForAbsences(tx, game, turn.number, turn.deadline, ctx);
    if (moved) {
      await updateTurn(tx, gameId, turn.number, { deadline: moved.to, declarationDeadline: declarationDeadlineOf(game, moved.to) });
    }
    return { ok: true, moved } as const;
  });
}

/**
 * The absences a player announced end when they leave the seat (D-ABS-2): removed or replaced, their
 * days off no longer move deadlines, and a replacement does not inherit them. The rows stay (the
 * absence mail is recorded once by its row), shortened to end the day before the seat changed; one
 * that had not begun shrinks to that past day.
 */
export async function endAbsences(tx: Db, game: Game, playerId: number, now: Date): Promise<void> {
  const today = localDay(now, game.timeZone);
  const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
  // A day in the past is never an open turn's deadline day; an absence not begun shrinks to it.
  await endAbsencesOf(tx, playerId, today, yesterday);
}

/**
 * Where a turn's deadline goes for the absences in force, within what the limits still allow; the
 * move is recorded and every player told. Null when it stays. The caller stores the new deadline.
 * `tell`: where the mails go instead of the outbox, for a caller that must queue them after its own
 * (a turn's close: the edict first, then the move of the next deadline).
 */
export async function moveForAbsences(
  tx: Db,
  game: Game,
  turn: number,
  deadline: Date,
  ctx: GamesContext,
  tell?: OutboxInput[],
): Promise<{ from: Date; to: Date } | null> {
  const all = await absencesOfGame(tx, game.id);
  if (all.length === 0) return null;
  const past = await listAudit(tx, { gameId: game.id, action: MOVED, limit: 10_000 });
  const perPlayer = new Map<number, number>();
  let usedGame = 0;
  for (const e of past) {
    const d = e.detail as { days: number; players: number[] };
    usedGame += d.days;
    for (const p of d.players) perPlayer.set(p, (perPlayer.get(p) ?? 0) + d.days);
  }
  const result = deadlineAfterAbsences(
    deadline,
    game.timeZone,
    all,
    { perPlayerDays: game.absenceDaysPerPlayer, perGameDays: game.absenceDaysPerGame },
    { perPlayer, game: usedGame },
  );
  if (result.movedDays === 0) return null;
  await recordAudit(tx, {
    actor: 'system',
    gameId: game.id,
    action: MOVED,
    detail: { turn, from: deadline.toISOString(), to: result.deadline.toISOString(), days: result.movedDays, players: result.for },
  });
  const players = await listPlayers(tx, game.id);
  const mails = players.map((p) => deadlineMovedMail(game, turn, p, players, result.for, result.deadline, ctx));
  if (tell) tell.push(...mails);
  else await enqueueMany(tx, mails);
  return { from: deadline, to: result.deadline };
}

function deadlineMovedMail(
  game: Game,
  turn: number,
  p: Player,
  all: readonly Player[],
  absent: number[],
  to: Date,
  ctx: GamesContext,
): OutboxInput {
  const tz = p.timeZone ?? game.timeZone;
  const board = boardFor(game.map);
  const who = all
    .filter((x) => absent.includes(x.id))
    .map((x) => sideName(board, x.faction, p.lang))
    .join(', ');
  const rendered = turnTexts[p.lang].deadlineMoved({
    game: game.id,
    gameName: game.name,
    turn,
    who,
    deadline: formatInstant(to, tz, p.lang),
    declarationDeadline: formatInstant(declarationDeadlineOf(game, to), tz, p.lang),
  });
  return playerMail(ctx.mail, p, {
    kind: 'deadline-moved',
    gameId: game.id,
    rendered,
    dedupeKey: `deadline-moved:${game.id}:${turn}:${to.toISOString()}:${p.id}`,
  });
}
