// Repositories on the real PostgreSQL server: a fresh database for this file.
import { afterAll, beforeAll, describe } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { freshDatabase } from '../harness/postgres.ts';
import { batchStorageCases } from './batch-storage.cases.ts';
import { storageCases } from './storage.cases.ts';

describe('storage on PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });
  storageCases(() => openDatabase({ database: { kind: 'postgres', url: fresh.url } }));
  batchStorageCases(() => openDatabase({ database: { kind: 'postgres', url: fresh.url } }));
});
