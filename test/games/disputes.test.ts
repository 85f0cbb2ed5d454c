// Disputes of an edict (R-TURN-2 step 5, D-PRESS-14..17): filed within the window, at most 3 per
// turn, once per (mail, block); mailed to the referees (or the operator); rejected, settled by an
// amendment, or lapsed when the next turn closes — the disputer told each time.
import { describe, expect, it } from 'vitest';
import { listAudit } from '../../src/db/audit.ts';
import type { Db } from '../../src/db/client.ts';
import { findDispute, hasOpenDispute, openDisputes } from '../../src/db/disputes.ts';
import { findGame, type Game } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { listPlayers, type Player } from '../../src/db/players.ts';
import { amendTurn } from '../../src/games/amend-turn.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { fileDispute, rejectDispute } from '../../src/games/disputes.ts';
import { createGame } from '../../src/games/index.ts';
import { databasePerFile } from '../harness/pglite.ts';
import { gameWithReferee, MAIL, NOW } from '../referee/world.ts';

const dbs = databasePerFile();
const PLAYERS = ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'];
const MINUTE = 60_000;
let clock = NOW;
const ctx = { actor: 'referee:ref@x.org', mail: MAIL, now: () => clock, publicUrl: 'https://sf.example/' };

let mails = 0;
async function inbound(db: Db): Promise<number> {
  const raw = new TextEncoder().encode(`Message-ID: <d${++mails}@x.org>\r\n\r\nDISPUTE\r\n`);
  return (await storeInbound(db, raw, { source: 'imap', sourceKey: `test:${mails}` })).id;
}

/** A game with a referee whose turn 1 has closed (its edict published at NOW). */
async function closedGame(db: Db, name = 'Andromeda'): Promise<{ game: Game; players: Player[] }> {
  clock = NOW;
  const { gameId } = await gameWithReferee(db, name, PLAYERS, 'ref@x.org');
  expect((await closeTurn(db, gameId, 1, { actor: 'test', mail: MAIL, now: () => NOW }, { force: true })).closed).toBe(true);
  return { game: (await findGame(db, gameId))!, players: await listPlayers(db, gameId) };
}

const file = async (db: Db, game: Game, player: Player, reason = 'Our fleet held I8', at = NOW) =>
  fileDispute(db, ctx, { game, player, inboundId: await inbound(db), block: 0, reason, receivedAt: at });

