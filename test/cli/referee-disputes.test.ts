// `sf referee disputes <game>` and `sf referee dispute reject <game> <id> --reason …`: the open
// disputes by turn, and rejecting one (the disputer told), on an embedded database in DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { findDispute } from '../../src/db/disputes.ts';
import { findGame } from '../../src/db/games.ts';
import { storeInbound } from '../../src/db/inbound.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { listPlayers } from '../../src/db/players.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { fileDispute } from '../../src/games/disputes.ts';
import { createGame } from '../../src/games/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'sf-disputes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = stderr = '';
  process.env.DATA_DIR = tmp;
  delete process.env.DATABASE_URL;
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

const withDb = async <T>(f: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> => {
  const database = await openDatabase(loadConfig({ DATA_DIR: tmp }));
  try {
    return await f(database.db);
  } finally {
    await database.close();
  }
};

describe('sf referee disputes / dispute reject', () => {
  it('lists the open disputes by turn and rejects one with a reason', async () => {
    const now = new Date();
    const { gameId, ids, email } = await withDb(async (db) => {
      const ctx = { actor: 'system', mail: { domain: 'sf.test', ordersLocalPart: 'orders' }, now: () => now };
      const { game } = await createGame(
        db,
        {
          name: 'Quarrels',
          players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@example.com`, lang: 'en' as const })),
          timeZone: 'Europe/Rome',
          weeklyDeadline: 'sun 20:00',
        },
        ctx,
      );
      await closeTurn(db, game.id, 1, ctx, { force: true });
      const g = (await findGame(db, game.id))!;
      const [p, q] = await listPlayers(db, game.id);
      const ids: number[] = [];
      for (const [i, who] of [p!, q!].entries()) {
        const raw = new TextEncoder().encode(`Message-ID: <cli${i}@x>\r\n\r\nDISPUTE\r\n`);
        const { id } = await storeInbound(db, raw, { source: 'imap', sourceKey: `cli:${i}` });
        const r = await fileDispute(db, ctx, {
          game: g,
          player: who,
          inboundId: id,
          block: 0,
          reason: `reason of ${who.faction}\nsecond line`,
          receivedAt: now,
        });
        if (r.kind !== 'filed') throw new Error(`not filed: ${r.why}`);
        ids.push(r.disputeId);
      }
      return { gameId: game.id, ids, email: p!.email };
    });

    expect(await main(['referee', 'disputes', gameId])).toBe(0);
    expect(stdout).toMatch(new RegExp(`^turn 1:\\n  #${ids[0]}  \\w+ \\(${email}\\)  `));
    expect(stdout).toContain('      second line');
    expect(stdout.match(/#\d+ /g)).toHaveLength(2);

    stdout = '';
    expect(await main(['referee', 'dispute', 'reject', gameId, String(ids[0])])).toBe(2);
    expect(stderr).toContain('--reason');
    expect(await main(['referee', 'dispute', 'reject', gameId, `#${ids[0]}`, '--reason', 'the advance stands'])).toBe(0);
    expect(stdout).toMatch(new RegExp(`dispute #${ids[0]} \\(\\w+, turn 1\\) rejected`));

    stdout = '';
    expect(await main(['referee', 'dispute', 'list', gameId])).toBe(0);
    expect(stdout.match(/#\d+ /g)).toEqual([`#${ids[1]} `]);

    stderr = '';
    expect(await main(['referee', 'dispute', 'reject', gameId, String(ids[0]), '--reason', 'again'])).toBe(2);
    expect(stderr).toContain('not open');

    await withDb(async (db) => {
      expect(await findDispute(db, ids[0]!)).toMatchObject({ status: 'rejected', settlementReason: 'the advance stands' });
      const told = await listOutbox(db, { gameId, kind: 'dispute-rejected' });
      expect(told.map((m) => m.toAddress)).toEqual([email]);
    });
  }, 120_000);

  it('an unknown game is said as everywhere', async () => {
    const r = await main(['referee', 'disputes', 'nope']);
    expect(r).toBe(2);
    expect(stderr).toMatch(/there is no game "nope"/);
  }, 60_000);
});
