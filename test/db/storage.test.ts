// Repositories on PGlite, in memory: fresh instances for this file, loaded from the migrated template.
import { describe } from 'vitest';
import { openTestPglite } from '../harness/pglite.ts';
import { batchStorageCases } from './batch-storage.cases.ts';
import { storageCases } from './storage.cases.ts';

describe('storage on PGlite', () => {
  storageCases(openTestPglite);
  batchStorageCases(openTestPglite);
});
