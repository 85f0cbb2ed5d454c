// The games service on PGlite, in memory: a fresh instance for this file, loaded from the migrated template.
import { describe } from 'vitest';
import { openTestPglite } from '../harness/pglite.ts';
import { gamesCases } from './games.cases.ts';

describe('games on PGlite', () => {
  gamesCases(openTestPglite);
});
