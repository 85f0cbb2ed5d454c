// `sf referee press <game> --mode … --reason …`: a referee changes a game's press settings through
// the same operation as the console's form (src/control/referee-operations.ts → src/games/press/change-settings.ts).
import type { PressSettings } from '../games/index.ts';
import { str, UsageError } from './args.ts';
import { out, perform, type Leaf } from './command.ts';
import { inPressFlags, pressOptions, readPressFlags } from './press-flags.ts';
import { positionals, reason } from './referee-disputes.ts';

const shown = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : String(v));

export const press: Leaf = {
  spec: {
    name: 'sf referee press',
    summary: 'change the game’s press settings: every player is mailed what changed, old → new',
    args: '<game>',
    options: { ...pressOptions('', false), reason },
    notes: [
      'Settings not given stay as they are. A change that changes nothing mails nobody.',
      'It applies from the next message; a finished game keeps its settings.',
    ],
    examples: [
      "sf referee press test-galaxy --mode off --reason 'a quiet turn, as agreed'",
      "sf referee press test-galaxy --private no --max-chars 2000 --reason 'broadcasts only from now on'",
    ],
  },
  async run(p) {
    const [gameId] = positionals(p, ['the game'], 'sf referee press <game> --mode … --reason <text>');
    const patch = readPressFlags(p, '');
    if (Object.keys(patch).length === 0)
      throw new UsageError('say what to change: --mode, --private, --open, --observers, --reveal, --max-chars or --per-hour');
    const r = (await inPressFlags(
      perform('sf referee press', 'referee.press', { gameId, press: patch, reason: str(p, 'reason') }),
      '',
    )) as {
      changed: (keyof PressSettings)[];
      from: PressSettings;
      settings: PressSettings;
      told: number;
    };
    if (r.changed.length === 0) {
      out(`${gameId}: the press settings are already so; nothing changed and nobody was mailed`);
      return 0;
    }
    out(
      [
        ...r.changed.map((k) => `${k}: ${shown(r.from[k])} → ${shown(r.settings[k])}`),
        `${gameId}: press settings changed; ${r.told} player${r.told === 1 ? '' : 's'} will be told`,
      ].join('\n'),
    );
    return 0;
  },
};
