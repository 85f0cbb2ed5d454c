// The position before turn 1: R-SETUP-2 (3 units per faction), R-TURN-1 (an election turn with
// no Chancellor).
import type { Board } from '../adjudicator/map.ts';
import type { FactionId, GameSettings, GameState, Unit } from '../adjudicator/types.ts';

/** Home planet and system planets of a faction, as cell names (R-SETUP-2). */
export function startingUnits(board: Board, faction: FactionId): Unit[] {
  return board.startingCells(faction).map((c) => ({ side: faction, at: board.name(c) }));
}

export function initialState(board: Board, gameId: string, factions: FactionId[], settings: GameSettings): GameState {
  return {
    gameId,
    turn: 1,
    factions: [...factions],
    chancellor: null,
    election: true,
    // Nobody has declared anything yet: an NMR in turn 1 keeps "hostile to nobody" (R-TURN-5).
    hostility: Object.fromEntries(factions.map((f) => [f, []])),
    units: factions.flatMap((f) => startingUnits(board, f)),
    settings: { ...settings },
    joining: [],
  };
}
