// One table of what can go wrong for a person: each code with a sentence they can act on. A
// thrower usually says more (which game, which field); the table's sentence is what is said
// when it does not, and what a player reads (in their language) when the code reaches one.
// The CLI maps codes to exit statuses in one place (cli/command.ts), HTTP to statuses in
// another (http/error-status.ts); both are typed over every code. (After nodemailer's
// lib/errors.js.) Pure: no I/O, so any layer may import it, the adjudicator included.
import type { Lang } from './adjudicator/types.ts';

/** Who reads the message: a player (mail, public pages) reads it in their language. */
type Entry = { audience: 'player'; en: string; it: string } | { audience: 'referee' | 'operator'; en: string };

export const ERRORS = {
  // What a player can meet on the public pages.
  'not-found': {
    audience: 'player',
    en: 'There is nothing here: check the link, or start from the list of games.',
    it: 'Qui non c’è nulla: controlla il link, o parti dall’elenco delle partite.',
  },
  'bad-request': {
    audience: 'player',
    en: 'The request could not be read: reload the page and try again.',
    it: 'Non è stato possibile leggere la richiesta: ricarica la pagina e riprova.',
  },
  unavailable: {
    audience: 'player',
    en: 'The service is starting or its database is away: try again in a minute.',
    it: 'Il servizio si sta avviando o il suo database non risponde: riprova tra un minuto.',
  },
  internal: {
    audience: 'player',
    en: 'Something went wrong on our side and it has been logged: try again later, or write to the referee.',
    it: 'Qualcosa è andato storto da parte nostra ed è stato registrato: riprova più tardi, o scrivi all’arbitro.',
  },

  // Creating, joining and running a game (src/games): the referee's or the operator's.
  'invalid-input': { audience: 'referee', en: 'That value cannot be used: correct it and try again.' },
  'unknown-map': { audience: 'referee', en: 'There is no such map: the only map is "classic".' },
  'game-exists': { audience: 'referee', en: 'A game of that name exists already: choose another name.' },
  'no-game': { audience: 'referee', en: 'There is no such game (sf game list shows them).' },
  'game-finished': { audience: 'referee', en: 'The game is over: nothing in it can change now.' },
  'game-full': { audience: 'referee', en: 'Every faction of the game is taken (R-SETUP-4).' },
  'already-playing': { audience: 'referee', en: 'That address already plays in this game.' },
  'turn-closed': { audience: 'referee', en: 'The turn (or the game) is not in a state that allows this now.' },

  // The referee's accounts and actions (src/referee).
  'no-referee': { audience: 'referee', en: 'That address is not a referee (sf referee add creates one).' },
  'referee-exists': { audience: 'referee', en: 'That address is a referee already (sf referee passwd sets a new password).' },
  'no-turn': { audience: 'referee', en: 'The game has no open turn.' },
  'no-player': { audience: 'referee', en: 'The game has no such player.' },
  'no-edict': { audience: 'referee', en: 'That turn has no edict yet.' },
  'no-mail': { audience: 'referee', en: 'There is no such mail.' },
  'not-allowed': { audience: 'referee', en: 'That cannot be done now.' },

  // The command line and the control socket (src/cli, src/control).
  usage: { audience: 'operator', en: 'The command line is not right: see the command’s --help.' },
  'unreadable-input': { audience: 'operator', en: 'The file or input given cannot be used.' },
  'unknown-operation': { audience: 'operator', en: 'The service does not know that operation: is it the same version as this sf?' },
  'bad-arguments': { audience: 'operator', en: 'The arguments of the operation are not right.' },
  'bad-answer': { audience: 'operator', en: 'The service gave an answer that could not be read: is it the same version as this sf?' },
  'no-service': { audience: 'operator', en: 'No service answers on the control socket in DATA_DIR.' },
  'database-busy': { audience: 'operator', en: 'The database is in use by another sf process: try again when it is done.' },

  // Starting the service (src/config.ts, src/startup-errors.ts, src/db/client.ts).
  config: { audience: 'operator', en: 'A setting in the environment is wrong: see the README for what it takes.' },
  startup: { audience: 'operator', en: 'The service cannot start: see the line above for the setting to change.' },
  'migration-failed': { audience: 'operator', en: 'The database could not be brought up to date: repair it or restore a backup.' },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (c: unknown): c is ErrorCode => typeof c === 'string' && Object.hasOwn(ERRORS, c);

/** The table's sentence for `code`, in `lang` when a player reads it. */
export function errorMessage(code: ErrorCode, lang: Lang = 'en'): string {
  const e: Entry = ERRORS[code];
  return e.audience === 'player' ? e[lang] : e.en;
}

/**
 * A failure said for the person who asked: its message is theirs to read (a referee's page, an
 * operator's terminal, the control socket's answer). Anything else thrown is a bug or an outage:
 * logged, and shown only as 'internal'.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string = errorMessage(code),
    /** For invalid input: the field at fault, as a path (`players.3.email`). */
    readonly field?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** An unknown game, said the same way by every command and the console's actions. */
export const noSuchGame = (id: string): string => `there is no game ${JSON.stringify(id)} (sf game list shows them)`;
