// The `sf` command line: one small module per subcommand under src/cli/.
import { commands } from './cli/registry.ts';

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    const list = Object.entries(commands)
      .map(([n, c]) => `  sf ${n.padEnd(12)} ${c.summary}`)
      .join('\n');
    process.stderr.write(`usage: sf <command> [args]\n${list}\n`);
    return name ? 2 : 0;
  }
  return command.run(rest);
}
