// What can go wrong when a person creates or joins a game: each a code and a sentence they can
// act on. The CLI prints the sentence; a web form would too.
export type GameErrorCode =
  | 'invalid-input'
  | 'game-exists'
  | 'no-game'
  | 'game-finished'
  | 'game-full'
  | 'already-playing'
  | 'turn-closed'
  | 'unknown-map';

export class GameError extends Error {
  override name = 'GameError';
  constructor(
    readonly code: GameErrorCode,
    message: string,
    /** For invalid input: the field at fault, as a path (`players.3.email`). */
    readonly field?: string,
  ) {
    super(message);
  }
}
