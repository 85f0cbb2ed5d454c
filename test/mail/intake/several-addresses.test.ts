// Intake with several addresses per player (D-SEAT-3) and removed players (D-SEAT-2): a player is
// known by any of their addresses, answered at the primary; a removed player's code and address
// name nobody, and a released address no longer passes the sender check.
import { beforeEach, describe, expect, it } from 'vitest';
import { listOutbox } from '../../../src/db/outbox.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { changePlayerAddress } from '../../../src/games/player-addresses.ts';
import { removePlayer } from '../../../src/games/remove-player.ts';
import { ADDRESSES, DOMAIN, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const ctx = () => ({ actor: 'referee:ref@x.org', mail: { domain: DOMAIN, ordersLocalPart: 'orders' }, now: () => world.clock.now });
const replies = async (kind: string) => listOutbox(world.database.db, { gameId: 'andromeda', kind });
const history = (faction: string) => sheetHistory(world.database.db, 'andromeda', 1, faction);

describe('a player with several addresses', () => {
  it('a sheet from a second address is applied, and acknowledged at the primary', async () => {
    await changePlayerAddress(world.database.db, 'andromeda', 'aristocrats', 'add', 'bruno@work.example', 'work', ctx());
    const r = await deliver(world, orderMail({ from: 'Bruno@Work.example', to: privateTo(world, 1), body: 'V: Sith\n' }));
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    expect(await history('aristocrats')).toHaveLength(1);
    expect((await replies('ack')).map((m) => m.toAddress)).toEqual([ADDRESSES[1]]);
  });

  it('works through the common address with a tag and a Code: line too', async () => {
    await changePlayerAddress(world.database.db, 'andromeda', 'sith', 'add', 'carla@phone.example', 'phone', ctx());
    const secret = world.created.players[2]!.secret;
    const r = await deliver(
      world,
      orderMail({ from: 'carla@phone.example', subject: '[SF andromeda] turno 1', body: `Code: ${secret}\nV: Knights\n` }),
    );
    expect(r.result).toMatchObject({ outcome: 'sheet' });
  });

  it('after a change of primary, mail from the old one still counts and the answer goes to the new one', async () => {
    const db = world.database.db;
    await changePlayerAddress(db, 'andromeda', 'hutt', 'add', 'anna@new.example', 'moved', ctx());
    await changePlayerAddress(db, 'andromeda', 'hutt', 'primary', 'anna@new.example', 'moved', ctx());
    await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Sith\n' }));
    expect((await replies('ack')).map((m) => m.toAddress)).toEqual(['anna@new.example']);
  });

  it('an address taken off a player no longer passes the sender check: refused, and the player warned', async () => {
    const db = world.database.db;
    await changePlayerAddress(db, 'andromeda', 'knights', 'add', 'dario@old.example', 'r', ctx());
    await changePlayerAddress(db, 'andromeda', 'knights', 'remove', 'dario@old.example', 'lost it', ctx());
    const r = await deliver(world, orderMail({ from: 'dario@old.example', to: privateTo(world, 3), body: 'V: Sith\n' }));
    expect(r.result).toMatchObject({ status: 'rejected', outcome: 'sender-mismatch' });
    expect(await history('knights')).toHaveLength(0);
    expect((await replies('warning')).map((m) => m.toAddress)).toEqual([ADDRESSES[3]]);
  });
});

describe('a removed player (D-SEAT-2)', () => {
  it('their code is unknown and their address a stranger’s: nothing applied, nothing answered', async () => {
    await removePlayer(world.database.db, 'andromeda', 'sith', 'left', ctx());
    const withCode = await deliver(world, orderMail({ from: ADDRESSES[2]!, to: privateTo(world, 2), body: 'V: Sith\n' }));
    expect(withCode.result).toMatchObject({ status: 'rejected', outcome: 'unknown-code' });
    const tagged = await deliver(world, orderMail({ from: ADDRESSES[2]!, subject: '[SF andromeda] orders', body: 'V: Sith\n' }));
    expect(tagged.result).toMatchObject({ status: 'ignored', outcome: 'unknown-sender' });
    expect(await history('sith')).toHaveLength(0);
    const answered = (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter(
      (m) => !['welcome', 'seat-removed', 'seat-vacant'].includes(m.kind),
    );
    expect(answered).toEqual([]);
  });

  it('the other players are not affected', async () => {
    await removePlayer(world.database.db, 'andromeda', 'sith', 'left', ctx());
    const r = await deliver(world, orderMail({ from: ADDRESSES[0]!, to: privateTo(world, 0), body: 'V: Hutt\n' }));
    expect(r.result).toMatchObject({ outcome: 'sheet' });
  });
});
