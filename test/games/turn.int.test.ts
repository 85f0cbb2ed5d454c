// Closing turns on the real PostgreSQL server, and from two instances at once.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { listEdicts } from '../../src/db/edicts.ts';
import { findGame } from '../../src/db/games.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { createGame, type GamesContext } from '../../src/games/index.ts';
import { runTurnJob } from '../../src/games/turn-job.ts';
import { freshDatabaseForSuite, twoInstances } from '../harness/postgres.ts';
import { testClock, turnCases } from './turn.cases.ts';

describe('the weekly turn on PostgreSQL', () => {
  const { open } = freshDatabaseForSuite();

  turnCases(open);

  describe('two instances side by side', () => {
    const instances = twoInstances(open);

    it('never close a turn twice nor queue a mail twice, through several deadlines of many games', async () => {
      const [a, b] = [instances.a().db, instances.b().db];
      const clock = testClock();
      const ctx: GamesContext = { actor: 'system', mail: { domain: 'sf.test', ordersLocalPart: 'orders' }, now: clock.now };
      const ids: string[] = [];
      for (let g = 0; g < 6; g++) {
        const players = Array.from({ length: 4 + (g % 5) }, (_, i) => ({ email: `p${i}@g${g}.example` }));
        ids.push((await createGame(a, { name: `Pair ${g}`, players, timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' }, ctx)).game.id);
      }
      const log = pino({ level: 'silent' });
      const job = (db: Database['db']) => runTurnJob({ db, ctx, log, catchUp: async () => true });
      // Four weekly deadlines, each with both instances running the job three times at once.
      let closed = 0;
      for (let week = 0; week < 4; week++) {
        clock.set(new Date(Date.UTC(2025, 2, 23 + 7 * week, 19, 1)));
        const passes = await Promise.all([job(a), job(b), job(a), job(b), job(a), job(b)]);
        const keys = passes.flatMap((p) => p.closed).filter((k) => ids.some((id) => k.startsWith(`${id}#`)));
        expect(new Set(keys).size, `week ${week}`).toBe(keys.length);
        closed += keys.length;
      }
      expect(closed).toBe(ids.length * 4);
      for (const id of ids) {
        expect((await findGame(a, id))!.currentTurn).toBe(5);
        const edicts = await listEdicts(a, id);
        expect(edicts.map((e) => `${e.turn}.${e.version}`)).toEqual(['1.1', '2.1', '3.1', '4.1']);
        const mails = await listOutbox(a, { gameId: id, kind: 'edict' });
        const players = new Set(mails.map((m) => m.toAddress)).size;
        expect(mails).toHaveLength(players * 4);
      }
    });
  });
});
