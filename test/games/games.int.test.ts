// The games service on the real PostgreSQL server: a fresh database for this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { findTurn } from '../../src/db/turns.ts';
import { createGame, joinGame } from '../../src/games/index.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { ctx, gameInput, gamesCases } from './games.cases.ts';

describe('games on PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });
  const open = () => openDatabase({ database: { kind: 'postgres', url: fresh.url } });

  gamesCases(open);

  describe('from two instances at once', () => {
    let a: Database;
    let b: Database;
    beforeAll(async () => {
      [a, b] = await Promise.all([open(), open()]);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('late joiners take the next free factions one after the other (the game row is locked)', async () => {
      const { game } = await createGame(a.db, gameInput('Crowd'), ctx);
      const joined = await Promise.all(
        ['e', 'f', 'g', 'h'].map((x, i) => joinGame(i % 2 ? a.db : b.db, { gameId: game.id, email: `${x}@example.com` }, ctx)),
      );
      expect(joined.map((j) => j.player.faction).sort()).toEqual(['corellians', 'federals', 'founders', 'merchants']);
      expect((await findTurn(a.db, game.id, 1))?.state.joining).toHaveLength(4);
    });
  });
});
