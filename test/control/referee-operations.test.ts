// `sf referee …` runs these operations (through the service's socket or in its own process): the
// same code as the console, errors as one sentence with a code.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { OperationError, operations, runOperation, type OperationContext } from '../../src/control/operations.ts';
import { listAudit } from '../../src/db/audit.ts';
import type { Db } from '../../src/db/client.ts';
import { findGame } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { listPlayers } from '../../src/db/players.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { fileDispute } from '../../src/games/disputes.ts';
import { createLogger } from '../../src/logger.ts';
import { authenticate } from '../../src/referee/accounts.ts';
import { databasePerFile } from '../harness/pglite.ts';
import { gameWithReferee } from '../referee/world.ts';

const dbs = databasePerFile();
const ctx = (db: Db): OperationContext => ({
  db,
  config: loadConfig({ MAIL_DOMAIN: 'sf.example' }),
  log: createLogger('silent'),
  actor: 'cli:test',
  receive: () => Promise.reject(new Error('no mail expected')),
});

describe('sf referee operations', () => {
  it('are in the registry the CLI and the control socket share', () => {
    expect(
      Object.keys(operations)
        .filter((n) => n.startsWith('referee.'))
        .sort(),
    ).toEqual([
      'referee.add',
      'referee.address',
      'referee.amend',
      'referee.assign',
      'referee.dispute.reject',
      'referee.disputes',
      'referee.drop-mail',
      'referee.extend',
      'referee.length',
      'referee.passwd',
      'referee.pause',
      'referee.press',
      'referee.remove',
      'referee.replace',
      'referee.resend-edict',
      'referee.resend-welcome',
      'referee.resume',
      'referee.retry-mail',
      'referee.rollback',
    ]);
  });

  it('add prints a one-time password that logs in; assign and passwd work on it', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'one@x.org');
    const added = (await runOperation(ctx(db), 'referee.add', { email: 'Two@x.org' })) as { email: string; password: string };
    expect(await authenticate(db, 'two@x.org', added.password)).toMatchObject({ kind: 'ok', mustChangePassword: true });
    expect(await runOperation(ctx(db), 'referee.assign', { gameId, email: 'two@x.org' })).toEqual({
      game: gameId,
      email: 'two@x.org',
      added: true,
      referees: ['one@x.org', 'two@x.org'],
    });
    const changed = (await runOperation(ctx(db), 'referee.passwd', { email: 'two@x.org' })) as { password: string };
    expect(changed.password).not.toBe(added.password);
    expect(await authenticate(db, 'two@x.org', changed.password)).toMatchObject({ kind: 'ok', mustChangePassword: true });
    const err = await runOperation(ctx(db), 'referee.add', { email: 'two@x.org' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect(err).toMatchObject({ code: 'referee-exists' });
  });

  it('length sets the last turn or none (R-WIN-2), shown by game show; a closed turn is refused as a code', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'one@x.org');
    expect(await runOperation(ctx(db), 'referee.length', { gameId, lastTurn: 9, reason: 'nine turns' })).toEqual({
      lastTurn: 9,
      currentTurn: 1,
    });
    expect(((await runOperation(ctx(db), 'game.show', { gameId })) as { game: { lastTurn: number | null } }).game.lastTurn).toBe(9);
    expect(await runOperation(ctx(db), 'referee.length', { gameId, lastTurn: null, reason: 'no limit' })).toEqual({
      lastTurn: null,
      currentTurn: 1,
    });
    expect(await listOutbox(db, { gameId, kind: 'game-length' })).toHaveLength(8);
    const err = await runOperation(ctx(db), 'referee.length', { gameId, lastTurn: 1, reason: 'one' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid-input' });
  });

  it('the actions name players by faction or address, and audit as the CLI user', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'one@x.org');
    const r = (await runOperation(ctx(db), 'referee.resend-welcome', { gameId, player: 'B@x.org', reason: 'lost' })) as { to: string };
    expect(r.to).toBe('b@x.org');
    const err = await runOperation(ctx(db), 'referee.resend-welcome', { gameId, player: 'jedi', reason: 'lost' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'no-player' });
    await runOperation(ctx(db), 'referee.extend', { gameId, minutes: 30, reason: 'storm' });
    expect((await listAudit(db, { gameId, action: 'turn.extend' }))[0]!.actor).toBe('cli:test');
    expect((await listOutbox(db, { gameId, kind: 'deadline-extended' }))[0]!.bodyText).toContain('orders+');
  });

  it('address and remove: a player named by any address; the seat empties; errors as codes', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'one@x.org');
    expect(
      await runOperation(ctx(db), 'referee.address', { gameId, player: 'sith', change: 'add', email: 'C2@x.org', reason: 'phone' }),
    ).toEqual({ faction: 'sith', primary: 'c@x.org', addresses: ['c@x.org', 'c2@x.org'] });
    expect(
      await runOperation(ctx(db), 'referee.address', { gameId, player: 'c2@x.org', change: 'primary', email: 'c2@x.org', reason: 'moved' }),
    ).toEqual({ faction: 'sith', primary: 'c2@x.org', addresses: ['c2@x.org', 'c@x.org'] });
    expect(
      await runOperation(ctx(db), 'referee.address', { gameId, player: 'sith', change: 'remove', email: 'c2@x.org', reason: 'x' }).catch(
        (e: unknown) => e,
      ),
    ).toMatchObject({ code: 'invalid-input' });
    const removed = (await runOperation(ctx(db), 'referee.remove', { gameId, player: 'C@x.org', reason: 'left' })) as {
      faction: string;
      addresses: string[];
    };
    expect({ ...removed, addresses: removed.addresses.sort() }).toEqual({ faction: 'sith', addresses: ['c2@x.org', 'c@x.org'] });
    expect((await listAudit(db, { gameId, action: 'player.remove' }))[0]!.actor).toBe('cli:test');
    expect(
      await runOperation(ctx(db), 'referee.remove', { gameId, player: 'sith', reason: 'again' }).catch((e: unknown) => e),
    ).toMatchObject({ code: 'no-player' });
    expect(await runOperation(ctx(db), 'referee.remove', { gameId, player: 'hutt', reason: '  ' }).catch((e: unknown) => e)).toMatchObject({
      code: 'invalid-input',
    });
    // The empty seat is filled by replace, named by its faction.
    expect(await runOperation(ctx(db), 'referee.replace', { gameId, faction: 'sith', email: 'e@x.org', reason: 'new' })).toEqual({
      faction: 'sith',
      email: 'e@x.org',
    });
  });
});

