// The relay decisions of src/games/press/relay.ts on PGlite: what a mail's blocks become (relays,
// stored messages, the acknowledgement's lines), applied once, capped per hour, and the referees
// always reachable, signed.
import { beforeEach, describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { findGame } from '../../../src/db/games.ts';
import { listPlayers } from '../../../src/db/players.ts';
import { storeInboundBatch } from '../../../src/db/inbound.ts';
import { sql } from 'drizzle-orm';
import { addGameReferee, insertReferee } from '../../../src/db/referees.ts';
import { readMailPress, relayPress, type PressMailFacts } from '../../../src/games/press/relay.ts';
import { DOMAIN, makeWorld, type World } from '../../mail/intake/world.ts';

const board = classicMap();
const mail = { domain: DOMAIN, ordersLocalPart: 'orders' };
let world: World;
let facts: (inboundId: number, writer?: number) => Promise<PressMailFacts>;

beforeEach(async () => {
  world = await makeWorld();
  facts = async (inboundId, writer = 0) => {
    const db = world.database.db;
    const game = (await findGame(db, 'andromeda'))!;
    const seated = await listPlayers(db, 'andromeda');
    return { game, board, writer: seated[writer]!, seated, turn: null, inboundId, receivedAt: world.clock.now };
  };
});

// press_messages.inbound_id references a stored mail: store one per call.
async function inbound(n: number): Promise<number> {
  const [s] = await storeInboundBatch(world.database.db, [
    { raw: Buffer.from(`Message-ID: <u${n}@example.org>\r\n\r\nx`), source: 'cli', sourceKey: `unit:${n}`, receivedAt: world.clock.now },
  ]);
  return s!.id;
}

describe('readMailPress', () => {
  it('D-PRESS-2: null for a mail without press, so a sheet is read exactly as before', () => {
    expect(readMailPress('V: Sith\nH: Sith\nB2-C3\n', board)).toBeNull();
  });

  it('a press problem alone is press: the writer must be told, and nothing is read as orders', () => {
    const r = readMailPress('PRESS FAKE TO Sith\nB2-C3\n', board);
    expect(r?.problems.map((p) => p.code)).toContain('unknown-keyword');
    expect(r?.press).toEqual([]);
  });
});

describe('relayPress', () => {
  it('applies a mail once: the same mail again stores nothing more and makes no relay', async () => {
    const reading = readMailPress('PRESS TO Sith\nHello.\nENDPRESS\n', board)!;
    const id = await inbound(1);
    const first = await relayPress(world.database.db, { mail, fileDispute: world.deps.fileDispute }, await facts(id), reading);
    const second = await relayPress(world.database.db, { mail, fileDispute: world.deps.fileDispute }, await facts(id), reading);
    expect(first.relays).toHaveLength(1);
    expect(second.relays).toHaveLength(0);
    expect(second.ack).toEqual(first.ack);
  });

  it('D-PRESS-12: the hourly cap counts earlier mails; the refusal says when the next is possible', async () => {
    await world.database.db.execute(sql`update games set press_settings = '{"perHour":2}'::jsonb where id = 'andromeda'`);
    const reading = readMailPress('PRESS TO Sith\nOne.\nENDPRESS\nPRESS TO Sith\nTwo.\nENDPRESS\n', board)!;
    const first = await relayPress(
      world.database.db,
      { mail, fileDispute: world.deps.fileDispute },
      await facts(await inbound(2)),
      reading,
    );
    expect(first.summary).toMatchObject({ relayed: 2, refused: 0 });
    world.clock.now = new Date(world.clock.now.getTime() + 10 * 60_000);
    const next = await relayPress(
      world.database.db,
      { mail, fileDispute: world.deps.fileDispute },
      await facts(await inbound(3)),
      readMailPress('PRESS TO Sith\nThree.\nENDPRESS\n', board)!,
    );
    expect(next.relays).toHaveLength(0);
    expect(next.ack.join('\n')).toMatch(
      /Riga 1: non inviato: hai già mandato 2 messaggi nell’ultima ora; il prossimo da lunedì .*ore 12:00 CET/,
    );
  });

  // Players: 0 Hutt (it), 1 Aristocrats (en), 2 Sith (it), 3 Knights (en).
  it('Italian names the audience with its articles in subject, body and footer; English the bare names', async () => {
    const reading = readMailPress('PRESS TO Sith, Hutt, Aristocrats\nTruce?\nENDPRESS\n', board)!;
    const r = await relayPress(world.database.db, { mail, fileDispute: world.deps.fileDispute }, await facts(await inbound(6), 3), reading);
    const [hutt, aristocrats, sith] = ['anna', 'bruno', 'carla'].map((x) => r.relays.find((m) => m.toAddress === `${x}@example.org`)!);
    expect(sith!.subject).toBe('[SF andromeda] Cavalieri → te, gli Hutt e gli Aristocratici');
    expect(sith!.bodyText).toContain('Da: Cavalieri\nA: te, gli Hutt e gli Aristocratici\n');
    expect(sith!.bodyText).toContain('Rispondi a questa mail per scrivere ai Cavalieri, agli Hutt e agli Aristocratici');
    expect(hutt!.subject).toBe('[SF andromeda] Cavalieri → i Sith, te e gli Aristocratici');
    expect(aristocrats!.subject).toBe('[SF andromeda] Knights → Sith, Hutt and you');
    expect(aristocrats!.bodyText).toContain('From: Knights\nTo: Sith, Hutt and you\n');
  });

  it('D-PRESS-17: a message to the referees of a game without one is kept, and the writer told so', async () => {
    const reading = readMailPress('PRESS TO REFEREE\nHelp.\nENDPRESS\n', board)!;
    const r = await relayPress(world.database.db, { mail, fileDispute: world.deps.fileDispute }, await facts(await inbound(5), 1), reading);
    expect(r.relays).toHaveLength(0);
    expect(r.summary.relayed).toBe(1);
    expect(r.ack.join('\n')).toContain('This game has no referee yet');
  });

  it('D-PRESS-4: the referees are reached signed, whatever the game’s press, with a token of their own', async () => {
    await world.database.db.execute(sql`update games set press_settings = '{"mode":"off"}'::jsonb where id = 'andromeda'`);
    const referee = (await insertReferee(world.database.db, 'ref@example.org', '$argon2id$v=19$m=1,t=1,p=1$x$y'))!;
    await addGameReferee(world.database.db, 'andromeda', referee.id);
    const reading = readMailPress('PRESS ANONYMOUS TO REFEREE\nHelp.\nENDPRESS\n', board)!;
    const r = await relayPress(world.database.db, { mail, fileDispute: world.deps.fileDispute }, await facts(await inbound(4), 1), reading);
    expect(r.relays).toHaveLength(1);
    expect(r.relays[0]).toMatchObject({ toAddress: 'ref@example.org', kind: 'press' });
    // D-PRESS-29: referees read English; their footer is theirs, not a player's.
    expect(r.relays[0]!.subject).toBe('[SF andromeda] Aristocrats → the referees');
    expect(r.relays[0]!.bodyText).toContain('From: Aristocrats\nTo: the referees');
    expect(r.relays[0]!.bodyText).toContain('Reply to this mail to answer Aristocrats: your answer goes to this player only');
    expect(r.relays[0]!.bodyText).not.toMatch(/private address|REPORT|SEGNALA|Partita/);
    expect(r.relays[0]!.replyTo).toMatch(/^orders\+p-[a-z2-7]{26}@/);
    expect(r.ack.join('\n')).toContain('Line 2: sent to the referees, signed:\n> Help.');
    expect(r.ack.join('\n')).toContain('Messages to the referees always show who wrote them');
  });
});
