// The games service on PGlite, in memory: a fresh instance for this file.
import { describe } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { gamesCases } from './games.cases.ts';

describe('games on PGlite', () => {
  gamesCases(() => openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } }));
});