describe('the disputes operations', () => {
  it('list the open disputes and reject one, audited as the asker; a malformed id is refused by the schema', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Quarrel', ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'], 'one@x.org');
    const gctx = { actor: 'test', mail: { domain: 'sf.example', ordersLocalPart: 'orders' } };
    await closeTurn(db, gameId, 1, gctx, { force: true });
    const [p] = await listPlayers(db, gameId);
    const { id: inboundId } = await storeInbound(db, new TextEncoder().encode('Message-ID: <op@x>\r\n\r\nDISPUTE\r\n'), {
      source: 'imap',
      sourceKey: 'op:1',
    });
    const filed = await fileDispute(db, gctx, {
      game: (await findGame(db, gameId))!,
      player: p!,
      inboundId,
      block: 0,
      reason: 'why',
      receivedAt: new Date(),
    });
    const disputeId = (filed as { disputeId: number }).disputeId;
    expect(await runOperation(ctx(db), 'referee.disputes', { gameId })).toMatchObject([
      { id: disputeId, turn: 1, faction: p!.faction, player: p!.email, reason: 'why' },
    ]);
    expect(
      await runOperation(ctx(db), 'referee.dispute.reject', { gameId, disputeId: String(disputeId), reason: 'x' }).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'bad-arguments',
      field: 'disputeId',
    });
    expect(
      await runOperation(ctx(db), 'referee.dispute.reject', { gameId, disputeId, reason: '  ' }).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'invalid-input',
    });
    expect(await runOperation(ctx(db), 'referee.dispute.reject', { gameId, disputeId, reason: 'stands' })).toEqual({
      dispute: disputeId,
      turn: 1,
      faction: p!.faction,
      status: 'rejected',
    });
    expect((await listAudit(db, { gameId, action: 'dispute.reject' }))[0]!.actor).toBe('cli:test');
    expect(await runOperation(ctx(db), 'referee.disputes', { gameId })).toEqual([]);
  });
});
