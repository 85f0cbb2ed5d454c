// Removing a player (D-SEAT-1, D-SEAT-2) and a player's several addresses (D-SEAT-3), on PGlite:
// the seat stays, empty, its faction adjudicated as an NMR; every player is told in the game's
// thread; the removed player's code and addresses name nobody any more.
import { describe, expect, it } from 'vitest';
import type { Edict } from '../../src/adjudicator/types.ts';
import { listAudit } from '../../src/db/audit.ts';
import type { Db } from '../../src/db/client.ts';
import { latestEdict } from '../../src/db/edicts.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { addressesOfGame, findByEmail, listPlayers, listSeats, playersForMail, registeredAddresses } from '../../src/db/players.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { moveForAbsences, recordAbsence } from '../../src/games/absence-record.ts';
import { findGame } from '../../src/db/games.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { createGame, GameError, joinGame, type GamesContext } from '../../src/games/index.ts';
import { changePlayerAddress, MAX_ADDRESSES } from '../../src/games/player-addresses.ts';
import { removePlayer } from '../../src/games/remove-player.ts';
import { seatHistoryOf } from '../../src/db/players.ts';
import { replacePlayer } from '../../src/games/replace-player.ts';
import { gameThread } from '../../src/games/thread.ts';
import { databasePerFile } from '../harness/pglite.ts';

const NOW = new Date('2026-03-02T10:00:00Z');
const ctx: GamesContext = { actor: 'referee:ref@x.org', mail: { domain: 'sf.test', ordersLocalPart: 'orders' }, now: () => NOW };
const dbs = databasePerFile();

async function game(db: Db): Promise<string> {
  const { game: g } = await createGame(
    db,
    {
      name: 'Vacant',
      players: ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'].map((email, i) => ({ email, lang: i === 0 ? 'it' : 'en' })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    },
    ctx,
  );
  return g.id;
}

const refused = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('removing a player', () => {
  it('empties the seat: audited with the reason, history kept, the player and everyone else told in the game thread', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    const sith = (await listPlayers(db, gameId)).find((p) => p.faction === 'sith')!;
    const r = await removePlayer(db, gameId, 'sith', '  left for <b>good</b> ', ctx);
    expect(r.addresses).toEqual(['c@x.org']);
    expect(r.seat).toMatchObject({ id: sith.id, faction: 'sith', email: 'c@x.org', removedAt: NOW });
    expect((await listPlayers(db, gameId)).map((p) => p.faction)).toEqual(['hutt', 'aristocrats', 'knights']);
    expect((await listSeats(db, gameId)).map((p) => p.faction)).toEqual(['hutt', 'aristocrats', 'sith', 'knights']);
    expect((await seatHistoryOf(db, gameId)).map((h) => [h.faction, h.email, h.fromTurn, h.toTurn, h.reason])).toEqual([
      ['sith', 'c@x.org', 1, 1, 'left for <b>good</b>'],
    ]);
    const [audit] = await listAudit(db, { gameId, action: 'player.remove' });
    expect(audit).toMatchObject({
      actor: 'referee:ref@x.org',
      detail: { faction: 'sith', email: 'c@x.org', addresses: ['c@x.org'], turn: 1, reason: 'left for <b>good</b>' },
    });

    const [farewell] = await listOutbox(db, { gameId, kind: 'seat-removed' });
    expect(farewell).toMatchObject({ toAddress: 'c@x.org', replyTo: null, inReplyTo: gameThread(gameId, 'sf.test') });
    expect(farewell!.bodyText).toContain('Reason: left for <b>good</b>');
    expect(farewell!.bodyText).toContain('no longer work');
    const told = await listOutbox(db, { gameId, kind: 'seat-vacant' });
    expect(told.map((m) => m.toAddress).sort()).toEqual(['a@x.org', 'b@x.org', 'd@x.org']);
    expect(told.every((m) => m.inReplyTo === gameThread(gameId, 'sf.test') && m.replyTo?.startsWith('orders+'))).toBe(true);
    expect(told.find((m) => m.toAddress === 'a@x.org')!.subject).toContain('nessun giocatore'); // in each player's language
    expect(told.find((m) => m.toAddress === 'b@x.org')!.bodyText).toContain('every unit holds');
  });

  it('D-SEAT-2: the removed code and address name nobody; the address may join again', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    const sith = (await listPlayers(db, gameId)).find((p) => p.faction === 'sith')!;
    await removePlayer(db, gameId, 'sith', 'gone', ctx);
    expect(await playersForMail(db, { secrets: [sith.secret], emails: ['c@x.org'] })).toEqual([]);
    expect(await registeredAddresses(db, ['c@x.org'])).toEqual(new Set());
    expect(await findByEmail(db, gameId, 'c@x.org')).toBeNull();
    // The empty seat's faction is still taken (D-SEAT-1): a joiner gets the next one.
    const { player } = await joinGame(db, { gameId, email: 'c@x.org' }, ctx);
    expect(player.faction).toBe('merchants');
  });

  it('D-SEAT-1: the faction is adjudicated as if no sheet came, and the edict goes to seated players only', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    await removePlayer(db, gameId, 'knights', 'gone', ctx);
    await addSheetVersion(db, {
      gameId,
      turn: 1,
      faction: 'hutt',
      text: 'V: Hutt',
      parsed: {},
      status: 'valid',
      receivedAt: NOW,
      inboundId: null,
    });
    expect(await closeTurn(db, gameId, 1, ctx, { force: true })).toMatchObject({ closed: true });
    const edict = (await latestEdict(db, gameId, 1))!.json as Edict;
    expect(edict.declarations.find((d) => d.faction === 'knights')).toMatchObject({ submitted: false });
    expect(edict.declarations.find((d) => d.faction === 'hutt')).toMatchObject({ submitted: true });
    expect((await listOutbox(db, { gameId, kind: 'edict' })).map((m) => m.toAddress).sort()).toEqual(['a@x.org', 'b@x.org', 'c@x.org']);
  });

  it('a sheet received before the removal still stands', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    await addSheetVersion(db, {
      gameId,
      turn: 1,
      faction: 'sith',
      text: 'V: Sith',
      parsed: {},
      status: 'valid',
      receivedAt: NOW,
      inboundId: null,
    });
    await removePlayer(db, gameId, 'sith', 'gone', ctx);
    await closeTurn(db, gameId, 1, ctx, { force: true });
    const edict = (await latestEdict(db, gameId, 1))!.json as Edict;
    expect(edict.declarations.find((d) => d.faction === 'sith')).toMatchObject({ submitted: true, vote: 'sith' });
  });

  it('refuses without a reason, an empty seat, an unknown faction, changing nothing', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    expect(await refused(removePlayer(db, gameId, 'sith', '  ', ctx))).toMatchObject({ code: 'invalid-input' });
    expect(await refused(removePlayer(db, gameId, 'jedi', 'x', ctx))).toMatchObject({ code: 'invalid-input' });
    await removePlayer(db, gameId, 'sith', 'gone', ctx);
    expect(await refused(removePlayer(db, gameId, 'sith', 'again', ctx))).toBeInstanceOf(GameError);
    expect(await listAudit(db, { gameId, action: 'player.remove' })).toHaveLength(1);
    expect(await listOutbox(db, { gameId, kind: 'seat-removed' })).toHaveLength(1);
  });

  it('an empty seat is given to someone with replace: seated again, new code, no second farewell or history entry', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    const old = (await listPlayers(db, gameId)).find((p) => p.faction === 'sith')!;
    await removePlayer(db, gameId, 'sith', 'gone', ctx);
    const p = await replacePlayer(db, gameId, 'sith', { email: 'New@x.org' }, 'a new player', ctx);
    expect(p).toMatchObject({ id: old.id, email: 'new@x.org', removedAt: null });
    expect(p.secret).not.toBe(old.secret);
    expect((await findByEmail(db, gameId, 'new@x.org'))?.id).toBe(old.id);
    expect(await listOutbox(db, { gameId, kind: 'seat-left' })).toEqual([]);
    expect(await seatHistoryOf(db, gameId)).toHaveLength(1);
    expect((await listPlayers(db, gameId)).map((x) => x.faction)).toContain('sith');
  });
});

