// The one table of error codes (src/errors.ts): every code has its sentence (in Italian and
// English where a player reads it), every HTTP surface and the CLI know every code, and every
// error class of the layers is an AppError carrying a code of the table.
import { describe, expect, it } from 'vitest';
import { EXIT_STATUS } from '../src/cli/command.ts';
import { InputError, UsageError } from '../src/cli/args.ts';
import { ConfigError } from '../src/config.ts';
import { DatabaseBusyError } from '../src/control/db-lock.ts';
import { OperationError } from '../src/control/operations.ts';
import { NoServiceError } from '../src/control/socket.ts';
import { MigrationError } from '../src/db/client.ts';
import { AppError, ERRORS, errorMessage, isErrorCode, type ErrorCode } from '../src/errors.ts';
import { GameError } from '../src/games/errors.ts';
import { HTTP_STATUS } from '../src/http/error-status.ts';
import { RefereeError } from '../src/referee/errors.ts';
import { StartupError } from '../src/startup-errors.ts';

const codes = Object.keys(ERRORS) as ErrorCode[];

describe('the table of error codes', () => {
  it('gives every code a sentence to act on, in Italian too where a player reads it', () => {
    for (const code of codes) {
      const e = ERRORS[code] as { audience: string; en: string; it?: string };
      expect(e.en, code).toMatch(/^[A-Z].{10,}[.?)]$/);
      if (e.audience === 'player') {
        expect(e.it, code).toMatch(/^[A-Z].{10,}[.?)]$/);
        expect(e.it, code).not.toBe(e.en);
        expect(errorMessage(code, 'it')).toBe(e.it);
      } else expect(errorMessage(code, 'it'), code).toBe(e.en);
    }
  });

  it('is covered by the CLI’s exit statuses and by the HTTP statuses, and by nothing else', () => {
    expect(Object.keys(EXIT_STATUS).sort()).toEqual([...codes].sort());
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      expect([1, 2], code).toContain(EXIT_STATUS[code]);
      expect(HTTP_STATUS[code] >= 400 && HTTP_STATUS[code] < 600, code).toBe(true);
    }
    // What only a broken or absent service causes is not the asker's fault.
    for (const code of ['internal', 'bad-answer', 'no-service', 'database-busy'] as const) expect(EXIT_STATUS[code]).toBe(1);
    for (const code of ['usage', 'invalid-input', 'no-game', 'config'] as const) expect(EXIT_STATUS[code]).toBe(2);
  });

  it('knows its own codes only', () => {
    expect(isErrorCode('no-game')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });

  it('is the code of every error class the layers throw at a person', () => {
    const thrown: Array<[AppError, ErrorCode]> = [
      [new GameError('game-full', 'x'), 'game-full'],
      [new RefereeError('no-referee', 'x'), 'no-referee'],
      [new OperationError('bad-arguments', 'x', 'gameId'), 'bad-arguments'],
      [new UsageError('x'), 'usage'],
      [new InputError('x'), 'unreadable-input'],
      [new ConfigError('HTTP_PORT', 'must be a port'), 'config'],
      [new StartupError('x'), 'startup'],
      [new MigrationError(new Error('boom')), 'migration-failed'],
      [new DatabaseBusyError('x', null), 'database-busy'],
      [new NoServiceError('ENOENT'), 'no-service'],
    ];
    for (const [err, code] of thrown) {
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe(code);
      expect(err.name).not.toBe('Error');
    }
    // The thrower's sentence wins; without one, the table's.
    expect(new AppError('no-mail').message).toBe(ERRORS['no-mail'].en);
    expect(new ConfigError('HTTP_PORT', 'must be a port').message).toBe('configuration: HTTP_PORT must be a port');
  });
});
