// What can go wrong with a referee's account (an unknown address, one that is a referee already):
// codes of the one table in src/errors.ts, each thrown with one sentence to act on. The console
// shows the sentence; `sf referee …` prints it. What a referee does to a game fails as a GameError.
import { AppError } from '../errors.ts';

export type RefereeErrorCode = 'invalid-input' | 'no-referee' | 'referee-exists' | 'no-game';

export class RefereeError extends AppError {
  override name = 'RefereeError';
  declare readonly code: RefereeErrorCode;
  constructor(code: RefereeErrorCode, message: string) {
    super(code, message);
  }
}
