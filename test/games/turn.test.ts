// Closing turns and the turn job on PGlite, in memory.
import { describe } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { turnCases } from './turn.cases.ts';

describe('the weekly turn on PGlite', () => {
  turnCases(() => openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } }));
});
