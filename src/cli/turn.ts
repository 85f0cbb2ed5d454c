// `sf turn replay <game>`: every stored turn re-adjudicated with the current engine, from the very
// position and sheets its edict was made from; any difference from the stored edict is printed.
// The check before any upgrade of the engine (R-EDICT-2). Exit 0 when every turn is the same, 1 if not.
import { UsageError } from './args.ts';
import { out, perform, type Group, type Leaf } from './command.ts';

interface Replay {
  gameId: string;
  engine: string;
  turns: { turn: number; version: number; storedEngine: string | null; same: boolean; diff: string[] }[];
}

const replay: Leaf = {
  spec: {
    name: 'sf turn replay',
    summary: 're-adjudicate every stored turn with the current engine and print any difference from the stored edicts',
    args: '<game>',
    options: { json: { help: 'print the answer as JSON' } },
    notes: ['Exit 0 when every turn adjudicates as stored, 1 when one differs. Amendments (the referee’s choices) are not replayed.'],
    examples: ['sf turn replay test-galaxy'],
  },
  async run(p) {
    if (p.positionals.length !== 1) throw new UsageError('give the game: sf turn replay <game>');
    const r = (await perform('sf turn replay', 'turn.replay', { gameId: p.positionals[0]! })) as Replay;
    const differ = r.turns.filter((t) => !t.same);
    if (p.values.json) out(JSON.stringify(r, null, 2));
    else {
      const lines = r.turns.map(
        (t) =>
          `turn ${t.turn} (edict v${t.version}, engine ${t.storedEngine ?? '?'}): ${t.same ? 'the same' : 'DIFFERS'}${t.same ? '' : `\n${t.diff.map((d) => `    ${d}`).join('\n')}`}`,
      );
      out(
        [
          `${r.gameId}: ${r.turns.length} turns replayed with engine ${r.engine}`,
          ...lines,
          differ.length ? `${differ.length} turn(s) differ` : 'every turn is the same',
        ].join('\n'),
      );
    }
    return differ.length ? 1 : 0;
  },
};

export const group: Group = { name: 'sf turn', summary: 'the turns of a game', subs: { replay } };
