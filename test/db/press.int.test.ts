// Press and dispute repositories on the real PostgreSQL server: a fresh database for this file.
import { describe } from 'vitest';
import { freshDatabaseForSuite } from '../harness/postgres.ts';
import { pressCases } from './press.cases.ts';

describe('press storage on PostgreSQL', () => {
  const { open } = freshDatabaseForSuite();
  pressCases(open);
});
