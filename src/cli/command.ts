// What every subcommand shares: its declared options, --help, and how failures become one line
// and an exit status — 0 done (or help), 2 the command line or the input is wrong, 1 anything
// else (the database is busy or down). Never a stack trace, never an internal error's text.
import { loadConfig, type Config } from '../config.ts';
import { performOperation } from '../control/run-operation.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { helpText, parseCommandLine, type CommandSpec, type Parsed } from './args.ts';

export interface Leaf {
  spec: CommandSpec;
  run(parsed: Parsed): Promise<number>;
}

/** A group of subcommands: `sf game create|join|list|show`. */
export interface Group {
  name: string;
  summary: string;
  subs: Record<string, Leaf>;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The exit status of each error code: 2 when the command line, its input or a setting is at fault
 * (the same command will fail again until they change), 1 when something else is (a busy or absent
 * database, a service that broke).
 */
export const EXIT_STATUS: Record<ErrorCode, 1 | 2> = {
  'not-found': 2,
  'bad-request': 2,
  unavailable: 1,
  internal: 1,
  'invalid-input': 2,
  'unknown-map': 2,
  'game-exists': 2,
  'no-game': 2,
  'game-finished': 2,
  'game-full': 2,
  'already-playing': 2,
  'turn-closed': 2,
  'no-referee': 2,
  'referee-exists': 2,
  'no-turn': 2,
  'no-player': 2,
  'no-edict': 2,
  'no-mail': 2,
  'not-allowed': 2,
  usage: 2,
  'unreadable-input': 2,
  'unknown-operation': 2,
  'bad-arguments': 2,
  'bad-answer': 1,
  'no-service': 1,
  'database-busy': 1,
  config: 2,
  startup: 1,
  'migration-failed': 1,
};

export const out = (text: string) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** An error nobody planned for, said without a stack or the SQL of a failed query. */
function unexpected(err: unknown): string {
  if (!(err instanceof Error)) return 'failed';
  const cause = err.cause instanceof Error ? err.cause : null;
  if (err.message.startsWith('Failed query') && cause) return `the database refused: ${cause.message.split('\n')[0]}`;
  return err.message.split('\n')[0]!;
}

export async function runLeaf(leaf: Leaf, args: string[]): Promise<number> {
  const { name } = leaf.spec;
  try {
    const parsed = parseCommandLine(leaf.spec, args);
    if (parsed.help) {
      out(helpText(leaf.spec));
      return 0;
    }
    return await leaf.run(parsed);
  } catch (err) {
    if (err instanceof AppError) {
      process.stderr.write(`${name}: ${oneLine(err.message)}${err.code === 'usage' ? ` (see ${name} --help)` : ''}\n`);
      return EXIT_STATUS[err.code];
    }
    process.stderr.write(`${name}: ${oneLine(unexpected(err)).slice(0, 300)}\n`);
    return 1;
  }
}

function groupHelp(g: Group): string {
  const width = Math.max(...Object.keys(g.subs).map((s) => s.length)) + 2;
  return [
    `${g.name} — ${g.summary}`,
    '',
    ...Object.entries(g.subs).map(([s, l]) => `  ${g.name} ${s.padEnd(width)}${l.spec.summary}`),
    '',
    `${g.name} <command> --help shows a command's options and an example.`,
    '',
  ].join('\n');
}

export async function runGroup(g: Group, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) {
    process.stderr.write(`${g.name}: which one? ${Object.keys(g.subs).join(', ')} (see ${g.name} --help)\n`);
    return 2;
  }
  if (sub === 'help' || sub === '--help' || sub === '-h') {
    if (sub === 'help' && rest[0] && Object.hasOwn(g.subs, rest[0])) return runLeaf(g.subs[rest[0]]!, ['--help']);
    out(groupHelp(g));
    return 0;
  }
  if (!Object.hasOwn(g.subs, sub)) {
    process.stderr.write(
      `${g.name}: unknown command ${JSON.stringify(sub)}: use ${Object.keys(g.subs).join(', ')} (see ${g.name} --help)\n`,
    );
    return 2;
  }
  return runLeaf(g.subs[sub]!, rest);
}

/** Loads the configuration (one line on a bad variable, see runLeaf) with a quiet logger. */
function setup(): { config: Config; log: ReturnType<typeof createLogger> } {
  const config = loadConfig();
  return { config, log: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel) };
}

/** Runs an operation through the service or here (see control/run-operation.ts). */
export async function perform(what: string, name: string, args: unknown): Promise<unknown> {
  const { config, log } = setup();
  return performOperation(config, name, args, { what, log });
}
