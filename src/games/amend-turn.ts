// The referee corrects a closed turn after a dispute (R-TURN-2 step 5, R-EDICT-3): re-adjudicates
// it from its stored position and sheets, with a different advance (R-ADV-2) or a corrected sheet,
// publishes the result as a new edict version with the reason, mails it to every player, and
// re-opens the next turn from the amended position. Or rolls the last closed turn back: the turn
// re-opens with its sheets. One transaction each, audited.
import { adjudicate } from '../adjudicator/adjudicate.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import type { AdjudicationChoices, FactionId, GameState } from '../adjudicator/types.ts';
import { ENGINE_VERSION } from '../adjudicator/version.ts';
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { insertEdictVersion, latestEdict } from '../db/edicts.ts';
import { lockGame, updateGame } from '../db/games.ts';
import { enqueueMany } from '../db/outbox.ts';
import { listPlayers, setJoinedTurn } from '../db/players.ts';
import { sheetsById } from '../db/sheets.ts';
import { deleteTurnAndSheets, lockTurn, updateTurn } from '../db/turns.ts';
import type { GamesContext } from './context.ts';
import { disputeWindowEnd, editionPublishedAt } from './dispute-window.ts';
import { settleByAmendment } from './disputes.ts';
import { publishEdict } from './edict-mail.ts';
import { GameError } from './errors.ts';
import { boardFor } from './input.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import { cleanText } from '../text/typed-text.ts';
import { formatInstant } from './time-format.ts';
import { noSuchGame } from '../errors.ts';
import { playerMail } from './game-mail.ts';

export interface Amendment {
  gameId: string;
  turn: number;
  /** Why, in words every player will read (R-EDICT-3). */
  reason: string;
  /** Freed cell → the cell of the unit that advances into it instead (R-ADV-2). */
  advances?: Record<string, string>;
  /** Faction → the sheet as it should have been read (a justified dispute). */
  correctedSheets?: Record<string, string>;
  /** Amend outside the game's dispute window anyway. */
  confirmOutsideWindow?: boolean;
}

export async function amendTurn(db: Db, a: Amendment, ctx: GamesContext): Promise<{ version: number }> {
  const reason = cleanText(a.reason).trim();
  if (!reason) throw new GameError('invalid-input', 'an amendment needs a reason (R-EDICT-3)', 'reason');
  const corrected = Object.entries(a.correctedSheets ?? {}).map(([f, text]) => [f, cleanText(text)] as const);
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await lockGame(tx, a.gameId);
    if (!game) throw new GameError('no-game', noSuchGame(a.gameId));
    const turn = await lockTurn(tx, a.gameId, a.turn);
    if (!turn || turn.status !== 'adjudicated') throw new GameError('turn-closed', `turn ${a.turn} of ${game.id} has not been adjudicated`);
    const next = await lockTurn(tx, a.gameId, a.turn + 1);
    if (next && next.status !== 'open')
      throw new GameError('turn-closed', `turn ${a.turn + 1} has been closed since: turn ${a.turn} can no longer be amended`);
    const previous = await latestEdict(tx, a.gameId, a.turn);
    if (!previous) throw new GameError('turn-closed', `turn ${a.turn} has no edict`);
    // The window of the latest version, as the players' disputes measure it: an amended version
    // opened a fresh one (D-PRESS-14), not the turn's close.
    const windowEnds = disputeWindowEnd(game, editionPublishedAt(previous, turn.adjudicatedAt));
    if (now > windowEnds && !a.confirmOutsideWindow)
      throw new GameError('turn-closed', `the dispute window of turn ${a.turn} ended ${windowEnds.toISOString()}: confirm to amend anyway`);
    const ids = Object.values((previous.sheetIds ?? {}) as Record<string, number>);
    const texts: Record<string, string> = Object.fromEntries((await sheetsById(tx, ids)).map((s) => [s.faction, s.text]));
    // A sheet only for a faction in play that turn: any other name ('zzz', '__proto__') would publish
    // a new edict version, to every player, that changes nothing.
    for (const [f] of corrected) {
      if (!turn.state.factions.includes(f))
        throw new GameError(
          'invalid-input',
          `${JSON.stringify(f)} is not a faction in play in turn ${a.turn} (${turn.state.factions.join(', ')})`,
          'faction',
        );
    }
    for (const [f, text] of corrected) texts[f] = text;
    const board = boardFor(game.map);
    const choices: AdjudicationChoices = { advances: a.advances ?? {} };
    const { state: after, edict } = adjudicate(board, turn.state, texts, choices);
    for (const [to, from] of Object.entries(a.advances ?? {})) {
      if (!edict.advances.some((x) => x.to === to.toUpperCase() && x.from === from.toUpperCase()))
        throw new GameError(
          'invalid-input',
          `${from} cannot advance into ${to}: it is not one of that cell's candidates (R-ADV-1)`,
          'advances',
        );
    }

    const version = previous.version + 1;
    await insertEdictVersion(tx, {
      gameId: a.gameId,
      turn: a.turn,
      version,
      json: edict,
      textIt: renderEdict(edict, board, 'it'),
      textEn: renderEdict(edict, board, 'en'),
      reason,
      createdBy: ctx.actor,
      engineVersion: ENGINE_VERSION,
      sheetIds: previous.sheetIds,
      stateAfter: after,
      // Stored at the instant its mail says its window opens (publishedAt below), on the same clock.
      createdAt: now,
    });
    // The next turn re-opens from the amended position. What happened since the close and is not
    // the amendment's to change stands: its deadline (absences, extensions) and the players who
    // joined it, whose factions enter when it closes (R-SETUP-4).
    const finished = edict.gameOver; // R-WIN-1, R-WIN-2
    if (next) await updateTurn(tx, a.gameId, a.turn + 1, { state: withJoiners(after, next.state.joining), election: after.election });
    if (finished !== (game.status === 'finished')) await updateGame(tx, a.gameId, { status: finished ? 'finished' : 'active' });
    const players = await listPlayers(tx, a.gameId);
    // D-PRESS-14: an amended version opens a fresh dispute window, from now (as it is stored).
    await publishEdict(
      tx,
      { board, game, edict, version, reason, players, nextTurn: next, mail: ctx.mail, publishedAt: now },
      ctx.publicUrl,
    );
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId: a.gameId,
      action: 'edict.amend',
      detail: {
        turn: a.turn,
        version,
        reason,
        advances: a.advances ?? {},
        correctedSheets: Object.keys(a.correctedSheets ?? {}),
        outsideWindow: now > windowEnds,
      },
    });
    // The disputes of this turn are settled by the amendment; each disputer is told (D-PRESS-15).
    await settleByAmendment(tx, ctx, game, a.turn, version, reason);
    return { version };
  });
}