describe('filing a dispute', () => {
  it('is refused before the first edict', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Early', PLAYERS, 'ref@x.org');
    const game = (await findGame(db, gameId))!;
    const [p] = await listPlayers(db, gameId);
    expect(await file(db, game, p!)).toEqual({ kind: 'refused', why: 'no-edict' });
    expect(await openDisputes(db, gameId)).toEqual([]);
  });

  it('within the window: stored, and mailed to the referee with the reason and the edict’s link', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    const p = players[0]!;
    const r = await file(db, game, p, 'The Sith unit could not reach I8', new Date(NOW.getTime() + 1439 * MINUTE));
    expect(r).toMatchObject({ kind: 'filed', turn: 1, to: 'referees' });
    const stored = await findDispute(db, (r as { disputeId: number }).disputeId);
    expect(stored).toMatchObject({ gameId: game.id, turn: 1, edictVersion: 1, playerId: p.id, faction: p.faction, status: 'open' });
    const [m, ...rest] = await listOutbox(db, { gameId: game.id, kind: 'dispute-referee' });
    expect(rest).toEqual([]);
    expect(m!.toAddress).toBe('ref@x.org');
    // The faction by its name, not its id (the referees read names everywhere else).
    expect(p.faction).toBe('hutt');
    expect(m!.subject).toBe(`[SF ${game.id}] Dispute: Hutt, turn 1`);
    expect(m!.bodyText).toContain('From: Hutt\n');
    expect(m!.bodyText).toContain('The Sith unit could not reach I8');
    expect(m!.bodyText).toContain(`Edict: https://sf.example/games/${game.id}/turns/1`);
    expect(m!.bodyText).toContain(`https://sf.example/referee/games/${game.id}/disputes`);
    expect(m!.replyTo).toBeNull();
    expect(await hasOpenDispute(db, game.id, 1)).toBe(true);
  });

  it('after the window: refused with when it ended', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    const r = await file(db, game, players[0]!, 'late', new Date(NOW.getTime() + 1441 * MINUTE));
    expect(r).toEqual({ kind: 'refused', why: 'window-closed', turn: 1, endedAt: new Date(NOW.getTime() + 1440 * MINUTE) });
    expect(await listOutbox(db, { gameId: game.id, kind: 'dispute-referee' })).toEqual([]);
  });

  it('at most 3 per player and turn; another player may still', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    for (let i = 0; i < 3; i++) expect(await file(db, game, players[0]!, `reason ${i}`)).toMatchObject({ kind: 'filed' });
    expect(await file(db, game, players[0]!, 'a fourth')).toEqual({ kind: 'refused', why: 'too-many', max: 3 });
    expect(await file(db, game, players[1]!, 'mine')).toMatchObject({ kind: 'filed' });
    expect(await openDisputes(db, game.id, 1)).toHaveLength(4);
  });

  it('the same mail and block again is the stored dispute and queues nothing again', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    const id = await inbound(db);
    const a = { game, player: players[0]!, inboundId: id, block: 0, reason: 'why', receivedAt: NOW };
    const first = await fileDispute(db, ctx, a);
    const again = await fileDispute(db, ctx, a);
    expect(again).toEqual(first);
    const other = await fileDispute(db, ctx, { ...a, block: 1 });
    expect(other).toMatchObject({ kind: 'filed' });
    expect(await listOutbox(db, { gameId: game.id, kind: 'dispute-referee' })).toHaveLength(2);
    expect(await openDisputes(db, game.id)).toHaveLength(2);
  });

  it('with no referee: to OPERATOR_ADDRESS when set, else kept for the first referee (D-PRESS-17)', async () => {
    const { db } = await dbs.fresh();
    const { game: created } = await createGame(
      db,
      { name: 'Lonely', players: PLAYERS.map((email) => ({ email })), timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' },
      { actor: 'test', mail: MAIL, now: () => NOW },
    );
    await closeTurn(db, created.id, 1, { actor: 'test', mail: MAIL, now: () => NOW }, { force: true });
    const game = (await findGame(db, created.id))!;
    const [p, q] = await listPlayers(db, game.id);
    const kept = await file(db, game, p!);
    expect(kept).toMatchObject({ kind: 'filed', to: 'kept' });
    expect(await listOutbox(db, { gameId: game.id, kind: 'dispute-referee' })).toEqual([]);
    const r = await fileDispute(
      db,
      { ...ctx, operatorAddress: 'op@sf.example' },
      { game, player: q!, inboundId: await inbound(db), block: 0, reason: 'check it', receivedAt: NOW },
    );
    expect(r).toMatchObject({ kind: 'filed', to: 'operator' });
    expect((await listOutbox(db, { gameId: game.id, kind: 'dispute-referee' })).map((m) => m.toAddress)).toEqual(['op@sf.example']);
    expect(await openDisputes(db, game.id)).toHaveLength(2);
  });
});

