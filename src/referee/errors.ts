// What a referee can get wrong (an unknown address, a deadline beyond the cap): a code and one
// sentence to act on. The console shows the sentence; `sf referee …` prints it.
export type RefereeErrorCode =
  | 'invalid-input'
  | 'no-referee'
  | 'referee-exists'
  | 'no-game'
  | 'not-your-game'
  | 'no-turn'
  | 'no-player'
  | 'no-edict'
  | 'no-mail'
  | 'not-allowed';

export class RefereeError extends Error {
  override name = 'RefereeError';
  constructor(
    readonly code: RefereeErrorCode,
    message: string,
  ) {
    super(message);
  }
}
