// The games service (the application layer): creating and joining games, and deciding what a
// player's mail comes to (accept-sheet.ts, pure). Deadlines and input rules are exported for the
// turn scheduler and the web console.
export { createGame, FIRST_TURN_MIN_NOTICE_MS, type CreatedGame } from './create.ts';
export { joinGame, type JoinedGame } from './join.ts';
export type { GamesContext } from './context.ts';
export { GameError, type GameErrorCode } from './errors.ts';
export { nextWeeklyDeadline, parseWeekly, formatWeekly, isTimeZone } from './deadline.ts';
export { slugify, type CreateGameInput, type JoinGameInput } from './input.ts';
export { privateAddress } from './welcome.ts';
export {
  decidePlayerMail,
  decideSheet,
  type PlayerMailDecision,
  type PlayerMailFacts,
  type SheetDecision,
  type Refusal as SheetRefusal,
} from './accept-sheet.ts';
export { readPlayerCommand, type PlayerCommand } from './player-commands.ts';
