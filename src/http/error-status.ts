// The HTTP status of each error code (src/errors.ts), in one place for every HTTP surface that
// answers with one: the referee console's pages and the control socket.
import type { ErrorCode } from '../errors.ts';

export const HTTP_STATUS: Record<ErrorCode, 400 | 404 | 500 | 503> = {
  'not-found': 404,
  'bad-request': 400,
  unavailable: 503,
  internal: 500,
  'invalid-input': 400,
  'unknown-map': 400,
  // A conflict with what is there (taken name, finished game, closed turn): the request as sent
  // will not succeed, and the page says why; 400 like any refusal.
  'game-exists': 400,
  'no-game': 404,
  'game-finished': 400,
  'game-full': 400,
  'already-playing': 400,
  'turn-closed': 400,
  'no-referee': 404,
  'referee-exists': 400,
  'no-turn': 404,
  'no-player': 404,
  'no-edict': 404,
  'no-mail': 404,
  'not-allowed': 400,
  usage: 400,
  'unreadable-input': 400,
  'unknown-operation': 404,
  'bad-arguments': 400,
  'bad-answer': 500,
  'no-service': 503,
  'database-busy': 503,
  config: 500,
  startup: 500,
  'migration-failed': 500,
};

export const httpStatus = (code: ErrorCode): number => HTTP_STATUS[code];
