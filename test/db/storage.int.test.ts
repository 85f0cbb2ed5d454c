// Repositories on the real PostgreSQL server: a fresh database for this file.
import { describe } from 'vitest';
import { freshDatabaseForSuite } from '../harness/postgres.ts';
import { batchStorageCases } from './batch-storage.cases.ts';
import { storageCases } from './storage.cases.ts';

describe('storage on PostgreSQL', () => {
  const { open } = freshDatabaseForSuite();
  storageCases(open);
  batchStorageCases(open);
});
