// The `sf` command line as a person meets it: help everywhere (exit 0), one-line errors in the
// user's words (exit 2), `sf adjudicate`'s answers per SCENARIOS.md and `sf mail show`. Most cases
// run `main` in this process (fast); a few spawn bin/sf.js to prove the real entry point.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.ts';
import { parseCommandLine } from '../../src/cli/args.ts';
import { commands } from '../../src/cli/registry.ts';

const tmp = mkdtempSync(join(tmpdir(), 'sf-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

async function sf(...args: string[]) {
  const code = await main(args);
  return { code, stdout, stderr };
}

const oneLine = (s: string) => s.trim().split('\n').length === 1;

describe('help', () => {
  it('sf, sf --help and sf help list every command with an example, exit 0', async () => {
    for (const args of [[], ['--help'], ['help'], ['-h']]) {
      stdout = '';
      const r = await sf(...args);
      expect(r.code).toBe(0);
      for (const name of Object.keys(commands)) expect(r.stdout).toContain(`sf ${name}`);
    }
  });

  it('every command and subcommand has --help with its options and an example, exit 0', async () => {
    const leaves = [
      ['serve'],
      ['ingest'],
      ['adjudicate'],
      ['game', 'create'],
      ['game', 'join'],
      ['game', 'list'],
      ['game', 'show'],
      ['mail', 'inspect'],
      ['mail', 'show'],
      ['outbox', 'list'],
    ];
    for (const leaf of leaves) {
      stdout = '';
      const r = await sf(...leaf, '--help');
      expect(r.code, leaf.join(' ')).toBe(0);
      expect(r.stdout).toContain(`usage: sf ${leaf.join(' ')}`);
      expect(r.stdout).toMatch(/\nexamples?:\n {2}.*sf /);
      stdout = '';
      expect((await sf('help', ...leaf)).stdout, `sf help ${leaf.join(' ')}`).toContain(`usage: sf ${leaf.join(' ')}`);
    }
    for (const group of ['game', 'mail', 'outbox']) {
      stdout = '';
      expect((await sf(group, '--help')).code).toBe(0);
      expect(stdout).toContain(`sf ${group} `);
    }
  });

  it('names the unit of every number, the defaults, and English as the default language', async () => {
    await sf('game', 'create', '--help');
    expect(stdout).toContain('--declare-lead <minutes>');
    expect(stdout).toContain('--reminders <minutes,…>');
    expect(stdout).toContain('--dispute <minutes>');
    expect(stdout).toMatch(/--lang <it\|en,…>.*\(default: en\)/);
    expect(stdout).toContain('(default: 1440,120)');
    expect(stdout).toMatch(/--tz <zone> .*\(required\)/);
  });
});

describe('mistakes on the command line: one line with a hint, exit 2', () => {
  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['--frobnicate'], 'unknown option --frobnicate'],
    [['game'], 'which one?'],
    [['game', 'delete'], 'unknown command "delete"'],
    [['game', 'create', '--frob', 'x'], 'unknown option --frob'],
    [['game', 'create', '--name', 'x'], '--players <a@x,b@y,…> is required'],
    [['game', 'join', 'g'], 'give the game and the address'],
    [['outbox', 'list', '--status', 'lost'], '--status must be pending, sent or failed'],
  ])('sf %j', async (args, says) => {
    const r = await sf(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toBe(true);
    expect(r.stderr).toContain(says);
    expect(r.stderr).toMatch(/--help\)\n$/);
  });

  it('a negative number of minutes is a bad value, not an "ambiguous argument"', async () => {
    const r = await sf(
      'game',
      'create',
      '--name',
      'x',
      '--players',
      'a@x.it,b@x.it,c@x.it,d@x.it',
      '--tz',
      'Europe/Rome',
      '--deadline',
      'sun 20:00',
      '--declare-lead',
      '-5',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'sf game create: --declare-lead must be a whole number of minutes (0 or more), not "-5" (see sf game create --help)\n',
    );
  });

  it('reads --flag=value, and a value that starts with a dash is the value', () => {
    const spec = { name: 'sf t', summary: '', options: { lead: { value: '<minutes>', help: '' }, json: { help: '' } }, examples: [] };
    expect(parseCommandLine(spec, ['--lead', '-5', 'pos', '--json'])).toEqual({
      values: { lead: '-5', json: true },
      positionals: ['pos'],
      help: false,
    });
    expect(parseCommandLine(spec, ['--lead=10', '--', '--json'])).toEqual({ values: { lead: '10' }, positionals: ['--json'], help: false });
    expect(() => parseCommandLine(spec, ['--lead'])).toThrow('--lead needs a value: <minutes>');
    expect(() => parseCommandLine(spec, ['--json=yes'])).toThrow('--json takes no value');
    expect(() => parseCommandLine(spec, ['--lead', '1', '--lead', '2'])).toThrow('--lead is given twice');
  });
});

