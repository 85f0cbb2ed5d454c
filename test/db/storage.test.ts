// Repositories on PGlite, in memory: a fresh instance for this file.
import { describe } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { batchStorageCases } from './batch-storage.cases.ts';
import { storageCases } from './storage.cases.ts';

describe('storage on PGlite', () => {
  storageCases(() => openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } }));
  batchStorageCases(() => openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } }));
});
