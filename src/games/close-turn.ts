// Closing a turn at its deadline (R-TURN-2 step 4): the standing sheet of every player, the pure
// engine, the edict (version 1) with what it was made from, the next turn opened (or the game
// ended by a victory, R-WIN-1), and every player's edict mail queued — all in one transaction.
// Idempotent: a turn that is no longer open is left alone, so two instances, or a restart after a
// crash, close each turn exactly once.
// The map's pictures (the slow part) are drawn before that transaction, from the same reads and
// the same pure engine, without locks: the transaction takes them when its edict draws the same
// SVG, and draws its own only if something changed in between (a sheet arriving at that moment).
import { adjudicate } from '../adjudicator/adjudicate.ts';
import { ENGINE_VERSION } from '../adjudicator/version.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import type { Edict, GameState } from '../adjudicator/types.ts';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { insertEdictVersion, latestEdict } from '../db/edicts.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { refereeAddressesOf } from '../db/referee-addresses.ts';
import { findGame, lockGame, updateGame, type Game } from '../db/games.ts';
import { listPlayers, type Player } from '../db/players.ts';
import { standingSheets, type Sheet } from '../db/sheets.ts';
import { activeObservers } from '../db/observers.ts';
import { findTurn, insertTurn, lockTurn, updateTurn, type Turn } from '../db/turns.ts';
import { lapseOnClose } from './disputes.ts';
import { drawEdictMaps, publishEdict, type DrawnMaps } from './edict-mail.ts';
import type { GamesContext } from './context.ts';
import { boardFor } from './input.ts';
import { moveForAbsences } from './absence-record.ts';
import { declarationDeadlineOf, nextTurnDeadlines, turnClosesAt } from './schedule.ts';
import { formatInstant } from './time-format.ts';
import { turnTexts } from '../text/turn-mail.ts';
import { gameMail } from './game-mail.ts';

export interface LateClose {
  deadline: Date;
  closedAt: Date;
}

export type CloseOutcome =
  /** `late`: closed more than the late-close margin after its deadline (D-TURN-2), else null. */
  | { closed: true; game: Game; turn: number; edict: Edict; next: Turn | null; late: LateClose | null }
  | { closed: false; reason: 'no-game' | 'not-open' | 'not-due' | 'not-current' | 'not-all-valid' };

export interface CloseTurnOptions {
  /** Close even before the deadline (a referee's decision). */
  force?: boolean;
  /** Early processing: close before the deadline, only if every player in play has a valid sheet. */
  early?: boolean;
  /**
   * Closed this long after the deadline, the service was not running at the deadline: the edict
   * says so (D-TURN-2). Default 15 minutes.
   */
  lateMarginMs?: number;
}

export const LATE_CLOSE_MARGIN_MS = 15 * 60_000;

export async function closeTurn(
  db: Db,
  gameId: string,
  number: number,
  ctx: GamesContext,
  opts: CloseTurnOptions = {},
): Promise<CloseOutcome> {
  const now = ctx.now?.() ?? new Date();
  // Drawn outside the transaction, so that no row lock or pooled connection waits on the pictures.
  // A failure here only means the transaction draws them itself. Passes that overlap in this
  // process (the turn job's, a referee's) share one drawing of a turn until the first has closed
  // it: a picture is only ever taken for its own SVG, so sharing is safe.
  const key = `${gameId}#${number}`;
  let ahead = drawingAhead.get(key);
  const first = ahead === undefined;
  if (ahead === undefined) drawingAhead.set(key, (ahead = drawMapsAhead(db, gameId, number, now, ctx, opts).catch(() => undefined)));
  try {
    return await closeWith(db, gameId, number, ctx, opts, now, await ahead);
  } finally {
    if (first) drawingAhead.delete(key);
  }
}

const drawingAhead = new Map<string, Promise<DrawnMaps | undefined>>();

