// Closing a turn at its deadline (R-TURN-2 step 4): the standing sheet of every player, the pure
// engine, the edict (version 1) with what it was made from, the next turn opened (or the game
// ended by a victory, R-WIN-1), and every player's edict mail queued — all in one transaction.
// Idempotent: a turn that is no longer open is left alone, so two instances, or a restart after a
// crash, close each turn exactly once.
import { adjudicate } from '../adjudicator/adjudicate.ts';
import { ENGINE_VERSION } from '../adjudicator/version.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import type { Edict, GameState } from '../adjudicator/types.ts';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { insertEdictVersion, latestEdict } from '../db/edicts.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { refereeAddressesOf } from '../db/referee-addresses.ts';
import { lockGame, updateGame, type Game } from '../db/games.ts';
import { listPlayers, type Player } from '../db/players.ts';
import { standingSheets, type Sheet } from '../db/sheets.ts';
import { insertTurn, lockTurn, updateTurn, type Turn } from '../db/turns.ts';
import { publishEdict } from './edict-mail.ts';
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

export async function closeTurn(db: Db, gameId: string, number: number, ctx: GamesContext, opts: CloseTurnOptions = {}): Promise<CloseOutcome> {
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    // Lock order everywhere: game, then turn (lockGame).
    const game = await lockGame(tx, gameId);
    if (!game) return { closed: false, reason: 'no-game' } as const;
    if (game.currentTurn !== number || game.status === 'finished') return { closed: false, reason: 'not-current' } as const;
    const turn = await lockTurn(tx, gameId, number);
    if (!turn || turn.status !== 'open') return { closed: false, reason: 'not-open' } as const;
    const closesAt = turnClosesAt(game, turn);
    const early = (opts.force || opts.early) && now < closesAt;
    if (!early && closesAt > now) return { closed: false, reason: 'not-due' } as const;

    const board = boardFor(game.map);
    // The sheets received while the turn took them: to its deadline and grace period (R-TURN-4), or
    // until now when it closes early.
    const standing = await standingSheets(tx, gameId, number, early ? now : closesAt);
    const players = await listPlayers(tx, gameId);
    if (opts.early && !allSheetsIn(players, number, standing, turn.state.chancellor)) return { closed: false, reason: 'not-all-valid' } as const;
    const texts: Record<string, string> = {};
    for (const sheet of standing) texts[sheet.faction] = sheet.text;
    const { state: next, edict } = adjudicate(board, turn.state, texts);

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

    await publishEdict(tx, { board, game, edict, version, reason, late, players, nextTurn, mail: ctx.mail }, ctx.publicUrl);
    await enqueueMany(tx, afterEdict);
    if (late) await tellRefereesClosedLate(tx, game, number, late, ctx);
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId,
      action: 'turn.close',
      detail: { turn: number, deadline: turn.deadline.toISOString(), sheets: standing.map((s) => s.faction), winners: edict.winners, late: now.getTime() - turn.deadline.getTime() },
    });
    return { closed: true, game: updated ?? game, turn: number, edict, next: nextTurn, late } as const;
  });
}

/** Every player in play has a valid sheet; the Chancellor's, final once sent, counts as in (R-TURN-3). */
export function allSheetsIn(players: readonly Player[], turn: number, standing: readonly Sheet[], chancellor: string | null): boolean {
  const inPlay = players.filter((p) => p.joinedTurn <= turn);
  const byFaction = new Map(standing.map((s) => [s.faction, s]));
  return inPlay.length > 0 && inPlay.every((p) => {
    const s = byFaction.get(p.faction);
    return s !== undefined && (s.status === 'valid' || (p.faction === chancellor && turn > 1));
  });
}

async function openNextTurn(tx: Db, game: Game, turn: Turn, state: GameState, now: Date, ctx: GamesContext, tell: OutboxInput[]): Promise<Turn> {
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
  const values = { game: game.id, gameName: game.name, turn, deadline: formatInstant(late.deadline, game.timeZone, 'en'), closedAt: formatInstant(late.closedAt, game.timeZone, 'en') };
  const text = turnTexts.en.closedLate(values); // referees use the console, in English
  await enqueueMany(tx, referees.map((to) => gameMail(ctx.mail, { kind: 'closed-late', gameId: game.id, to, replySecret: null, ...text, dedupeKey: `closed-late:${game.id}:${turn}:${to}` })));
}
