// A position the engine can trust: every unit on the board, one unit a cell, every side in play,
// the Chancellor in play. Callers that read positions from outside (scenarios, the database)
// get a one-line reason instead of a wrong edict.
import type { Board, CellIndex } from './map.ts';
import { IMPERIAL, type GameState } from './types.ts';

export class InvalidStateError extends Error {
  override name = 'InvalidStateError';
}

/** The units of a position as the engine reads them, in the order of `state.units`. */
export interface Position {
  cells: CellIndex[];
  /** Side numbers (Board.sides). */
  sides: number[];
}

/** Checks the position and returns each unit's cell index, in the order of `state.units`. */
export function assertValidState(board: Board, state: GameState): CellIndex[] {
  return readPosition(board, state).cells;
}

/** assertValidState, also giving each unit's side number. */
export function readPosition(board: Board, state: GameState): Position {
  const fail = (msg: string): never => {
    throw new InvalidStateError(msg);
  };
  if (!Number.isInteger(state.turn) || state.turn < 1) fail(`turn must be a positive integer, got ${state.turn}`);
  const inPlay = new Set<string>();
  for (const f of state.factions) {
    if (!board.factions.has(f)) fail(`unknown faction id "${f}"`);
    if (inPlay.has(f)) fail(`faction "${f}" is listed twice`);
    inPlay.add(f);
  }
  if (state.chancellor !== null && !inPlay.has(state.chancellor)) fail(`the Chancellor "${state.chancellor}" is not in play`);
  // Sides a unit may belong to, by number: the Imperial Troops and the factions in play.
  const allowed = board.sides.map((side) => side === IMPERIAL || inPlay.has(side));
  // One unit a cell.
  const seen = new Uint8Array(board.size);
  const cells: CellIndex[] = [];
  const sides: number[] = [];
  for (const u of state.units) {
    const side = board.sideNumber(u.side);
    if (side < 0 || !allowed[side]) {
      if (!board.factions.has(u.side)) fail(`unknown faction id "${u.side}" for the unit at ${u.at}`);
      fail(`a unit at ${u.at} belongs to "${u.side}", which is not in play`);
    }
    const cell = board.parseCell(u.at);
    if (cell === null) fail(`cell ${u.at} is off the board`);
    if (seen[cell!]) fail(`two units on ${board.name(cell!)}`);
    seen[cell!] = 1;
    cells.push(cell!);
    sides.push(side);
  }
  for (const f of state.joining ?? []) if (!board.factions.has(f)) fail(`unknown joining faction id "${f}"`);
  if (!Number.isInteger(state.settings.victoryPlanets) || state.settings.victoryPlanets < 1) {
    fail(`victoryPlanets must be a positive integer`);
  }
  const last = state.settings.lastTurn;
  if (last !== undefined && last !== null && (!Number.isInteger(last) || last < 1)) {
    fail(`lastTurn must be a positive integer or null`);
  }
  return { cells, sides };
}