async function closeWith(
  db: Db,
  gameId: string,
  number: number,
  ctx: GamesContext,
  opts: CloseTurnOptions,
  now: Date,
  drawn: DrawnMaps | undefined,
): Promise<CloseOutcome> {
  return db.transaction(async (tx) => {
    // Lock order everywhere: game, then turn (lockGame).
    const game = await lockGame(tx, gameId);
    if (!game) return { closed: false, reason: 'no-game' } as const;
    const locked = game.currentTurn === number && game.status !== 'finished' ? await lockTurn(tx, gameId, number) : null;
    const due = await adjudicateDue(tx, game, locked, number, now, opts);
    if (!due.ok) return { closed: false, reason: due.reason } as const;
    const { turn, closesAt, standing, players, edict, next } = due;
    const board = boardFor(game.map);
    const finished = edict.gameOver; // R-WIN-1, R-WIN-2: no more deadlines
    // The notice of a next deadline moved by an absence follows the edict it comes after.
    const afterEdict: OutboxInput[] = [];
    const nextTurn = finished ? null : await openNextTurn(tx, game, turn, next, now, ctx, afterEdict);
    // Version 1, or the next one when a rolled-back turn closes again (the archive keeps the old).
    const version = ((await latestEdict(tx, gameId, number))?.version ?? 0) + 1;
    const reason = version > 1 ? 'adjudicated again after the turn was rolled back' : null;
    const margin = opts.lateMarginMs ?? ctx.lateCloseMarginMs ?? LATE_CLOSE_MARGIN_MS;
    const late = now.getTime() - closesAt.getTime() > margin ? { deadline: closesAt, closedAt: now } : null;
    await insertEdictVersion(tx, {
      gameId,
      turn: number,
      version,
      json: edict,
      textIt: renderEdict(edict, board, 'it'),
      textEn: renderEdict(edict, board, 'en'),
      reason,
      createdBy: 'system',
      engineVersion: ENGINE_VERSION,
      sheetIds: Object.fromEntries(standing.map((s) => [s.faction, s.id])),
      stateAfter: next,
      // Data, not only the mail's words: the edict's page and JSON say it was closed late.
      closedLate: late && { deadline: late.deadline.toISOString(), closedAt: late.closedAt.toISOString() },
    });
    await updateTurn(tx, gameId, number, { status: 'adjudicated', adjudicatedAt: now });
    const updated = await updateGame(tx, gameId, finished ? { status: 'finished' } : { currentTurn: number + 1 });

    await publishEdict(
      tx,
      { board, game, edict, version, reason, late, players, nextTurn, mail: ctx.mail, publishedAt: now },
      ctx.publicUrl,
      drawn,
    );
    await enqueueMany(tx, afterEdict);
    if (late) await tellRefereesClosedLate(tx, game, number, late, ctx);
    await lapseOnClose(tx, ctx, game, number, now); // D-PRESS-15: the earlier edicts stand
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId,
      action: 'turn.close',
      detail: {
        turn: number,
        deadline: turn.deadline.toISOString(),
        sheets: standing.map((s) => s.faction),
        winners: edict.winners,
        late: now.getTime() - turn.deadline.getTime(),
      },
    });
    return { closed: true, game: updated ?? game, turn: number, edict, next: nextTurn, late } as const;
  });
}

type Due =
  | { ok: true; turn: Turn; closesAt: Date; standing: Sheet[]; players: Player[]; edict: Edict; next: GameState }
  | { ok: false; reason: 'not-open' | 'not-due' | 'not-current' | 'not-all-valid' };

/**
 * Whether the turn closes now and, if so, its standing sheets and the engine's edict: what the
 * transaction decides under its locks, and what the maps drawn ahead are drawn from.
 */