describe('sf adjudicate (SCENARIOS.md)', () => {
  const scenario = {
    name: 'base',
    setup: {
      turn: 2,
      factions: ['hutt', 'aristocrats', 'sith', 'knights'],
      chancellor: null,
      election: false,
      units: [
        { side: 'hutt', at: 'B2' },
        { side: 'sith', at: 'T7' },
      ],
    },
    sheets: {},
  };
  const file = (name: string, content: unknown) => {
    const f = join(tmp, name);
    writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
    return f;
  };
  const fails = async (f: string, says: string) => {
    const r = await sf('adjudicate', f);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toBe(true);
    expect(r.stderr).toContain(says);
  };

  it('a missing file is a file that cannot be read, not a malformed scenario', async () => {
    await fails(join(tmp, 'nope.json'), `cannot read ${join(tmp, 'nope.json')}: no such file`);
    expect(stderr).not.toContain('malformed');
  });

  it('a field of the wrong type is said to be of the wrong type, a missing one missing', async () => {
    await fails(
      file('turn-text.json', { ...scenario, setup: { ...scenario.setup, turn: 'two' } }),
      'malformed scenario: setup.turn must be a number, not a string',
    );
    stderr = '';
    const { turn: _turn, ...noTurn } = scenario.setup;
    await fails(file('no-turn.json', { ...scenario, setup: noTurn }), 'malformed scenario: missing field setup.turn');
  });

  it('a top-level array is not a scenario', async () => {
    await fails(file('array.json', [scenario]), 'malformed scenario: a scenario is a JSON object, not an array');
  });

  it('an unknown map is refused', async () => {
    await fails(file('map.json', { ...scenario, map: 'galaxy-far-away' }), 'unknown map "galaxy-far-away"');
  });

  it('unknown keys are ignored as SCENARIOS.md says: same answer, exit 0, one note on stderr', async () => {
    const plain = await sf('adjudicate', file('plain.json', scenario));
    const answer = plain.stdout;
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    stdout = '';
    const extra = await sf(
      'adjudicate',
      file('extra.json', { ...scenario, why: 'a note', colour: 'blue', setup: { ...scenario.setup, weather: 'rain' } }),
    );
    expect(extra.code).toBe(0);
    expect(extra.stdout).toBe(answer);
    expect(extra.stderr).toBe('sf adjudicate: note: ignored unknown keys colour, setup.weather\n');
  });
});

