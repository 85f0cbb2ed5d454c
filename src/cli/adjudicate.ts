// `sf adjudicate <scenario.json>` (SCENARIOS.md): JSON on stdout and exit 0, also when orders
// are invalid; a malformed scenario or a file that cannot be read exits 2 with one line on
// stderr. Keys the format does not name are ignored, as SCENARIOS.md says, with a note on stderr.
import { readFile } from 'node:fs/promises';
import { runScenario, ScenarioError, unknownKeys } from '../adjudicator/scenario.ts';
import { InputError, UsageError } from './args.ts';
import { out, type Leaf } from './command.ts';
import { cannotRead } from './files.ts';

export const adjudicate: Leaf = {
  spec: {
    name: 'sf adjudicate',
    summary: 'adjudicate one scenario file and print the result as JSON',
    args: '<scenario.json>',
    options: {},
    notes: [
      'The format is ../shared/rules/SCENARIOS.md: a position on the classic map and the sheets sent.',
      'Exit 0 with the result (also when orders are invalid: that is the game); exit 2 with one line',
      'when the file cannot be read or the scenario is malformed.',
    ],
    examples: ['sf adjudicate ../shared/scenarios/002-rulebook-valid-move.json'],
  },
  async run(p) {
    if (p.positionals.length !== 1) throw new UsageError('give one scenario file: sf adjudicate <scenario.json>');
    const file = p.positionals[0]!;
    const text = await readFile(file, 'utf8').catch((e: unknown) => {
      throw new InputError(cannotRead(file, e));
    });
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new InputError(`malformed scenario: not JSON: ${(e as Error).message}`);
    }
    let result;
    try {
      result = runScenario(raw);
    } catch (e) {
      if (e instanceof ScenarioError) throw new InputError(`malformed scenario: ${e.message}`);
      throw e;
    }
    const extra = unknownKeys(raw);
    if (extra.length)
      process.stderr.write(`sf adjudicate: note: ignored unknown key${extra.length > 1 ? 's' : ''} ${extra.slice(0, 10).join(', ')}\n`);
    out(JSON.stringify(result, null, 2));
    return 0;
  },
};
