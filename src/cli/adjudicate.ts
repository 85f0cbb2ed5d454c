// `sf adjudicate <scenario.json>` (SCENARIOS.md): JSON on stdout and exit 0, also when orders
// are invalid; a malformed scenario exits 2 with one line on stderr.
import { readFile } from 'node:fs/promises';
import { runScenario, ScenarioError } from '../adjudicator/scenario.ts';

export async function run(args: string[]): Promise<number> {
  const file = args[0];
  if (!file || args.length > 1) {
    process.stderr.write('usage: sf adjudicate <scenario.json>\n');
    return 2;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    const why = e instanceof SyntaxError ? `not JSON: ${e.message}` : `cannot read ${file}: ${(e as Error).message}`;
    process.stderr.write(`malformed scenario: ${oneLine(why)}\n`);
    return 2;
  }
  try {
    process.stdout.write(`${JSON.stringify(runScenario(raw), null, 2)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof ScenarioError) {
      process.stderr.write(`malformed scenario: ${oneLine(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
