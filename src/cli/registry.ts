// The commands of `sf`, each in its own module, loaded only when used. A command is one action
// (`sf ingest`) or a group of them (`sf game create|join|list|show`).
import type { Group, Leaf } from './command.ts';

export interface Entry {
  summary: string;
  /** Lines for `sf --help`, one per action. */
  usage: string[];
  load(): Promise<Leaf | Group>;
}

export const commands: Record<string, Entry> = {
  serve: {
    summary: 'run the service (mail intake, outbox, turn job, web page) until stopped',
    usage: ['sf serve'],
    load: async () => (await import('./serve-command.ts')).serve,
  },
  game: {
    summary: 'create, join, list and show games',
    usage: [
      'sf game create --name <name> --players <a@x,…> --tz <zone> --deadline <day hh:mm>',
      'sf game join <game> <email>',
      'sf game list',
      'sf game show <game>',
    ],
    load: async () => (await import('./game.ts')).group,
  },
  turn: {
    summary: 'replay a game’s turns with the current engine (before upgrading it)',
    usage: ['sf turn replay <game>'],
    load: async () => (await import('./turn.ts')).group,
  },
  ingest: {
    summary: 'feed one mail to intake by hand, as if it had just arrived',
    usage: ['sf ingest <file.eml>'],
    load: async () => (await import('./ingest.ts')).ingest,
  },
  outbox: {
    summary: 'list outgoing mail and whether it went out',
    usage: ['sf outbox list [--game <game>] [--status pending|sent|failed]'],
    load: async () => (await import('./outbox.ts')).group,
  },
  mail: {
    summary: 'read mail files: what intake reads, or a mail decoded',
    usage: ['sf mail inspect <file.eml>', 'sf mail show <file.eml>'],
    load: async () => (await import('./mail.ts')).group,
  },
  referee: {
    summary: 'referee accounts and the referee’s actions (the console’s, from a terminal)',
    usage: [
      'sf referee add <email>',
      'sf referee passwd <email> [--prompt]',
      'sf referee assign <game> <email>',
      'sf referee extend|resend-welcome|resend-edict|retry-mail|drop-mail …',
      'sf referee amend|rollback|pause|resume …',
    ],
    load: async () => (await import('./referee.ts')).group,
  },
  adjudicate: {
    summary: 'adjudicate one scenario file and print the result as JSON',
    usage: ['sf adjudicate <scenario.json>'],
    load: async () => (await import('./adjudicate.ts')).adjudicate,
  },
};
