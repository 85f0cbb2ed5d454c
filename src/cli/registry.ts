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
  game: lazy('create a game, or add a late joiner (sf game create|join)', () => import('./game.ts')),
  serve: lazy('run the service (mail intake, outbox, web page) until stopped', () => import('./serve.ts')),
  ingest: lazy('feed one mail to intake by hand (sf ingest <file.eml>)', () => import('./ingest.ts')),
  mail: lazy('show what intake would read from a mail (sf mail inspect <file.eml>)', () => import('./mail.ts')),
};
