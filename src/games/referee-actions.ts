// What a referee may do from the console or `sf referee …`, each with a reason: the
// change, its audit-log entry (who, when, what, why) and the mail that tells players all commit in
// one transaction. Amending and rolling back turns are amend-turn.ts.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { latestEdict } from '../db/edicts.ts';
import { lockGame, type Game } from '../db/games.ts';
import { enqueue, enqueueMany, giveUpMail, lockGameMail, requeueMail, type OutboxInput, type OutboxMail } from '../db/outbox.ts';
import { findPlayer, listPlayers, type Player } from '../db/players.ts';
import { findTurn, lockTurn, updateTurn } from '../db/turns.ts';
import { editionPublishedAt } from './dispute-window.ts';
import { edictMails, storeEdictAssets } from './edict-mail.ts';
import { boardFor } from './input.ts';
import { declarationDeadlineOf } from './schedule.ts';
import { playerMail } from './game-mail.ts';
import { formatInstant } from './time-format.ts';
import { refereesToTell } from './disputes.ts';
import { privateAddress, welcomeMail } from './welcome.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import { cleanText } from '../text/typed-text.ts';
import type { GamesContext } from './context.ts';
import { GameError } from './errors.ts';
import { noSuchGame } from '../errors.ts';

/** D-REF-1: one extension moves a deadline by at most 7 days, and never beyond 28 days from now. */
export const MAX_EXTENSION_MINUTES = 7 * 24 * 60;
export const MAX_DEADLINE_AHEAD_MS = 28 * 24 * 3_600_000;
export const MAX_REASON_LENGTH = 1000;

/** A reason is required, one paragraph, and bounded: it goes into mail and the audit log. */
export function checkReason(raw: unknown): string {
  const reason = typeof raw === 'string' ? cleanText(raw).replace(/\s+/g, ' ').trim() : '';
  if (reason === '') throw new GameError('invalid-input', 'every action needs a reason');
  if (reason.length > MAX_REASON_LENGTH) throw new GameError('invalid-input', `a reason may have at most ${MAX_REASON_LENGTH} characters`);
  return reason;
}

async function lockedGame(tx: Db, gameId: string): Promise<Game> {
  const game = await lockGame(tx, gameId);
  if (!game) throw new GameError('no-game', noSuchGame(gameId));
  return game;
}

const playerName = (p: Player) => p.displayName ?? p.email;

/** Moves the open turn's deadline later (capped, D-REF-1) and tells every player. */
export async function extendDeadline(
  db: Db,
  gameId: string,
  minutes: number,
  rawReason: unknown,
  ctx: GamesContext,
): Promise<{ turn: number; deadline: Date; previous: Date }> {
  const reason = checkReason(rawReason);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_EXTENSION_MINUTES)
    throw new GameError('invalid-input', `a deadline moves by 1 to ${MAX_EXTENSION_MINUTES} minutes (7 days) at a time`);
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await lockedGame(tx, gameId);
    if (game.status === 'finished') throw new GameError('not-allowed', 'the game is over');
    const turn = await lockTurn(tx, game.id, game.currentTurn);
    if (!turn || turn.status !== 'open') throw new GameError('no-turn', `turn ${game.currentTurn} is not open`);
    const previous = turn.deadline;
    const deadline = new Date(previous.getTime() + minutes * 60_000);
    if (deadline.getTime() - now.getTime() > MAX_DEADLINE_AHEAD_MS)
      throw new GameError('invalid-input', 'a deadline may be at most 28 days away');
    const declarationDeadline = declarationDeadlineOf(game, deadline);
    await updateTurn(tx, game.id, turn.number, { deadline, declarationDeadline });
    const audit = await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'turn.extend',
      detail: { turn: turn.number, from: previous.toISOString(), to: deadline.toISOString(), minutes, reason },
    });
    const players = await listPlayers(tx, game.id);
    await enqueueMany(
      tx,
      players.map((p): OutboxInput => {
        const tz = p.timeZone ?? game.timeZone;
        const T = refereeTexts[p.lang];
        const declaration = turn.state.chancellor ? T.declarationBy(formatInstant(declarationDeadline, tz, p.lang)) : '';
        const { subject, text } = T.deadlineExtended({
          game: game.id,
          gameName: game.name,
          player: playerName(p),
          turn: turn.number,
          deadline: formatInstant(deadline, tz, p.lang),
          previous: formatInstant(previous, tz, p.lang),
          declaration,
          reason,
          address: privateAddress(ctx.mail, p.secret),
        });
        return playerMail(ctx.mail, p, {
          kind: 'deadline-extended',
          gameId: game.id,
          rendered: { subject, text },
          dedupeKey: `deadline-extended:${audit.id}:${p.id}`,
        });
      }),
    );
    return { turn: turn.number, deadline, previous };
  });
}

async function playerOfGame(tx: Db, game: Game, playerId: number): Promise<Player> {
  const player = await findPlayer(tx, playerId);
  // A removed player's seat is vacant (D-SEAT-1): nobody to send a welcome or an edict to.
  if (!player || player.gameId !== game.id || player.removedAt)
    throw new GameError('no-player', `game ${game.id} has no player ${playerId}`);
  return player;
}

