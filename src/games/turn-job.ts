// The weekly turn, driven by a clock: each pass closes the turns whose deadline has passed (after
// intake has caught up with the mail received before it), tells everyone when the Chancellor
// missed the declaration deadline (R-TURN-3), and reminds players whose orders are not in yet.
// Every mail it queues has a dedupe key, and closing is idempotent, so passes may repeat, overlap
// across instances, or be cut short by a crash without anything happening twice.
import type { Logger } from 'pino';
import { reviewSheet } from '../adjudicator/review.ts';
import { sideName } from '../adjudicator/render/vocabulary.ts';
import type { Lang, Problem } from '../adjudicator/types.ts';
import type { Db } from '../db/client.ts';
import { findGames, lockGame, type Game } from '../db/games.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { listPlayers, type Player } from '../db/players.ts';
import { gamesWithPendingDigest } from '../db/press.ts';
import { latestSheetsOf } from '../db/sheets.ts';
import { lockTurn, openTurns, updateTurn, type Turn } from '../db/turns.ts';
import { turnTexts } from '../text/turn-mail.ts';
import { applyAbsenceMail } from './absence-record.ts';
import { allSheetsIn, closeTurn } from './close-turn.ts';
import type { GamesContext } from './context.ts';
import { boardFor } from './input.ts';
import { explainAbsenceLines } from './player-commands.ts';
import { dueReminderOffset, nextTurnDeadlines, turnClosesAt } from './schedule.ts';
import { formatInstant } from './time-format.ts';
import { gamePageUrl, privateAddress } from './welcome.ts';
import { problemLine } from '../text/replies.ts';
import { playerMail } from './game-mail.ts';
import { sendDigests } from './press/digest.ts';

export interface TurnJobDeps {
  db: Db;
  ctx: GamesContext;
  log: Logger;
  /**
   * Resolves true once every mail the mail server received before `deadline` has been read and
   * processed (the intake queue's line); false when that cannot be known yet (the mail server is
   * unreachable): the turn then waits, it is never closed on a partial mailbox.
   */
  catchUp(deadline: Date): Promise<boolean>;
}

export interface TurnJobPass {
  closed: string[];
  waiting: string[];
  notices: number;
  /** Press digests queued (D-PRESS-11). */
  digests: number;
}

/** Games handled at once: each is its own transaction, so a pass over many due games overlaps database round trips. */
const CONCURRENCY = 4;

export async function runTurnJob(deps: TurnJobDeps): Promise<TurnJobPass> {
  const now = deps.ctx.now?.() ?? new Date();
  await applyAbsenceMail(deps.db, deps.ctx);
  const open = await openTurns(deps.db);
  const games = new Map(
    (
      await findGames(
        deps.db,
        open.map((t) => t.gameId),
      )
    ).map((g) => [g.id, g]),
  );
  const pass: TurnJobPass = { closed: [], waiting: [], notices: 0, digests: 0 };
  const work = open.filter((t) => {
    const game = games.get(t.gameId);
    return game && game.status === 'active' && game.currentTurn === t.number;
  });
  // Games due at the same deadline share one catch-up (a thousand games due at 20:00: one sweep).
  const caughtUp = new Map<number, Promise<boolean>>();
  const shared: TurnJobDeps = {
    ...deps,
    catchUp: (deadline) => {
      let p = caughtUp.get(deadline.getTime());
      if (!p) caughtUp.set(deadline.getTime(), (p = deps.catchUp(deadline)));
      return p;
    },
  };
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const turn = work[next++]!;
      const game = games.get(turn.gameId)!;
      try {
        // Before the reminders and the close: the digest due with the last reminder leaves first.
        pass.digests += await sendDigests(deps.db, deps.ctx.mail, game, turn, now);
      } catch (err) {
        deps.log.error({ err, game: turn.gameId }, 'press digest failed for this game');
      }
      try {
        const closesAt = turnClosesAt(game, turn);
        if (closesAt <= now) await closeWhenCaughtUp(shared, game, turn, closesAt, pass);
        else if (turn.earlyAt && turn.earlyAt <= now) await closeEarly(shared, game, turn, pass);
        else pass.notices += await noticesFor(shared, game.id, turn.number, now);
      } catch (err) {
        // One game's failure never holds up the others; the next pass tries again.
        deps.log.error({ err, game: turn.gameId, turn: turn.number }, 'turn job failed for this game');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, work.length) }, worker));
  pass.digests += await otherDigests(deps, new Set(work.map((t) => t.gameId)), now);
  // One line a pass, however many games wait: with a thousand games and a mail server down, one a
  // game would be a thousand lines every pass.
  if (pass.waiting.length)
    deps.log.warn(
      { waiting: pass.waiting.length, games: pass.waiting.slice(0, 10) },
      'deadline passed, waiting for intake to catch up before closing',
    );
  return pass;
}

