// The board-sized arrays a turn borrows (cell-arrays.ts) must come back exactly as lent, -1 in
// every cell, or one turn could see another's position: adjudication would no longer be pure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { borrowCells, returnCells } from '../../src/adjudicator/cell-arrays.ts';
import { reviewSheet } from '../../src/adjudicator/review.ts';
import { caseArb } from './arbitraries.ts';
import { board } from './position.ts';

/** Every spare array of the board, checked and given back: more than the pool ever keeps. */
function sparesAllEmpty(): boolean {
  const arrays = Array.from({ length: 6 }, () => borrowCells(board));
  const clean = arrays.every((a) => a.length === board.size && a.every((v) => v === -1));
  for (const a of arrays) returnCells(board, a);
  return clean;
}

describe('borrowed cell arrays', () => {
  it('are all -1 again after every adjudication and every review', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        adjudicate(board, c.state, c.sheets);
        for (const [f, text] of Object.entries(c.sheets)) if (text !== undefined) reviewSheet(board, c.state, f, text);
        return sparesAllEmpty();
      }),
      { numRuns: 150 },
    );
  });

  it('are all -1 after a position refused half-way through its units', () => {
    const state = {
      gameId: 'g',
      turn: 3,
      factions: ['hutt', 'aristocrats', 'sith', 'knights'],
      chancellor: null,
      election: false,
      hostility: {},
      units: [
        { side: 'hutt', at: 'B2' },
        { side: 'sith', at: 'C3' },
        { side: 'sith', at: 'B2' },
      ],
      settings: { victoryPlanets: 12, nmrHostility: 'keep' as const },
    };
    expect(() => adjudicate(board, state, {})).toThrow('two units on B2');
    expect(sparesAllEmpty()).toBe(true);
  });
});
