// Press and dispute repositories on PGlite, in memory (the cases: press.cases.ts).
import { describe } from 'vitest';
import { openTestPglite } from '../harness/pglite.ts';
import { pressCases } from './press.cases.ts';

describe('press storage on PGlite', () => {
  pressCases(openTestPglite);
});
