// The games service on the real PostgreSQL server: a fresh database for this file.
import { describe, expect, it } from 'vitest';
import { findTurn } from '../../src/db/turns.ts';
import { createGame, joinGame } from '../../src/games/index.ts';
import { freshDatabaseForSuite, twoInstances } from '../harness/postgres.ts';
import { ctx, gameInput, gamesCases } from './games.cases.ts';

describe('games on PostgreSQL', () => {
  const { open } = freshDatabaseForSuite();

  gamesCases(open);

  describe('from two instances at once', () => {
    const instances = twoInstances(open);

    it('late joiners take the next free factions one after the other (the game row is locked)', async () => {
      const [a, b] = [instances.a().db, instances.b().db];
      const { game } = await createGame(a, gameInput('Crowd'), ctx);
      const joined = await Promise.all(
        ['e', 'f', 'g', 'h'].map((x, i) => joinGame(i % 2 ? a : b, { gameId: game.id, email: `${x}@example.com` }, ctx)),
      );
      expect(joined.map((j) => j.player.faction).sort()).toEqual(['corellians', 'federals', 'founders', 'merchants']);
      expect((await findTurn(a, game.id, 1))?.state.joining).toHaveLength(4);
    });
  });
});