/**
 * Rolls back the last closed turn: it re-opens with the sheets it had, the turn it had opened is
 * removed (its sheets with it: they answered a position that no longer stands), everyone is told.
 * The withdrawn edict stays in the archive; the turn's next close publishes the next version.
 */
export async function rollBackTurn(db: Db, gameId: string, typedReason: string, newDeadline: Date, ctx: GamesContext): Promise<void> {
  const reason = cleanText(typedReason);
  if (!reason.trim()) throw new GameError('invalid-input', 'a roll-back needs a reason', 'reason');
  const now = ctx.now?.() ?? new Date();
  if (newDeadline <= now) throw new GameError('invalid-input', 'the re-opened turn needs a deadline in the future', 'deadline');
  await db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game) throw new GameError('no-game', noSuchGame(gameId));
    const last = game.status === 'finished' ? game.currentTurn : game.currentTurn - 1;
    const turn = last >= 1 ? await lockTurn(tx, gameId, last) : null;
    if (!turn || turn.status !== 'adjudicated') throw new GameError('turn-closed', `game ${gameId} has no closed turn to roll back`);
    let state = turn.state;
    if (last !== game.currentTurn) {
      // Players who joined the turn that goes still play: they enter when the re-opened turn closes.
      const removed = await lockTurn(tx, gameId, last + 1);
      const joiners = removed?.state.joining ?? [];
      if (joiners.length) {
        state = withJoiners(state, [...(state.joining ?? []), ...joiners]);
        await setJoinedTurn(tx, gameId, joiners, last + 1);
      }
      await deleteTurnAndSheets(tx, gameId, last + 1);
    }
    await updateTurn(tx, gameId, last, {
      state,
      status: 'open',
      adjudicatedAt: null,
      earlyAt: null,
      deadline: newDeadline,
      declarationDeadline: new Date(newDeadline.getTime() - game.declarationLeadMinutes * 60_000),
    });
    await updateGame(tx, gameId, { status: 'active', currentTurn: last });
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId,
      action: 'turn.rollback',
      detail: { turn: last, reason, deadline: newDeadline.toISOString() },
    });
    const players = await listPlayers(tx, gameId);
    await enqueueMany(
      tx,
      players.map((p) => {
        const rendered = refereeTexts[p.lang].turnRolledBack({
          game: gameId,
          gameName: game.name,
          turn: last,
          reason: reason.trim(),
          deadline: formatInstant(newDeadline, p.timeZone ?? game.timeZone, p.lang),
        });
        return playerMail(ctx.mail, p, {
          kind: 'rollback',
          gameId,
          rendered,
          dedupeKey: `rollback:${gameId}:${last}:${now.toISOString()}:${p.id}`,
        });
      }),
    );
  });
}

/** The state with these late joiners (R-SETUP-4) still to enter, leaving out any already in play. */
function withJoiners(state: GameState, joining: FactionId[] | undefined): GameState {
  const waiting = [...new Set(joining ?? [])].filter((f) => !state.factions.includes(f));
  return waiting.length ? { ...state, joining: waiting } : state;
}
