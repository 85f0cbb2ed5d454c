// Disputes of an edict (R-TURN-2 step 5, docs/press.md §5): a player's DISPUTE / CONTESTA is
// decided (decideDispute), stored and mailed to the game's referees (or to the operator when the
// game has none, D-PRESS-17); a referee rejects it with a reason or settles it by amending the
// turn (amend-turn.ts); the ones still open when the next turn closes lapse (D-PRESS-15). The
// disputer is told in each case, in their language.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import {
  countDisputes,
  disputeOfMail,
  gameDisputes,
  findDispute,
  insertDispute,
  lapseDisputes,
  openDisputes,
  settleDispute,
} from '../db/disputes.ts';
import type { Dispute } from '../db/disputes.ts';
import { latestEdict } from '../db/edicts.ts';
import { findGame, type Game } from '../db/games.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { findPlayer, listSeats, type Player } from '../db/players.ts';
import { refereeAddressesOf } from '../db/referee-addresses.ts';
import { findTurn } from '../db/turns.ts';
import { noSuchGame } from '../errors.ts';
import { sideName } from '../adjudicator/render/vocabulary.ts';
import { pressTexts } from '../text/press.ts';
import { cleanText } from '../text/typed-text.ts';
import type { GamesContext } from './context.ts';
import { editionPublishedAt } from './dispute-window.ts';
import { GameError } from './errors.ts';
import { gameMail, playerMail } from './game-mail.ts';
import { boardFor } from './input.ts';
import { decideDispute } from './press/decide-press.ts';
import type { DisputePart } from './press/read-press.ts';
import { pressSettingsOf } from './press/settings.ts';

export type FiledDispute =
  | {
      kind: 'filed';
      disputeId: number;
      turn: number;
      /** Who was mailed: the game's referees, the operator (no referee, D-PRESS-17), or nobody yet (kept for the first referee). */
      to: 'referees' | 'operator' | 'kept';
    }
  | {
      kind: 'refused';
      why: 'no-edict' | 'window-closed' | 'too-many' | 'edict-final' | 'too-long';
      /** The edict's turn, when there is one. */
      turn?: number;
      /** `window-closed`: when the window ended. */
      endedAt?: Date;
      /** `too-many`: disputes per turn; `too-long`: characters. */
      max?: number;
      chars?: number;
    };

/**
 * Who hears of a game's disputes and reports (D-REF-11, D-PRESS-17): its referees, else the
 * operator, else nobody yet (kept for the first referee assigned), with the addresses to mail.
 */
export async function refereesToTell(
  db: Db,
  ctx: Pick<GamesContext, 'operatorAddress'>,
  gameId: string,
): Promise<{ to: 'referees' | 'operator' | 'kept'; addresses: string[] }> {
  const referees = (await refereeAddressesOf(db, [gameId])).get(gameId) ?? [];
  if (referees.length) return { to: 'referees', addresses: referees };
  return ctx.operatorAddress ? { to: 'operator', addresses: [ctx.operatorAddress] } : { to: 'kept', addresses: [] };
}

/** Who a dispute of the game goes to (D-REF-11). */
async function toldOf(db: Db, ctx: GamesContext, gameId: string): Promise<'referees' | 'operator' | 'kept'> {
  return (await refereesToTell(db, ctx, gameId)).to;
}

/** The edict a dispute is about: the newest version of the last closed turn's edict. */
async function lastEdictOf(db: Db, game: Game) {
  const turn = game.status === 'finished' ? game.currentTurn : game.currentTurn - 1;
  return turn >= 1 ? latestEdict(db, game.id, turn) : null;
}

const base = (ctx: GamesContext) => (ctx.publicUrl ?? '').replace(/\/+$/, '');
export const edictUrl = (ctx: GamesContext, gameId: string, turn: number) =>
  `${base(ctx)}/games/${encodeURIComponent(gameId)}/turns/${turn}`;
const consoleUrl = (ctx: GamesContext, gameId: string) => `${base(ctx)}/referee/games/${encodeURIComponent(gameId)}/disputes`;
/** The console's press view of a game, where reported messages come first. */
export const pressConsoleUrl = (ctx: Pick<GamesContext, 'publicUrl'>, gameId: string) =>
  `${(ctx.publicUrl ?? '').replace(/\/+$/, '')}/referee/games/${encodeURIComponent(gameId)}/press`;

/**
 * A player's dispute (one DISPUTE block of one mail): decided, stored, and mailed to whoever settles
 * disputes in this game. The same (mail, block) again is the stored dispute, and queues nothing.
 */
