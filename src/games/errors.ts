// What can go wrong when a person creates, joins or runs a game: codes of the one table in
// src/errors.ts, each thrown with a sentence naming what is at fault.
import { AppError } from '../errors.ts';

export type GameErrorCode =
  | 'invalid-input'
  | 'game-exists'
  | 'no-game'
  | 'game-finished'
  | 'game-full'
  | 'already-playing'
  | 'turn-closed'
  | 'unknown-map'
  | 'no-turn'
  | 'no-player'
  | 'no-edict'
  | 'no-mail'
  | 'not-allowed';

export class GameError extends AppError {
  override name = 'GameError';
  declare readonly code: GameErrorCode;
  constructor(code: GameErrorCode, message: string, field?: string) {
    super(code, message, field);
  }
}
