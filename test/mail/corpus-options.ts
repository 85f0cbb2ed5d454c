// Settings the fixture corpus is written for, shared by the corpus test, the CLI test and the
// Dovecot end-to-end run (corpus-e2e.int.test.ts): domain sf.example, orders+<secret>@sf.example,
// 10 MB cap.
import type { CreateGameInput } from '../../src/games/index.ts';
import type { ExtractOptions } from '../../src/mail/read/extract.ts';

export const CORPUS_OPTIONS: ExtractOptions = {
  maxBytes: 10 * 1024 * 1024,
  ourDomain: 'sf.example',
  ordersLocalPart: 'orders',
  ourAddresses: ['orders@sf.example'],
};

/**
 * The corpus game's players (fixtures/README.md), in R-SETUP-1 order: the n-th address plays the
 * n-th faction of the classic map, so a game created with them in this order gives each the
 * faction shown. Tom writes in English and reads deadlines in London time; the others in Italian.
 */
export const CORPUS_PLAYERS = [
  { name: 'Mario Rossi', email: 'mario.rossi@gmail.com', faction: 'hutt', secret: 'k7Q2-x9Pm', lang: 'it' },
  { name: 'Anna Conti', email: 'anna.conti@icloud.com', faction: 'aristocrats', secret: 'Hq9d-2RkT', lang: 'it' },
  { name: 'Giulia Bianchi', email: 'giulia.bianchi@libero.it', faction: 'sith', secret: 'Zr4t-8HwQ', lang: 'it' },
  { name: 'Luca Ferri', email: 'luca.ferri@outlook.it', faction: 'knights', secret: 'p3Lm-Q7va', lang: 'it' },
  { name: 'Tom Baker', email: 'tom@baker.co.uk', faction: 'merchants', secret: 'W5nc-J8eu', lang: 'en', timeZone: 'Europe/London' },
  { name: 'Paolo Greco', email: 'paolo.greco@tiscali.it', faction: 'corellians', secret: 'm2Vx-6PtL', lang: 'it' },
] as const;
export type CorpusPlayer = (typeof CORPUS_PLAYERS)[number];
export const CORPUS_GAME = { name: 'Andromeda', timeZone: 'Europe/Rome', weeklyDeadline: 'sun 20:00' } as const;

/** createGame's input and its secrets for the corpus game: pass `newSecret` in the GamesContext. */
export function corpusGame(): { input: CreateGameInput; newSecret: () => string } {
  const secrets: string[] = CORPUS_PLAYERS.map((p) => p.secret);
  return {
    input: {
      ...CORPUS_GAME,
      players: CORPUS_PLAYERS.map((p) => ({
        email: p.email,
        name: p.name,
        lang: p.lang,
        ...('timeZone' in p ? { timeZone: p.timeZone } : {}),
      })),
    },
    newSecret: () => {
      const s = secrets.shift();
      if (!s) throw new Error('the corpus game has six players: no seventh secret');
      return s;
    },
  };
}

/** The shape of `fixtures/*.expected.json`. Absent optional keys are not checked. */
export interface Expected {
  description: string;
  /** A smaller cap for this fixture (the oversized case without a 10 MB file in the repo). */
  maxBytes?: number;
  automatic: boolean;
  gameTag: string | null;
  secret: string | null;
  orders: string[];
  hostility: string[] | null;
  vote: string | null;
  /** Codes of `problems`, in order: mail-* first, then the parser's by line. */
  problemCodes: string[];
  sheetText?: string;
  sheetTextIncludes?: string[];
  sheetTextExcludes?: string[];
  sheetSource?: 'text' | 'html' | 'attachment' | 'none';
  from?: string;
  secretSource?: 'address' | 'code-line' | 'subject';
  /** Default false. */
  oversized?: boolean;
  /** Whether `broken` is set; default false. */
  broken?: boolean;
  normalisedCodes?: string[];
  automaticReasonsInclude?: string[];
  /** Free text for the reader: what the intake should then do (e.g. a spoofed sender). */
  note?: string;
  /** What the running service makes of the mail, end to end (corpus-e2e.int.test.ts). */
  e2e: E2eExpected;
}

/**
 * The end-to-end outcome: the inbound row's status and outcome, and the one mail sent because of
 * it (`none`: nothing at all). `to` is who receives it: the sender for `ack`, `refusal` and
 * `unreadable`, the player whose secret was used for `warning`.
 */
export interface E2eExpected {
  status: 'processed' | 'ignored' | 'rejected';
  outcome: 'sheet' | 'automatic' | 'sender-mismatch' | 'unknown-code' | 'missing-code' | 'unknown-sender' | 'too-large' | 'broken';
  reply: 'ack' | 'unreadable' | 'refusal' | 'warning' | 'none';
  to?: string;
  /** For the reader: why this outcome, when the mail alone does not say. */
  why?: string;
}