describe('sf mail show', () => {
  it('decodes an outgoing quoted-printable mail, and shows control characters instead of obeying them', async () => {
    const eml = [
      'From: Starts Foundation <orders@sf.example>',
      'To: ann@example.com',
      'Subject: =?UTF-8?Q?Benvenuta_in_Andr=C3=B2meda_=1B[31m?=',
      'Message-ID: <m1@sf.example>',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Ciao Ann, la scadenza =C3=A8 domenica alle 20:00. Una riga lunga che va a capo=',
      ' senza spezzarsi.',
      '',
    ].join('\r\n');
    const r = await sf('mail', 'show', file2('out.eml', eml));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('To: ann@example.com');
    expect(r.stdout).toContain('Subject: Benvenuta in Andròmeda \\u001b[31m');
    expect(r.stdout).toContain('la scadenza è domenica alle 20:00. Una riga lunga che va a capo senza spezzarsi.');
    expect(r.stdout).not.toContain('\u001b');
  });

  it('a file that cannot be read: one line, exit 2', async () => {
    const r = await sf('mail', 'show', join(tmp, 'none.eml'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sf mail show: cannot read ${join(tmp, 'none.eml')}: no such file (ENOENT)\n`);
  });

  function file2(name: string, content: string) {
    const f = join(tmp, name);
    writeFileSync(f, content);
    return f;
  }
});

describe('the real entry point', () => {
  const run = promisify(execFile);
  const spawnSf = (...args: string[]) =>
    run(process.execPath, ['bin/sf.js', ...args], { cwd: join(import.meta.dirname, '../..'), env: { ...process.env, DATA_DIR: tmp } }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('bin/sf.js --help exits 0; an unknown command exits 2 with one line', async () => {
    const help = await spawnSf('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('sf game');
    const bad = await spawnSf('gmae');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'sf: unknown command "gmae"; the commands are serve, game, turn, ingest, outbox, mail, referee, adjudicate (see sf --help)\n',
    );
  }, 60_000);
});

describe('bad values and settings are named (exit 2, or 1 for a database away)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['DATA_DIR', 'DATABASE_URL', 'DATABASE_CONNECT_RETRY_SECONDS']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  const players = 'a@x.org,b@x.org,c@x.org,d@x.org';
  const useDir = () => {
    const dir = mkdtempSync(join(tmp, 'data-'));
    process.env.DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    return dir;
  };

  it('says which value is not a zone, a weekly time or an address', async () => {
    useDir();
    const cases: Array<[string[], string]> = [
      [['--tz', 'Mars/Olympus', '--deadline', 'sun 20:00', '--players', players], '--tz: Mars/Olympus is not a time zone'],
      [['--tz', 'Europe/Rome', '--deadline', 'sun 25:00', '--players', players], '--deadline: "sun 25:00" is not a weekly time'],
      [
        ['--tz', 'Europe/Rome', '--deadline', 'sun 20:00', '--players', 'a@x.org,bad,c@x.org,d@x.org'],
        '--players (player 2): bad is not an e-mail address',
      ],
      [
        ['--tz', 'Europe/Rome', '--deadline', 'sun 20:00', '--players', players, '--player-tz', 'Mars/X,,,'],
        '--player-tz (player 1): Mars/X is not a time zone',
      ],
    ];
    for (const [args, message] of cases) {
      stderr = '';
      const r = await sf('game', 'create', '--name', 'Named', ...args);
      expect(r.code, message).toBe(2);
      expect(r.stderr, message).toContain(message);
    }
  }, 120_000);

  it('an unknown game is said one way by every command', async () => {
    useDir();
    for (const args of [
      ['game', 'show', 'nope'],
      ['game', 'join', 'nope', 'e@x.org'],
      ['referee', 'pause', 'nope', '--reason', 'x'],
      ['turn', 'replay', 'nope'],
    ]) {
      stderr = '';
      const r = await sf(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/: there is no game "nope" \(sf game list shows them\)\n$/);
    }
  }, 120_000);

  it('a DATA_DIR that is a file, or below one, is said so', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, '');
    for (const [dir, says] of [
      [file, 'is a file, not a directory'],
      [join(file, 'sub'), 'lies below a file'],
    ] as const) {
      process.env.DATA_DIR = dir;
      stderr = '';
      const r = await sf('game', 'list');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`sf game list: DATA_DIR ${dir} ${says}`);
      expect(r.stderr).toContain('set DATA_DIR to a directory');
    }
  });

  it('an unreachable DATABASE_URL is named, not a bare ECONNREFUSED', async () => {
    process.env.DATABASE_URL = 'postgres://sf@127.0.0.1:1/sf';
    process.env.DATABASE_CONNECT_RETRY_SECONDS = '0';
    const r = await sf('game', 'list');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sf game list: database unreachable at 127\.0\.0\.1:1\/sf \(ECONNREFUSED\): start PostgreSQL, or set DATABASE_URL/,
    );
  }, 60_000);

  it('sf outbox list says when it shows only part of the list, and how to see the rest', async () => {
    useDir();
    expect(
      (await sf('game', 'create', '--name', 'Listed', '--players', players, '--tz', 'Europe/Rome', '--deadline', 'sun 20:00')).code,
    ).toBe(0);
    stdout = stderr = '';
    const all = await sf('outbox', 'list', '--json');
    const total = (JSON.parse(all.stdout) as unknown[]).length;
    expect(total).toBeGreaterThanOrEqual(4); // a welcome to each player
    expect(all.stderr).toBe('');
    stdout = stderr = '';
    const cut = await sf('outbox', 'list', '--limit', '2');
    expect(cut.code).toBe(0);
    expect(cut.stdout.trim().split('\n')).toHaveLength(2);
    expect(cut.stderr).toBe(`showing the newest 2 of ${total} mails: --limit ${total} shows them all\n`);
  }, 120_000);
});
