// The `sf` command line: one small module per command under src/cli/ (see cli/registry.ts).
import { runGroup, runLeaf, type Leaf } from './cli/command.ts';
import { commands } from './cli/registry.ts';

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length)) + 2;
  return [
    'sf — the Starts Foundation play-by-email moderator',
    '',
    'usage: sf <command> [arguments] [options]',
    '',
    'commands:',
    ...Object.entries(commands).map(([n, c]) => `  ${n.padEnd(width)}${c.summary}`),
    '',
    'for example:',
    ...Object.values(commands).flatMap((c) => c.usage.map((u) => `  ${u}`)),
    '',
    'sf <command> --help (or sf help <command>) shows its options, their units and defaults, and an example.',
    'Settings come from the environment (DATA_DIR, DATABASE_URL, MAIL_DOMAIN, …): see the README.',
    '',
  ].join('\n');
}

const isLeaf = (c: unknown): c is Leaf => typeof c === 'object' && c !== null && 'spec' in c;

export async function main(argv: string[]): Promise<number> {
  let [name, ...rest] = argv;
  if (name === 'help' && rest[0] !== undefined) [name, ...rest] = [rest[0], ...rest.slice(1), '--help'];
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(help());
    return 0;
  }
  if (!Object.hasOwn(commands, name)) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command ${JSON.stringify(name)}`;
    process.stderr.write(`sf: ${what}; the commands are ${Object.keys(commands).join(', ')} (see sf --help)\n`);
    return 2;
  }
  const command = await commands[name]!.load();
  return isLeaf(command) ? runLeaf(command, rest) : runGroup(command, rest);
}
