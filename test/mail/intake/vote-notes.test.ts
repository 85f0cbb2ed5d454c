// D-PARSE-15: `V: Nobody` is confirmed as an abstention (a note: the sheet stays valid) and an
// `E:` cell on the board but off the Capital is reported (a problem, R-ELEC-5).
import { beforeEach, describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { reviewSheet } from '../../../src/adjudicator/review.ts';
import { findTurn } from '../../../src/db/turns.ts';
import { listOutbox } from '../../../src/db/outbox.ts';
import { ADDRESSES, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const ack = async () => (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind === 'ack').at(-1)!;

describe('the vote and the Capital cell to replace', () => {
  it('V: Nobody is confirmed in a note and the sheet stays valid', async () => {
    const r = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\nV: Nobody\n' }));
    expect(r.result).toMatchObject({ outcome: 'sheet' });
    const text = (await ack()).bodyText;
    expect(text).toContain('Status: valid');
    expect(text).toMatch(/NOTES\n {2}Line 2: you abstain: no vote is cast\./);
  });

  it('E: Q1 (on the board, not a Capital cell) is a problem on its line', async () => {
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'V: Sith\nE: Q1\n' }));
    const text = (await ack()).bodyText;
    expect(text).toContain('received with problems');
    expect(text).toMatch(/Line 2: Q1 is not a Capital cell \(N9, O9, N10, O10\)/);
  });

  it('the last V: line decides: an abstention followed by a vote is no note; bullets and any case read alike', async () => {
    const state = (await findTurn(world.database.db, 'andromeda', 1))!.state;
    const board = classicMap();
    expect(reviewSheet(board, state, 'aristocrats', 'V: nessuno\nV: Sith\n').notes).toBeUndefined();
    expect(reviewSheet(board, state, 'aristocrats', 'H: Sith\r\n- voto : Nessuno.\r\n').notes?.map((n) => n.line)).toEqual([2]);
    expect(reviewSheet(board, state, 'aristocrats', 'E: N9\n').problems).toEqual([]);
    expect(reviewSheet(board, state, 'aristocrats', 'V: ' + ' '.repeat(100_000) + 'x\n').notes).toBeUndefined();
  });
});