/**
 * The digests of games the pass did not visit (paused, over, or between turns): press is taken
 * while a game is paused, and what waited at its end still goes, at the player's next 07:00
 * (D-PRESS-32). No reminder slot: such a game has no reminder due.
 */
async function otherDigests(deps: TurnJobDeps, visited: ReadonlySet<string>, now: Date): Promise<number> {
  let digests = 0;
  try {
    const ids = (await gamesWithPendingDigest(deps.db, now)).filter((id) => !visited.has(id));
    if (ids.length === 0) return 0;
    for (const game of await findGames(deps.db, ids)) {
      try {
        digests += await sendDigests(deps.db, deps.ctx.mail, game, null, now);
      } catch (err) {
        deps.log.error({ err, game: game.id }, 'press digest failed for this game');
      }
    }
  } catch (err) {
    // The closes and reminders of this pass are done; the next pass tries the digests again.
    deps.log.error({ err }, 'press digests of paused and finished games failed');
  }
  return digests;
}

async function closeWhenCaughtUp(deps: TurnJobDeps, game: Game, turn: Turn, closesAt: Date, pass: TurnJobPass): Promise<void> {
  const key = `${game.id}#${turn.number}`;
  if (!(await deps.catchUp(closesAt))) {
    pass.waiting.push(key); // logged once for the pass, by runTurnJob
    return;
  }
  const outcome = await closeTurn(deps.db, game.id, turn.number, deps.ctx);
  if (outcome.closed) {
    pass.closed.push(key);
    // closeTurn decided whether it was late (the edict and the referees' mail say so): only logged here.
    const { late } = outcome;
    if (late)
      deps.log.warn(
        { game: game.id, turn: turn.number, lateMinutes: Math.round((late.closedAt.getTime() - late.deadline.getTime()) / 60_000) },
        'turn closed late: the service was not running at its deadline (players are told in the edict, referees by mail)',
      );
    deps.log.info(
      { game: game.id, turn: turn.number, winners: outcome.edict.winners, next: outcome.next?.deadline ?? null },
      'turn closed, edict queued',
    );
  }
}

/**
 * Early processing, when its time has come: the turn closes if every sheet is still valid; if a
 * player has since sent one with problems, the announcement is withdrawn and the deadline stands.
 */
async function closeEarly(deps: TurnJobDeps, game: Game, turn: Turn, pass: TurnJobPass): Promise<void> {
  const key = `${game.id}#${turn.number}`;
  if (!(await deps.catchUp(turn.earlyAt!))) {
    pass.waiting.push(key);
    return;
  }
  const outcome = await closeTurn(deps.db, game.id, turn.number, deps.ctx, { early: true });
  if (outcome.closed) {
    pass.closed.push(key);
    deps.log.info({ game: game.id, turn: turn.number }, 'turn closed early: every sheet was in');
  } else if (outcome.reason === 'not-all-valid') {
    pass.notices += await withdrawEarly(deps, game.id, turn.number);
  }
}

