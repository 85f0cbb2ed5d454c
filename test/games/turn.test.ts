// Closing turns and the turn job on PGlite, in memory, loaded from the migrated template.
import { describe } from 'vitest';
import { openTestPglite } from '../harness/pglite.ts';
import { turnCases } from './turn.cases.ts';

describe('the weekly turn on PGlite', () => {
  turnCases(openTestPglite);
});