async function adjudicateDue(db: Db, game: Game, turn: Turn | null, number: number, now: Date, opts: CloseTurnOptions): Promise<Due> {
  if (game.currentTurn !== number || game.status === 'finished') return { ok: false, reason: 'not-current' };
  if (!turn || turn.status !== 'open') return { ok: false, reason: 'not-open' };
  const closesAt = turnClosesAt(game, turn);
  const early = (opts.force || opts.early) && now < closesAt;
  if (!early && closesAt > now) return { ok: false, reason: 'not-due' };
  // The sheets received while the turn took them: to its deadline and grace period (R-TURN-4), or
  // until now when it closes early.
  const standing = await standingSheets(db, game.id, number, early ? now : closesAt);
  const players = await listPlayers(db, game.id);
  if (opts.early && !allSheetsIn(players, number, standing, turn.state.chancellor)) return { ok: false, reason: 'not-all-valid' };
  const texts: Record<string, string> = {};
  for (const sheet of standing) texts[sheet.faction] = sheet.text;
  const { state: next, edict } = adjudicate(boardFor(game.map), turn.state, texts);
  return { ok: true, turn, closesAt, standing, players, edict, next };
}

/** The edict's maps, drawn from the rows as they stand without locking them; undefined when the turn will not close. */
async function drawMapsAhead(
  db: Db,
  gameId: string,
  number: number,
  now: Date,
  ctx: GamesContext,
  opts: CloseTurnOptions,
): Promise<DrawnMaps | undefined> {
  const game = await findGame(db, gameId);
  if (!game) return undefined;
  const due = await adjudicateDue(db, game, await findTurn(db, gameId, number), number, now, opts);
  if (!due.ok) return undefined;
  const watching = ctx.publicUrl ? await activeObservers(db, gameId) : [];
  return drawEdictMaps(boardFor(game.map), game, due.edict, [...due.players.map((p) => p.lang), ...watching.map((o) => o.lang)]);
}

/** Every player in play has a valid sheet; the Chancellor's, final once sent, counts as in (R-TURN-3). */
export function allSheetsIn(players: readonly Player[], turn: number, standing: readonly Sheet[], chancellor: string | null): boolean {
  const inPlay = players.filter((p) => p.joinedTurn <= turn);
  const byFaction = new Map(standing.map((s) => [s.faction, s]));
  return (
    inPlay.length > 0 &&
    inPlay.every((p) => {
      const s = byFaction.get(p.faction);
      return s !== undefined && (s.status === 'valid' || (p.faction === chancellor && turn > 1));
    })
  );
}

async function openNextTurn(
  tx: Db,
  game: Game,
  turn: Turn,
  state: GameState,
  now: Date,
  ctx: GamesContext,
  tell: OutboxInput[],
): Promise<Turn> {
  const planned = nextTurnDeadlines(game, turn.deadline, now);
  // D-ABS-1: a deadline inside an announced absence moves to its end.
  const moved = await moveForAbsences(tx, game, turn.number + 1, planned.deadline, ctx, tell);
  const deadline = moved?.to ?? planned.deadline;
  const declarationDeadline = declarationDeadlineOf(game, deadline);
  return insertTurn(tx, {
    gameId: game.id,
    number: turn.number + 1,
    election: state.election,
    state,
    deadline,
    declarationDeadline,
    status: 'open',
  });
}

/** The service was down across the deadline: the players read it in the edict, the referees by mail. */
async function tellRefereesClosedLate(tx: Db, game: Game, turn: number, late: LateClose, ctx: GamesContext): Promise<void> {
  const referees = (await refereeAddressesOf(tx, [game.id])).get(game.id) ?? [];
  const values = {
    game: game.id,
    gameName: game.name,
    turn,
    deadline: formatInstant(late.deadline, game.timeZone, 'en'),
    closedAt: formatInstant(late.closedAt, game.timeZone, 'en'),
  };
  const text = turnTexts.en.closedLate(values); // referees use the console, in English
  await enqueueMany(
    tx,
    referees.map((to) =>
      gameMail(ctx.mail, {
        kind: 'closed-late',
        gameId: game.id,
        to,
        replySecret: null,
        ...text,
        dedupeKey: `closed-late:${game.id}:${turn}:${to}`,
      }),
    ),
  );
}
