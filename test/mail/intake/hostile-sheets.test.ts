// Hostile mail, the intake side: sheets that grow without bound in storage or in the reply.
import { beforeEach, describe, expect, it } from 'vitest';
import { listOutbox } from '../../../src/db/outbox.ts';
import { sheetHistory } from '../../../src/db/sheets.ts';
import { ADDRESSES, deliver, makeWorld, orderMail, privateTo, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});

const replies = async (kind?: string) =>
  (await listOutbox(world.database.db, { gameId: 'andromeda' })).filter((m) => m.kind !== 'welcome' && (!kind || m.kind === kind));

describe('a sheet with one very long line', () => {
  // 2,000 off-board orders on one line: every one is a problem about that line.
  const longLine = (n: number) => Array.from({ length: n }, (_, i) => `Z${(i % 90) + 10}-Z${(i % 90) + 11}`).join(' ');

  it('is stored once, its problems by line, in space linear in its length, and acknowledged', async () => {
    const line = longLine(2_000); // ~16 KB
    const r = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: `V: Sith\n${line}\n` }));
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    const [sheet] = await sheetHistory(world.database.db, 'andromeda', 1, 'aristocrats');
    expect(sheet!.status).toBe('problems');
    const stored = JSON.stringify(sheet!.parsed);
    // The line is in `text`; `parsed` refers to it by number and never copies it.
    expect(stored).not.toContain(line.slice(0, 200));
    expect(stored.length).toBeLessThan(40 * line.length);
    expect((sheet!.parsed as { problems: Array<{ line: number }> }).problems.every((p) => p.line === 2)).toBe(true);
    const [ack] = await replies('ack');
    expect(ack!.bodyText.length).toBeLessThan(20_000);
    expect(ack!.bodyText).toMatch(/and 19\d\d more problems/);
  });

  it('a 48 KB line of problems is acknowledged, not set aside', async () => {
    const line = longLine(6_000);
    const r = await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: `${line}\n` }));
    expect(r.result).toMatchObject({ status: 'processed', outcome: 'sheet' });
    expect(await replies('ack')).toHaveLength(1);
  });

  it('STATUS quotes a long sheet only in part', async () => {
    const line = longLine(2_000);
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: `V: Sith\n${line}\n` }));
    await deliver(world, orderMail({ from: ADDRESSES[1]!, to: privateTo(world, 1), body: 'STATUS\n' }));
    const [status] = await replies('status');
    expect(status!.bodyText.length).toBeLessThan(4_000);
    expect(status!.bodyText).toContain('V: Sith');
  });
});