export async function fileDispute(
  db: Db,
  ctx: GamesContext,
  a: { game: Game; player: Player; inboundId: number; block: number; reason: string; receivedAt: Date },
): Promise<FiledDispute> {
  if (a.player.gameId !== a.game.id) throw new Error(`player ${a.player.id} does not play in ${a.game.id}`);
  const seen = await disputeOfMail(db, a.inboundId, a.block);
  if (seen) return { kind: 'filed', disputeId: seen.id, turn: seen.turn, to: await toldOf(db, ctx, a.game.id) };
  const edict = await lastEdictOf(db, a.game);
  const next = edict ? await findTurn(db, a.game.id, edict.turn + 1) : null;
  // Version 1 is published when the turn closes (the closing clock, as amend-turn.ts measures the
  // window); an amended version when it is stored, and it opens a fresh window (D-PRESS-14).
  const closed = edict?.version === 1 ? (await findTurn(db, a.game.id, edict.turn))?.adjudicatedAt : null;
  const publishedAt = edict ? editionPublishedAt(edict, closed) : null;
  const reason = cleanText(a.reason).trim();
  const decision = decideDispute({ text: reason, lines: { header: 0, first: 0, last: 0, end: null } } satisfies DisputePart, {
    receivedAt: a.receivedAt,
    latestEdict: edict && publishedAt ? { turn: edict.turn, version: edict.version, publishedAt } : null,
    disputeWindowMinutes: a.game.disputeWindowMinutes,
    nextTurnOpen: !next || next.status === 'open',
    earlier: edict ? await countDisputes(db, a.game.id, edict.turn, a.player.id) : 0,
    maxChars: pressSettingsOf(a.game.pressSettings).maxChars,
  });
  if (decision.kind === 'refused') {
    switch (decision.reason) {
      case 'no-edict':
        return { kind: 'refused', why: 'no-edict' };
      case 'window-closed':
        return { kind: 'refused', why: 'window-closed', turn: decision.turn, endedAt: decision.endedAt };
      case 'edict-final':
        return { kind: 'refused', why: 'edict-final', turn: decision.turn };
      case 'too-many-disputes':
        return { kind: 'refused', why: 'too-many', max: decision.max };
      case 'too-long':
        return { kind: 'refused', why: 'too-long', chars: decision.chars, max: decision.max };
    }
  }
  return db.transaction(async (tx) => {
    const { dispute, duplicate } = await insertDispute(tx, {
      gameId: a.game.id,
      turn: decision.turn,
      edictVersion: decision.version,
      playerId: a.player.id,
      faction: a.player.faction,
      inboundId: a.inboundId,
      block: a.block,
      reason,
      receivedAt: a.receivedAt,
    });
    if (duplicate) return { kind: 'filed', disputeId: dispute.id, turn: dispute.turn, to: await toldOf(tx, ctx, a.game.id) } as const;
    const referees = (await refereeAddressesOf(tx, [a.game.id])).get(a.game.id) ?? [];
    const to = referees.length ? referees : ctx.operatorAddress ? [ctx.operatorAddress] : [];
    // Referees read the console in English; so do its mails (D-PRESS-29), the faction by its name.
    const rendered = pressTexts.en.disputeToReferee({
      game: a.game.id,
      gameName: a.game.name,
      faction: sideName(boardFor(a.game.map), a.player.faction, 'en'),
      turn: dispute.turn,
      version: dispute.edictVersion,
      reason,
      edictUrl: edictUrl(ctx, a.game.id, dispute.turn),
      consoleUrl: consoleUrl(ctx, a.game.id),
    });
    await enqueueMany(
      tx,
      to.map((address) =>
        gameMail(ctx.mail, {
          kind: 'dispute-referee',
          gameId: a.game.id,
          to: address,
          replySecret: null,
          subject: rendered.subject,
          text: rendered.text,
          dedupeKey: `dispute:${dispute.id}:referee:${address}`,
        }),
      ),
    );
    await recordAudit(tx, {
      actor: `player:${a.player.faction}`,
      gameId: a.game.id,
      action: 'dispute.file',
      detail: { dispute: dispute.id, turn: dispute.turn, version: dispute.edictVersion, faction: a.player.faction },
    });
    return {
      kind: 'filed',
      disputeId: dispute.id,
      turn: dispute.turn,
      to: referees.length ? 'referees' : to.length ? 'operator' : 'kept',
    } as const;
  });
}

export interface OpenDispute {
  id: number;
  status: Dispute['status'];
  settlementReason: string | null;
  settledAt: Date | null;
  turn: number;
  edictVersion: number;
  faction: string;
  /** The disputer's address (referees see who disputed; the public never does, D-PRESS-16). */
  player: string;
  reason: string;
  receivedAt: Date;
}