/** Sends a player their welcome mail again (their address and code), with the open turn's deadline. */
export async function resendWelcome(db: Db, gameId: string, playerId: number, rawReason: unknown, ctx: GamesContext): Promise<OutboxMail> {
  const reason = checkReason(rawReason);
  return db.transaction(async (tx) => {
    const game = await lockedGame(tx, gameId);
    const player = await playerOfGame(tx, game, playerId);
    const turn = await findTurn(tx, game.id, game.currentTurn);
    if (!turn) throw new GameError('no-turn', `game ${game.id} has no turn ${game.currentTurn}`);
    const audit = await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'mail.resend-welcome',
      detail: { player: player.email, faction: player.faction, reason },
    });
    const mail = welcomeMail({
      board: boardFor(game.map),
      game,
      player,
      factions: turn.state.factions,
      firstTurn: Math.max(turn.number, player.joinedTurn),
      deadline: turn.deadline,
      mail: ctx.mail,
      publicUrl: ctx.publicUrl,
      settledBy: (await refereesToTell(tx, ctx, game.id)).to,
    });
    return (await enqueue(tx, { ...mail, dedupeKey: `welcome:${player.id}:resend:${audit.id}` })).mail;
  });
}

/** Sends the newest version of a turn's edict again, to one player or to all. */
export async function resendEdict(
  db: Db,
  gameId: string,
  turnNumber: number,
  playerId: number | null,
  rawReason: unknown,
  ctx: GamesContext,
): Promise<number> {
  const reason = checkReason(rawReason);
  return db.transaction(async (tx) => {
    const game = await lockedGame(tx, gameId);
    const edict = await latestEdict(tx, game.id, turnNumber);
    if (!edict) throw new GameError('no-edict', `turn ${turnNumber} of ${game.id} has no edict yet`);
    const players = playerId === null ? await listPlayers(tx, game.id) : [await playerOfGame(tx, game, playerId)];
    const audit = await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'mail.resend-edict',
      detail: { turn: turnNumber, version: edict.version, to: playerId === null ? 'all' : players[0]!.email, reason },
    });
    const board = boardFor(game.map);
    const assets = await storeEdictAssets(
      tx,
      board,
      game,
      edict.json,
      players.map((p) => p.lang),
    );
    const nextTurn = await findTurn(tx, game.id, turnNumber + 1);
    // The window as disputes measure it (dispute-window.ts).
    const publishedAt = editionPublishedAt(edict, edict.version === 1 ? (await findTurn(tx, game.id, turnNumber))?.adjudicatedAt : null);
    const mails = edictMails({
      board,
      game,
      edict: edict.json,
      version: edict.version,
      reason: edict.reason,
      late: null,
      players,
      nextTurn,
      assets,
      mail: ctx.mail,
      publicUrl: ctx.publicUrl,
      publishedAt,
    });
    await enqueueMany(
      tx,
      mails.map((m) => ({ ...m, dedupeKey: `${m.dedupeKey}:resend:${audit.id}` })),
    );
    return mails.length;
  });
}

async function lockedMail(tx: Db, game: Game, outboxId: number): Promise<OutboxMail> {
  const row = await lockGameMail(tx, game.id, outboxId);
  if (!row) throw new GameError('no-mail', `game ${game.id} has no outgoing mail ${outboxId}`);
  return row;
}

/** A mail given up as failed goes back to the queue, due at once, its attempts counted afresh. */
export async function retryMail(db: Db, gameId: string, outboxId: number, rawReason: unknown, ctx: GamesContext): Promise<OutboxMail> {
  const reason = checkReason(rawReason);
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await lockedGame(tx, gameId);
    const mail = await lockedMail(tx, game, outboxId);
    if (mail.status !== 'failed') throw new GameError('not-allowed', `mail ${outboxId} has not failed (it is ${mail.status})`);
    const row = await requeueMail(tx, mail.id, now);
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'mail.retry',
      detail: { outbox: mail.id, to: mail.toAddress, kind: mail.kind, lastError: mail.lastError, reason },
    });
    return row;
  });
}

/** A mail still being retried is given up: marked failed, with the referee's reason as its error. */
export async function dropMail(db: Db, gameId: string, outboxId: number, rawReason: unknown, ctx: GamesContext): Promise<OutboxMail> {
  const reason = checkReason(rawReason);
  return db.transaction(async (tx) => {
    const game = await lockedGame(tx, gameId);
    const mail = await lockedMail(tx, game, outboxId);
    if (mail.status !== 'pending') throw new GameError('not-allowed', `mail ${outboxId} is not waiting to be sent (it is ${mail.status})`);
    const row = await giveUpMail(tx, mail.id, `dropped by ${ctx.actor}: ${reason}`);
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: 'mail.drop',
      detail: { outbox: mail.id, to: mail.toAddress, kind: mail.kind, lastError: mail.lastError, reason },
    });
    return row;
  });
}