/** Reminders and the missed-declaration notice of one open turn, decided under the turn's lock. */
async function noticesFor(deps: TurnJobDeps, gameId: string, number: number, now: Date): Promise<number> {
  return deps.db.transaction(async (tx) => {
    // The locks order these mails after any sheet being stored (intake holds the turn's lock):
    // a reminder is computed from the sheets as they stand, never from a stale view.
    const game = await lockGame(tx, gameId);
    const turn = game && (await lockTurn(tx, gameId, number));
    if (!game || !turn || turn.status !== 'open') return 0;
    const players = (await listPlayers(tx, gameId)).filter((p) => p.joinedTurn <= number);
    const mails: OutboxInput[] = [];
    const chancellor = turn.state.chancellor;
    const chancellorPlayer = chancellor ? players.find((p) => p.faction === chancellor) : undefined;
    const sheets = await latestSheetsOf(
      tx,
      players.map((p) => ({ gameId, turn: number, faction: p.faction })),
    );
    const sheetOf = new Map(sheets.map((s) => [s.faction, s]));

    // R-TURN-3: the Chancellor's declaration deadline has passed with no sheet from them.
    if (chancellorPlayer && turn.number > 1 && turn.declarationDeadline <= now && !sheetOf.has(chancellorPlayer.faction)) {
      for (const p of players) mails.push(declarationMissed(deps, game, turn, p, chancellorPlayer));
    }
    const board = boardFor(game.map);
    for (const p of players) {
      // The Chancellor's sheet is due at the declaration deadline and final once sent (R-TURN-3):
      // reminded only while nothing has come and the declaration can still be made.
      const isChancellor = p.faction === chancellor && turn.number > 1;
      const due = isChancellor ? turn.declarationDeadline : turn.deadline;
      const offset = dueReminderOffset(game.reminderMinutes, due, now);
      const sheet = sheetOf.get(p.faction) ?? null;
      if (offset === null || sheet?.status === 'valid' || (sheet && isChancellor)) continue;
      const problems = sheet ? explainAbsenceLines(sheet.text, reviewSheet(board, turn.state, p.faction, sheet.text).problems) : null;
      mails.push(reminder(deps, game, turn, p, due, offset, problems));
    }
    // The grace period has begun (the deadline passed): one reminder to whoever has sent nothing.
    if (turn.deadline <= now) {
      for (const p of players) if (!sheetOf.has(p.faction)) mails.push(graceReminder(deps, game, turn, p));
    }
    // Early processing: every player in play has a valid sheet.
    const closesAt = turnClosesAt(game, turn);
    if (game.earlyProcessingMinutes !== null && !turn.earlyAt && allSheetsIn(players, number, sheets, chancellor)) {
      const earlyAt = new Date(now.getTime() + game.earlyProcessingMinutes * 60_000);
      if (earlyAt < closesAt) {
        await updateTurn(tx, gameId, number, { earlyAt });
        for (const p of players) mails.push(earlyNotice(deps, game, turn, p, earlyAt));
      }
    }
    await enqueueMany(tx, mails);
    return mails.length;
  });
}

/** Early processing withdrawn: a sheet with problems came after the announcement. */
async function withdrawEarly(deps: TurnJobDeps, gameId: string, number: number): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    const turn = game && (await lockTurn(tx, gameId, number));
    if (!game || !turn || turn.status !== 'open' || !turn.earlyAt) return 0;
    await updateTurn(tx, gameId, number, { earlyAt: null });
    const players = (await listPlayers(tx, gameId)).filter((p) => p.joinedTurn <= number);
    const mails = players.map((p) =>
      notice(
        deps,
        game,
        p,
        'early-withdrawn',
        `early-withdrawn:${game.id}:${number}:${turn.earlyAt!.toISOString()}:${p.id}`,
        turnTexts[p.lang].earlyWithdrawn({ game: game.id, gameName: game.name, turn: number, deadline: when(game, p, turn.deadline) }),
      ),
    );
    await enqueueMany(tx, mails);
    return mails.length;
  });
}

