// `sf referee remove|address`: a player leaves, or their addresses change, from a terminal —
// through the same operations as the console's forms (src/control/referee-operations.ts →
// src/games/remove-player.ts, player-addresses.ts).
import { str, UsageError } from './args.ts';
import { out, perform, type Leaf } from './command.ts';
import { positionals, reason } from './referee-disputes.ts';

export const remove: Leaf = {
  spec: {
    name: 'sf referee remove',
    summary:
      'remove a player: their code and addresses stop working; the seat stays empty until sf referee replace fills it; every player is told',
    args: '<game> <faction|email>',
    options: { reason },
    notes: [
      'The faction stays on the board: its units hold and it casts no votes, as if no sheet came (R-TURN-5). A sheet already received for the open turn stands.',
    ],
    examples: ["sf referee remove test-galaxy sith --reason 'Carla has left the game'"],
  },
  async run(p) {
    const [gameId, player] = positionals(p, ['the game', 'the player'], 'sf referee remove <game> <faction|email> --reason <text>');
    const r = (await perform('sf referee remove', 'referee.remove', { gameId, player, reason: str(p, 'reason') })) as {
      faction: string;
      addresses: string[];
    };
    out(`the ${r.faction} seat of ${gameId} is empty; ${r.addresses.join(', ')} no longer play; every player will be told`);
    return 0;
  },
};

const CHANGES = ['add', 'remove', 'primary'] as const;

export const address: Leaf = {
  spec: {
    name: 'sf referee address',
    summary: 'add or remove an address a player writes from, or make it the primary one, where the game’s mail goes',
    args: '<game> <faction|email> <add|remove|primary> <email>',
    options: { reason },
    notes: [
      'The player is told at the primary address (and the old one, when it changes). The primary cannot be removed: make another one primary first.',
    ],
    examples: ["sf referee address test-galaxy sith add carla@work.example --reason 'writes from work too'"],
  },
  async run(p) {
    const usage = 'sf referee address <game> <faction|email> <add|remove|primary> <email> --reason <text>';
    const [gameId, player, change, email] = positionals(p, ['the game', 'the player', 'add, remove or primary', 'the address'], usage);
    if (!(CHANGES as readonly string[]).includes(change!))
      throw new UsageError(`say add, remove or primary, not ${JSON.stringify(change)}: ${usage}`);
    const r = (await perform('sf referee address', 'referee.address', { gameId, player, change, email, reason: str(p, 'reason') })) as {
      faction: string;
      primary: string;
      addresses: string[];
    };
    out(`the ${r.faction} of ${gameId} write from ${r.addresses.join(', ')}; their mail goes to ${r.primary}`);
    return 0;
  },
};
