// The operation registry: one validation for both paths (socket and direct), answers in plain
// JSON, and errors a person can act on. No database: every case fails (or answers) before one
// would be touched, and a context whose database throws proves it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/client.ts';
import { createLogger } from '../../src/logger.ts';
import { isOperationName, OperationError, operations, runOperation, type OperationContext } from '../../src/control/operations.ts';
import { inFlagTerms } from '../../src/cli/game-format.ts';
import { actionInput, MAX_ROLLBACK_HOURS } from '../../src/games/index.ts';

const untouchable = new Proxy({} as Db, {
  get() {
    throw new Error('the database was touched');
  },
});

const ctx = (over: Partial<OperationContext> = {}): OperationContext => ({
  db: untouchable,
  config: loadConfig({}),
  log: createLogger('silent'),
  actor: 'cli:test',
  receive: () => Promise.reject(new Error('no mail expected')),
  ...over,
});

async function failure(name: string, args: unknown, c = ctx()): Promise<OperationError> {
  const err = await runOperation(c, name, args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OperationError);
  return err as OperationError;
}

describe('the operation registry', () => {
  it('names every operation the CLI sends', () => {
    expect(
      Object.keys(operations)
        .filter((n) => !n.startsWith('referee.'))
        .sort(),
    ).toEqual(['game.create', 'game.join', 'game.list', 'game.observe', 'game.show', 'mail.ingest', 'outbox.list', 'turn.replay']);
    expect(isOperationName('game.create')).toBe(true);
    expect(isOperationName('toString')).toBe(false); // not an inherited property
  });

  it('refuses an unknown operation by name', async () => {
    const err = await failure('game.delete', {});
    expect(err.code).toBe('unknown-operation');
    expect(err.message).toContain('"game.delete"');
  });

  it('refuses arguments of the wrong shape, naming the field, before any database work', async () => {
    let err = await failure('game.create', { name: 'x', players: 'a@x', timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' });
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'players' });
    err = await failure('game.join', { gameId: 'g', email: 'e@x', lang: 'fr' });
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'lang' });
    err = await failure('outbox.list', { limit: 0 });
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'limit' });
    err = await failure('mail.ingest', { rawBase64: 'not base64!', sourceKey: 'k' });
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'rawBase64' });
    err = await failure('game.show', null);
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'gameId' });
  });

  it('checks a referee action with the schema the console’s form is read into: one limit, one sentence', async () => {
    const err = await failure('referee.rollback', { gameId: 'g', hours: MAX_ROLLBACK_HOURS + 1, reason: 'why' });
    expect(err).toMatchObject({ code: 'bad-arguments', field: 'hours' });
    expect(err.message).toContain(`within ${MAX_ROLLBACK_HOURS} hours`);
    expect(() => actionInput('rollback', { gameId: 'g', hours: MAX_ROLLBACK_HOURS + 1, reason: 'why' })).toThrow(
      expect.objectContaining({ code: 'invalid-input', field: 'hours', message: err.message.replace(/^hours: /, '') }),
    );
    expect(actionInput('rollback', { gameId: ' G ', hours: MAX_ROLLBACK_HOURS, reason: 'why' })).toEqual({
      gameId: 'g',
      hours: MAX_ROLLBACK_HOURS,
      reason: 'why',
    });
  });

  it('checks the press settings of a new game and of a referee’s change before any database work, said in flag terms', async () => {
    const game = {
      name: 'g',
      players: [1, 2, 3, 4].map((i) => ({ email: `p${i}@x.it` })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
    };
    const mode = await failure('game.create', { ...game, press: { mode: 'grey' } });
    expect(mode).toMatchObject({ code: 'bad-arguments', field: 'press.mode' });
    expect(inFlagTerms(mode, false)).toBe('--press-mode: must be off, signed, anonymous or both');
    const chars = await failure('game.create', { ...game, press: { maxChars: 100_000 } });
    expect(inFlagTerms(chars, false)).toBe('--press-max-chars: must be at most 50000');
    const hourly = await failure('referee.press', { gameId: 'g', press: { perHour: 0 }, reason: 'why' });
    expect(hourly).toMatchObject({ code: 'bad-arguments', field: 'press.perHour', message: 'press.perHour: must be at least 1' });
    // The console's form is read into the same schema.
    expect(() => actionInput('press', { gameId: 'g', press: { perHour: 0 }, reason: 'why' })).toThrow(
      expect.objectContaining({ code: 'invalid-input', field: 'press.perHour', message: 'must be at least 1' }),
    );
  });

  it('puts a game’s own validation (src/games) in the same typed error', async () => {
    // createGame validates before its transaction: the database is not reached.
    const err = await failure('game.create', { name: '', players: [], timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' });
    expect(err).toMatchObject({ code: 'invalid-input', field: 'name' });
    const tz = await failure('game.create', {
      name: 'g',
      players: [1, 2, 3, 4].map((i) => ({ email: `p${i}@x.it` })),
      timeZone: 'CET',
      weeklyDeadline: 'sun 20:00',
    });
    expect(tz).toMatchObject({ code: 'invalid-input', field: 'timeZone' });
    expect(tz.message).toContain('Europe/Brussels'); // says what CET would have become
  });

  it('answers in plain JSON: a mail taken in comes back with dates and buffers as plain values', async () => {
    const seen: Buffer[] = [];
    const result = await runOperation(
      ctx({
        receive: async (m) => {
          seen.push(m.raw);
          return { id: 7, duplicate: false, result: { status: 'processed', outcome: 'sheet' } };
        },
      }),
      'mail.ingest',
      { rawBase64: Buffer.from('Subject: hi\r\n\r\nV: Hutt\r\n').toString('base64'), sourceKey: 'cli:abc' },
    );
    expect(seen[0]!.toString()).toContain('V: Hutt');
    expect(result).toEqual({ inbound: 7, duplicate: false, status: 'processed', outcome: 'sheet' });
  });

  it('says a mail that could not be processed yet is pending', async () => {
    const result = await runOperation(ctx({ receive: async () => ({ id: 8, duplicate: false, result: null }) }), 'mail.ingest', {
      rawBase64: Buffer.from('x').toString('base64'),
      sourceKey: 'k',
    });
    expect(result).toEqual({ inbound: 8, duplicate: false, status: 'pending' });
  });
});

describe('errors in the CLI’s terms', () => {
  it('names the flag, the player and the problem in plain words', () => {
    expect(inFlagTerms(new OperationError('invalid-input', 'name: Too small: expected string to have >=1 characters', 'name'), false)).toBe(
      '--name: must not be empty',
    );
    expect(inFlagTerms(new OperationError('invalid-input', 'players.3.email: is not an e-mail address', 'players.3.email'), false)).toBe(
      '--players (player 4): is not an e-mail address',
    );
    expect(inFlagTerms(new OperationError('invalid-input', 'players.0.timeZone: is not a time zone', 'players.0.timeZone'), false)).toBe(
      '--player-tz (player 1): is not a time zone',
    );
    // In `sf game join` the player's zone and name are --player-tz and --player-name.
    expect(inFlagTerms(new OperationError('invalid-input', 'timeZone: is not a time zone', 'timeZone'), true)).toBe(
      '--player-tz: is not a time zone',
    );
    expect(inFlagTerms(new OperationError('invalid-input', 'email: is not an e-mail address', 'email'), true)).toBe(
      '<email>: is not an e-mail address',
    );
  });
});