function earlyNotice(deps: TurnJobDeps, game: Game, turn: Turn, p: Player, earlyAt: Date): OutboxInput {
  // D-TURN-7: the next turn's deadline as the close at earlyAt will set it (an absence may still move it);
  // none after the last turn (R-WIN-2, D-WIN-2: at or past it).
  const last = isLastTurn(game, turn);
  const next = last ? null : when(game, p, nextTurnDeadlines(game, turn.deadline, earlyAt).deadline);
  const rendered = turnTexts[p.lang].early({ game: game.id, gameName: game.name, turn: turn.number, at: when(game, p, earlyAt), next });
  return notice(deps, game, p, 'early', `early:${game.id}:${turn.number}:${earlyAt.toISOString()}:${p.id}`, rendered);
}

function graceReminder(deps: TurnJobDeps, game: Game, turn: Turn, p: Player): OutboxInput {
  const rendered = turnTexts[p.lang].grace({
    game: game.id,
    gameName: game.name,
    turn: turn.number,
    player: p.displayName ?? p.email,
    closesAt: when(game, p, turnClosesAt(game, turn)),
    address: privateAddress(deps.ctx.mail, p.secret),
    page: gamePageUrl(deps.ctx.publicUrl, game.id),
    last: isLastTurn(game, turn),
  });
  return notice(deps, game, p, 'grace', `grace:${game.id}:${turn.number}:${turn.deadline.toISOString()}:${p.id}`, rendered);
}

/** R-WIN-2, D-WIN-2: the game's last turn, or one past it (a length shortened meanwhile). */
const isLastTurn = (game: Game, turn: Turn): boolean => game.lastTurn !== null && turn.number >= game.lastTurn;

const when = (game: Game, p: Player, at: Date) => formatInstant(at, p.timeZone ?? game.timeZone, p.lang);

function notice(
  deps: TurnJobDeps,
  game: Game,
  p: Player,
  kind: string,
  dedupeKey: string,
  rendered: { subject: string; text: string },
): OutboxInput {
  return playerMail(deps.ctx.mail, p, { kind, gameId: game.id, rendered, dedupeKey });
}

/** One per offset per deadline: a moved deadline is a new version, and gets its own reminders. */
function reminder(
  deps: TurnJobDeps,
  game: Game,
  turn: Turn,
  p: Player,
  due: Date,
  offset: number,
  problems: Problem[] | null,
): OutboxInput {
  const lang: Lang = p.lang;
  const T = turnTexts[lang];
  const missing = problems
    ? [
        T.sheetHasProblems,
        ...problems.slice(0, 20).map((q) => T.problemLine(problemLine(q, lang))),
        ...(problems.length > 20 ? [T.moreProblems(problems.length - 20)] : []),
        T.sendCorrected,
      ].join('\n')
    : T.noOrdersYet;
  const rendered = T.reminder({
    game: game.id,
    gameName: game.name,
    turn: turn.number,
    player: p.displayName ?? p.email,
    deadline: when(game, p, due),
    missing,
    address: privateAddress(deps.ctx.mail, p.secret),
    page: gamePageUrl(deps.ctx.publicUrl, game.id),
    last: isLastTurn(game, turn),
  });
  return notice(deps, game, p, 'reminder', `reminder:${game.id}:${turn.number}:${due.toISOString()}:${offset}:${p.id}`, rendered);
}

function declarationMissed(deps: TurnJobDeps, game: Game, turn: Turn, p: Player, chancellor: Player): OutboxInput {
  const board = boardFor(game.map);
  const rendered = turnTexts[p.lang].declarationMissed({
    game: game.id,
    gameName: game.name,
    turn: turn.number,
    chancellor: sideName(board, chancellor.faction, p.lang),
    declarationDeadline: when(game, p, turn.declarationDeadline),
    deadline: when(game, p, turn.deadline),
  });
  const key = `declaration-missed:${game.id}:${turn.number}:${turn.declarationDeadline.toISOString()}:${p.id}`;
  return notice(deps, game, p, 'declaration-missed', key, rendered);
}
