// Board-sized arrays that a turn borrows instead of allocating. An Int32Array of a board's size
// lives outside the JavaScript heap, and allocating one costs about as much as a whole step of a
// typical turn; a turn needs a few (the occupancy, the check of one unit a cell, the standoffs).
//
// Pure all the same: an array is lent only with -1 in every cell, exactly what a new one would
// hold. A borrower gives it back only once it has put -1 back in every cell it wrote and will not
// read it again; an array not given back (the turn threw) is simply collected, and the next
// borrower gets a new one. Nothing a turn does can be seen by the next.
import type { Board } from './map.ts';

/** More than a turn ever holds at once; the rest are left to the collector. */
const MAX_SPARES = 4;

const spares = new WeakMap<Board, Int32Array[]>();

/** An array with one entry per cell of `board`, every entry -1. */
export function borrowCells(board: Board): Int32Array {
  return spares.get(board)?.pop() ?? new Int32Array(board.size).fill(-1);
}

/** Gives back an array from borrowCells, -1 in every cell again. The caller must not use it after. */
export function returnCells(board: Board, cells: Int32Array): void {
  let list = spares.get(board);
  if (!list) spares.set(board, (list = []));
  if (list.length < MAX_SPARES) list.push(cells);
}