describe('settling a dispute', () => {
  it('rejected with a reason: the disputer told in their language, audited, settled once', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    const p = players[0]!;
    const { disputeId } = (await file(db, game, p)) as { disputeId: number };
    await expect(rejectDispute(db, ctx, { gameId: game.id, disputeId, reason: '  ' })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(rejectDispute(db, ctx, { gameId: 'other', disputeId, reason: 'x' })).rejects.toMatchObject({ code: 'no-game' });
    const settled = await rejectDispute(db, ctx, { gameId: game.id, disputeId, reason: 'I8 was empty' });
    expect(settled).toMatchObject({ status: 'rejected', settlementReason: 'I8 was empty', settledBy: 'referee:ref@x.org' });
    const [m, ...rest] = await listOutbox(db, { gameId: game.id, kind: 'dispute-rejected' });
    expect(rest).toEqual([]);
    expect(m!.toAddress).toBe(p.email);
    expect(m!.subject).toBe(
      p.lang === 'it' ? `[SF ${game.id}] Contestazione respinta, turno 1` : `[SF ${game.id}] Dispute rejected, turn 1`,
    );
    expect(m!.bodyText).toContain('I8 was empty');
    const [audit] = await listAudit(db, { gameId: game.id, action: 'dispute.reject' });
    expect(audit).toMatchObject({ actor: 'referee:ref@x.org', detail: { dispute: disputeId, turn: 1, reason: 'I8 was empty' } });
    await expect(rejectDispute(db, ctx, { gameId: game.id, disputeId, reason: 'again' })).rejects.toMatchObject({ code: 'turn-closed' });
    expect(await hasOpenDispute(db, game.id, 1)).toBe(false);
  });

  it('an amendment of the turn settles its open disputes as amended and tells each disputer', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    const a = (await file(db, game, players[0]!)) as { disputeId: number };
    const b = (await file(db, game, players[1]!)) as { disputeId: number };
    await rejectDispute(db, ctx, { gameId: game.id, disputeId: b.disputeId, reason: 'no' });
    const c = (await file(db, game, players[2]!)) as { disputeId: number };
    expect(
      await amendTurn(db, { gameId: game.id, turn: 1, reason: 'sheet misread', correctedSheets: { [players[0]!.faction]: '' } }, ctx),
    ).toEqual({
      version: 2,
    });
    expect(await findDispute(db, a.disputeId)).toMatchObject({ status: 'amended', amendedVersion: 2, settlementReason: 'sheet misread' });
    expect(await findDispute(db, c.disputeId)).toMatchObject({ status: 'amended', amendedVersion: 2 });
    expect(await findDispute(db, b.disputeId)).toMatchObject({ status: 'rejected' });
    const told = await listOutbox(db, { gameId: game.id, kind: 'dispute-amended' });
    expect(told.map((m) => m.toAddress).sort()).toEqual([players[0]!.email, players[2]!.email].sort());
    expect(told[0]!.bodyText).toMatch(/2/);
  });

  it('D-PRESS-14: an amended version opens a fresh window, for the players’ disputes and the referee’s amendment alike', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    // Version 2 within version 1's window (NOW + 1440): its own window ends at NOW + 1000 + 1440.
    clock = new Date(NOW.getTime() + 1000 * MINUTE);
    expect(
      await amendTurn(db, { gameId: game.id, turn: 1, reason: 'sheet misread', correctedSheets: { [players[0]!.faction]: '' } }, ctx),
    ).toEqual({
      version: 2,
    });
    // Past version 1's window, within version 2's: a dispute is taken, and the referee amends it without confirming.
    clock = new Date(NOW.getTime() + 2000 * MINUTE);
    expect(await file(db, game, players[1]!, 'Still wrong', clock)).toMatchObject({ kind: 'filed', turn: 1 });
    expect(
      await amendTurn(db, { gameId: game.id, turn: 1, reason: 'second look', correctedSheets: { [players[1]!.faction]: '' } }, ctx),
    ).toEqual({
      version: 3,
    });
    // Version 3's window runs from its own publication (NOW + 2000), on the clock its amendment ran on.
    expect(await file(db, game, players[2]!, 'Too late', new Date(NOW.getTime() + 3441 * MINUTE))).toEqual({
      kind: 'refused',
      why: 'window-closed',
      turn: 1,
      endedAt: new Date(NOW.getTime() + 3440 * MINUTE),
    });
  });

  it('disputes still open when the next turn closes lapse, their disputers told (D-PRESS-15)', async () => {
    const { db } = await dbs.fresh();
    const { game, players } = await closedGame(db);
    const a = (await file(db, game, players[0]!)) as { disputeId: number };
    expect((await closeTurn(db, game.id, 2, { actor: 'test', mail: MAIL, now: () => NOW }, { force: true })).closed).toBe(true);
    expect(await findDispute(db, a.disputeId)).toMatchObject({ status: 'lapsed', settledBy: 'system' });
    const [m, ...rest] = await listOutbox(db, { gameId: game.id, kind: 'dispute-lapsed' });
    expect(rest).toEqual([]);
    expect(m!.toAddress).toBe(players[0]!.email);
    expect(await hasOpenDispute(db, game.id, 1)).toBe(false);
  });
});
