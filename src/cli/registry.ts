// Subcommands of `sf`. Each lives in its own module; add one line per command here.
export interface Command {
  summary: string;
  run(args: string[]): Promise<number>;
}

const lazy = (summary: string, load: () => Promise<{ run(args: string[]): Promise<number> }>): Command => ({
  summary,
  run: async (args) => (await load()).run(args),
});

export const commands: Record<string, Command> = {
  adjudicate: lazy('adjudicate a scenario file and print the result as JSON', () => import('./adjudicate.ts')),
};
