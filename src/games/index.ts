// The games service: creating and joining games. Deadlines and input rules are exported for the
// turn scheduler and the web console.
export { createGame, FIRST_TURN_MIN_NOTICE_MS, type CreatedGame } from './create.ts';
export { joinGame, type JoinedGame } from './join.ts';
export type { GamesContext } from './context.ts';
export { GameError, type GameErrorCode } from './errors.ts';
export { nextWeeklyDeadline, parseWeekly, formatWeekly, isTimeZone } from './deadline.ts';
export { slugify, type CreateGameInput, type JoinGameInput } from './input.ts';
export { privateAddress } from './welcome.ts';