/** The game's open disputes (or every one, open first), by turn then arrival: the console's and `sf referee disputes`' list. */
export async function listOpenDisputes(db: Db, gameId: string, o: { settledToo?: boolean } = {}): Promise<OpenDispute[]> {
  if (!(await findGame(db, gameId))) throw new GameError('no-game', noSuchGame(gameId));
  const open = o.settledToo ? await gameDisputes(db, gameId) : await openDisputes(db, gameId);
  const players = new Map((await listSeats(db, gameId)).map((p) => [p.id, p.email]));
  return open.map((d) => ({
    id: d.id,
    status: d.status,
    settlementReason: d.settlementReason,
    settledAt: d.settledAt,
    turn: d.turn,
    edictVersion: d.edictVersion,
    faction: d.faction,
    player: players.get(d.playerId) ?? '',
    reason: d.reason,
    receivedAt: d.receivedAt,
  }));
}

/** The referee rejects an open dispute with a reason: the edict stands, the disputer is told. */
export async function rejectDispute(
  db: Db,
  ctx: GamesContext,
  r: { gameId: string; disputeId: number; reason: string; actor?: string },
): Promise<Dispute> {
  const reason = cleanText(r.reason).trim();
  if (!reason) throw new GameError('invalid-input', 'rejecting a dispute needs a reason', 'reason');
  const actor = r.actor ?? ctx.actor;
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await findGame(tx, r.gameId);
    if (!game) throw new GameError('no-game', noSuchGame(r.gameId));
    const found = await findDispute(tx, r.disputeId);
    if (!found || found.gameId !== r.gameId)
      throw new GameError('invalid-input', `game ${r.gameId} has no dispute #${r.disputeId}`, 'disputeId');
    const settled = await settleDispute(tx, found.id, { status: 'rejected', reason }, actor, now);
    if (!settled) throw new GameError('turn-closed', `dispute #${found.id} is ${found.status}, not open`);
    await recordAudit(tx, {
      actor,
      gameId: r.gameId,
      action: 'dispute.reject',
      detail: { dispute: settled.id, turn: settled.turn, faction: settled.faction, reason },
    });
    await tellDisputers(tx, ctx, game, [settled], (p) => pressTexts[p.lang].disputeRejected({ game: game.id, turn: settled.turn, reason }));
    return settled;
  });
}

/**
 * After an amendment of `turn` (amend-turn.ts, in its transaction): the turn's open disputes are
 * settled by it and each disputer is told; the amended edict itself goes to everyone already.
 */
export async function settleByAmendment(
  tx: Db,
  ctx: GamesContext,
  game: Game,
  turn: number,
  version: number,
  reason: string,
): Promise<number> {
  const now = ctx.now?.() ?? new Date();
  const settled: Dispute[] = [];
  for (const d of await openDisputes(tx, game.id, turn)) {
    const s = await settleDispute(tx, d.id, { status: 'amended', version, reason }, ctx.actor, now);
    if (s) settled.push(s);
  }
  await tellDisputers(tx, ctx, game, settled, (p) => pressTexts[p.lang].disputeAmended({ game: game.id, turn, version }));
  return settled.length;
}

/** The turn `closed` closed (close-turn.ts, in its transaction): disputes of earlier turns still open lapse, their disputers told. */
export async function lapseOnClose(tx: Db, ctx: GamesContext, game: Game, closed: number, now: Date): Promise<void> {
  const lapsed = await lapseDisputes(tx, game.id, closed, now);
  if (lapsed.length)
    await tellDisputers(tx, ctx, game, lapsed, (p, d) => pressTexts[p.lang].disputeLapsed({ game: game.id, turn: d.turn }));
}

async function tellDisputers(
  tx: Db,
  ctx: GamesContext,
  game: Game,
  settled: readonly Dispute[],
  text: (p: Player, d: Dispute) => { subject: string; text: string },
): Promise<void> {
  const mails: OutboxInput[] = [];
  for (const d of settled) {
    const p = await findPlayer(tx, d.playerId);
    // A disputer who has left the game since is not written to: the seat's new player did not dispute.
    if (!p || p.gameId !== game.id || p.removedAt) continue;
    mails.push(
      playerMail(ctx.mail, p, {
        kind: `dispute-${d.status}`,
        gameId: game.id,
        rendered: text(p, d),
        dedupeKey: `dispute:${d.id}:${d.status}`,
      }),
    );
  }
  await enqueueMany(tx, mails);
}