describe('several addresses per player', () => {
  it('D-SEAT-3: an added address names the player; mail still goes to the primary; the player is told', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    const hutt = (await listPlayers(db, gameId))[0]!;
    const r = await changePlayerAddress(db, gameId, 'hutt', 'add', ' A.Work@X.org ', 'writes from work', ctx);
    expect(r.addresses).toEqual(['a@x.org', 'a.work@x.org']);
    expect((await findByEmail(db, gameId, 'a.work@x.org'))?.id).toBe(hutt.id);
    expect(await registeredAddresses(db, ['A.WORK@x.org'])).toEqual(new Set(['a.work@x.org']));
    const [found] = await playersForMail(db, { secrets: [], emails: ['a.work@x.org'] });
    expect(found).toMatchObject({ id: hutt.id, email: 'a@x.org', addresses: ['a@x.org', 'a.work@x.org'] });
    const [notice] = await listOutbox(db, { gameId, kind: 'addresses-changed' });
    expect(notice).toMatchObject({ toAddress: 'a@x.org', inReplyTo: gameThread(gameId, 'sf.test') });
    expect(notice!.bodyText).toContain('a@x.org, a.work@x.org');
    expect((await listAudit(db, { gameId, action: 'player.address-add' }))[0]!.detail).toMatchObject({
      before: ['a@x.org'],
      after: ['a@x.org', 'a.work@x.org'],
      reason: 'writes from work',
    });
  });

  it('the primary changes: the game writes to the new one, and both hear of it; the old stays an address', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    await changePlayerAddress(db, gameId, 'hutt', 'add', 'a2@x.org', 'r', ctx);
    const r = await changePlayerAddress(db, gameId, 'hutt', 'primary', 'a2@x.org', 'moved', ctx);
    expect(r.player.email).toBe('a2@x.org');
    expect(r.addresses).toEqual(['a2@x.org', 'a@x.org']);
    expect((await addressesOfGame(db, gameId)).get(r.player.id)).toEqual(['a2@x.org', 'a@x.org']);
    const notices = (await listOutbox(db, { gameId, kind: 'addresses-changed' })).slice(1);
    expect(notices.map((m) => m.toAddress).sort()).toEqual(['a2@x.org', 'a@x.org']);
    // The old primary can now go.
    const removed = await changePlayerAddress(db, gameId, 'hutt', 'remove', 'a@x.org', 'old', ctx);
    expect(removed.addresses).toEqual(['a2@x.org']);
    expect(await findByEmail(db, gameId, 'a@x.org')).toBeNull();
  });

  it('refuses: another player’s address, the primary’s removal, an address not theirs, a bad address, more than the cap', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    expect(await refused(changePlayerAddress(db, gameId, 'hutt', 'add', 'b@x.org', 'r', ctx))).toMatchObject({ code: 'already-playing' });
    expect(await refused(changePlayerAddress(db, gameId, 'hutt', 'remove', 'a@x.org', 'r', ctx))).toMatchObject({
      code: 'invalid-input',
      message: expect.stringContaining('primary'),
    });
    expect(await refused(changePlayerAddress(db, gameId, 'hutt', 'primary', 'z@x.org', 'r', ctx))).toMatchObject({ code: 'invalid-input' });
    expect(await refused(changePlayerAddress(db, gameId, 'hutt', 'add', '<script>@x', 'r', ctx))).toMatchObject({ code: 'invalid-input' });
    expect(await refused(changePlayerAddress(db, gameId, 'hutt', 'add', 'ok@x.org', ' ', ctx))).toMatchObject({ code: 'invalid-input' });
    for (let i = 2; i <= MAX_ADDRESSES; i++) await changePlayerAddress(db, gameId, 'hutt', 'add', `a${i}@x.org`, 'r', ctx);
    expect(await refused(changePlayerAddress(db, gameId, 'hutt', 'add', 'one.more@x.org', 'r', ctx))).toMatchObject({
      code: 'invalid-input',
    });
    expect((await addressesOfGame(db, gameId)).get((await listPlayers(db, gameId))[0]!.id)).toHaveLength(MAX_ADDRESSES);
    // A join from someone's second address is refused like one from their first.
    expect(await refused(joinGame(db, { gameId, email: 'a3@x.org' }, ctx))).toMatchObject({ code: 'already-playing' });
  });

  it('removing or replacing a player releases every one of their addresses', async () => {
    const { db } = await dbs.fresh();
    const gameId = await game(db);
    await changePlayerAddress(db, gameId, 'hutt', 'add', 'a2@x.org', 'r', ctx);
    await changePlayerAddress(db, gameId, 'sith', 'add', 'c2@x.org', 'r', ctx);
    expect((await removePlayer(db, gameId, 'hutt', 'gone', ctx)).addresses.sort()).toEqual(['a2@x.org', 'a@x.org']);
    await replacePlayer(db, gameId, 'sith', { email: 'e@x.org' }, 'swap', ctx);
    expect(await registeredAddresses(db, ['a@x.org', 'a2@x.org', 'c@x.org', 'c2@x.org', 'e@x.org'])).toEqual(new Set(['e@x.org']));
    expect((await listAudit(db, { gameId, action: 'player.replace' }))[0]!.detail).toMatchObject({
      from: 'c@x.org',
      fromAddresses: expect.arrayContaining(['c@x.org', 'c2@x.org']),
    });
  });
});

describe('D-ABS-2: absences end with the seat', () => {
  for (const how of ['removed', 'replaced'] as const) {
    it(`a ${how} player's absence no longer moves a deadline (a replacement does not inherit it)`, async () => {
      const { db } = await dbs.fresh();
      const gameId = await game(db);
      const sith = (await listPlayers(db, gameId)).find((p) => p.faction === 'sith')!;
      expect(await recordAbsence(db, gameId, sith, { fromDay: '2026-04-01', toDay: '2026-04-10' }, ctx)).toMatchObject({ ok: true });
      const inside = new Date('2026-04-05T18:00:00Z');
      const move = async () => db.transaction(async (tx) => moveForAbsences(tx, (await findGame(tx, gameId))!, 2, inside, ctx));
      expect(await move()).toMatchObject({ to: new Date('2026-04-11T18:00:00Z') }); // in force while seated
      if (how === 'removed') await removePlayer(db, gameId, 'sith', 'gone', ctx);
      else await replacePlayer(db, gameId, 'sith', { email: 'new@x.org', lang: 'en' }, 'gone', ctx);
      expect(await move()).toBeNull();
    });
  }
});
