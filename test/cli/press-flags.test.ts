// The press settings on the command line (docs/press.md §3): `sf game create --press-…` and
// `sf referee press <game> --mode …` read the same settings; a wrong value is one line naming the
// flag (exit 2), never a stack trace; the settings reach the game and `sf game show` prints them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.ts';
import { parseCommandLine, UsageError } from '../../src/cli/args.ts';
import { pressFlagOf, pressOptions, readPressFlags } from '../../src/cli/press-flags.ts';
import { actionInput } from '../../src/games/action-inputs.ts';

const spec = (prefix: string) => ({ name: 'sf test', summary: '', options: pressOptions(prefix, false), examples: [] });
const read = (prefix: string, ...args: string[]) => readPressFlags(parseCommandLine(spec(prefix), args), prefix);

describe('reading the press flags', () => {
  it('reads every setting, only those given, in either prefix', () => {
    expect(read('press-')).toEqual({});
    expect(
      read(
        'press-',
        ...['--press-mode', 'Signed', '--press-private', 'no', '--press-open', 'until-declaration', '--press-observers', 'broadcasts'],
        ...['--press-reveal', 'at-end', '--press-max-chars', '2000', '--press-per-hour', '5'],
      ),
    ).toEqual({
      mode: 'signed',
      private: false,
      open: 'until-declaration',
      observers: 'broadcasts',
      reveal: 'at-end',
      maxChars: 2000,
      perHour: 5,
    });
    expect(read('', '--mode', 'off', '--private', 'yes')).toEqual({ mode: 'off', private: true });
  });

  it('a value outside its list is one line naming the flag and what it may be', () => {
    const refused = (prefix: string, ...args: string[]) => {
      try {
        read(prefix, ...args);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused('press-', '--press-mode', 'grey')).toBe('--press-mode must be off, signed, anonymous or both, not "grey"');
    expect(refused('', '--private', 'maybe')).toBe('--private must be yes or no, not "maybe"');
    expect(refused('', '--open', 'sometimes')).toBe('--open must be always, until-declaration or until-deadline, not "sometimes"');
    expect(refused('press-', '--press-reveal', 'soon')).toBe('--press-reveal must be at-end or never, not "soon"');
    expect(refused('press-', '--press-max-chars', 'lots')).toMatch(/^--press-max-chars must be a whole number of characters/);
  });

  it('an error about a setting from the service is said in flag terms', () => {
    expect(pressFlagOf('press.maxChars', 'press-')).toBe('--press-max-chars');
    expect(pressFlagOf('press.perHour', '')).toBe('--per-hour');
    expect(pressFlagOf('timeZone', 'press-')).toBeUndefined();
  });

  it('the referee action takes any of the settings; a value outside the limits is refused naming the setting', () => {
    expect(actionInput('press', { gameId: ' Andromeda ', press: { mode: 'off' }, reason: 'quiet' })).toEqual({
      gameId: 'andromeda',
      press: { mode: 'off' },
      reason: 'quiet',
    });
    expect(() => actionInput('press', { gameId: 'a', press: { maxChars: 10 }, reason: 'r' })).toThrow('must be at least 200');
    expect(() => actionInput('press', { gameId: 'a', press: { mode: 'grey' as 'off' }, reason: 'r' })).toThrow(
      'must be off, signed, anonymous or both',
    );
  });
});

describe('sf game create --press-… and sf referee press', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sf-press-'));
  const saved = { ...process.env };
  let stdout = '';
  let stderr = '';
  beforeEach(() => {
    stdout = stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    process.env.DATA_DIR = tmp;
    delete process.env.DATABASE_URL;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const k of ['DATA_DIR', 'DATABASE_URL']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const sf = async (...args: string[]) => {
    stdout = stderr = '';
    const code = await main(args);
    return { code, stdout, stderr };
  };
  const create = ['game', 'create', '--players', 'a@x.org,b@x.org,c@x.org,d@x.org', '--tz', 'Europe/Rome', '--deadline', 'sun 20:00'];

  it('creates a game with the settings given, shows them, and lets a referee change them', async () => {
    const bad = await sf(...create, '--name', 'Bad', '--press-max-chars', '10');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--press-max-chars: must be at least 200');
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await sf(...create, '--name', 'Bad', '--press-mode', 'loud')).stderr).toContain('--press-mode must be off, signed');

    const made = await sf(
      ...create,
      '--name',
      'Quiet',
      '--press-mode',
      'signed',
      '--press-private',
      'no',
      '--press-per-hour',
      '3',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).game.press).toEqual({
      mode: 'signed',
      private: false,
      open: 'always',
      observers: 'nothing',
      reveal: 'never',
      maxChars: 8000,
      perHour: 3,
    });
    const shown = await sf('game', 'show', 'quiet');
    expect(shown.stdout).toContain(
      'press: mode signed, private no, open always, observers nothing, reveal never, at most 8000 characters and 3 messages an hour',
    );

    const changed = await sf('referee', 'press', 'quiet', '--mode', 'off', '--private', 'no', '--reason', 'a quiet turn');
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toBe('mode: signed → off\nquiet: press settings changed; 4 players will be told\n');
    const same = await sf('referee', 'press', 'quiet', '--mode', 'off', '--reason', 'again');
    expect(same.stdout).toBe('quiet: the press settings are already so; nothing changed and nobody was mailed\n');
    const nothing = await sf('referee', 'press', 'quiet', '--reason', 'nothing');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('say what to change: --mode');
    const limit = await sf('referee', 'press', 'quiet', '--per-hour', '5000', '--reason', 'r');
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--per-hour: must be at most 1000');
    expect((await sf('game', 'show', 'quiet')).stdout).toContain('press: mode off, private no');
  }, 180_000);
});
