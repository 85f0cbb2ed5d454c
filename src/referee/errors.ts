// What a referee can get wrong (an unknown address, a deadline beyond the cap): codes of the one
// table in src/errors.ts, each thrown with one sentence to act on. The console shows the
// sentence; `sf referee …` prints it.
import { AppError } from '../errors.ts';

export type RefereeErrorCode = 'invalid-input' | 'no-referee' | 'referee-exists' | 'no-game' | 'no-turn' | 'no-player' | 'no-edict' | 'no-mail' | 'not-allowed';

export class RefereeError extends AppError {
  override name = 'RefereeError';
  declare readonly code: RefereeErrorCode;
  constructor(code: RefereeErrorCode, message: string) {
    super(code, message);
  }
}
