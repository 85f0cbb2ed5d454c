// Every phrase of the Imperial Edict, in one table keyed by language (STYLE: one table), so that
// the Italian and English edicts say the same things (R-EDICT-1) and a missing translation is a
// type error, not an English word leaking into an Italian mail.
import type { Board } from '../map.ts';
import { IMPERIAL, type Declaration, type Edict, type ElectionReport, type Lang, type OrderResult, type Side } from '../types.ts';

/** The reasons the engine may put in `OrderOutcome.reason` or `Destruction.reason`. */
export const KNOWN_REASONS = [
  'standoff',
  'swap',
  'occupied',
  'blocked',
  'no-unit',
  'not-your-unit',
  'not-adjacent',
  'off-board',
  'no-mans-land',
  'too-far',
  'not-on-capital',
  'turn-1',
  'superseded',
  'planet',
  'collision',
  'occupied-after-moves',
  'eliminated',
  'not-capital-start',
  'nmr-hold',
  'jumper-still-there',
  'same-cell',
  'imperial-no-effect',
] as const;
type KnownReason = (typeof KNOWN_REASONS)[number];

/** `Ballot.note`: why a ballot cast nothing (R-ELEC-3, R-ORD-3, R-TURN-5). */
export const BALLOT_NOTES = ['nmr', 'no-vote', 'imperial', 'not-in-play', 'no-planets'] as const;
type BallotNote = (typeof BALLOT_NOTES)[number];

/**
 * The kinds of problem an edict names (R-EDICT-4: the kind and the line, never the words): the
 * parser's (sheet-messages.ts) and the engine's (engine-messages.ts) codes that reach a declaration.
 */
export const PROBLEM_KINDS = [
  'not-understood',
  'unknown-faction',
  'vote-imperial',
  'vote-empty',
  'vote-several',
  'off-board',
  'eliminate-not-cell',
  'self-hostility',
  'chancellor-imperial-hostility',
  'hostility-not-in-play',
  'vote-not-election',
  'vote-not-in-play',
] as const;
type ProblemKindCode = (typeof PROBLEM_KINDS)[number];

type ElectionHow = ElectionReport['how'];
type ElectionReason = Edict['electionReasons'][number];
type TroopRefusal = NonNullable<Edict['politics']['troopRefused']>;
/** Where the hostility in force came from; `lapsed`: an NMR with nothing kept from last turn (R-TURN-5). */
type HostilitySource = Declaration['hostilitySource'] | 'lapsed';

/**
 * A reason on its own, and the same reason naming the cells involved (`OrderOutcome.with`). A plain
 * string takes the cells in brackets.
 */
type Reason = readonly [alone: string, withCells: (cells: string) => string];

/** A complete table: every key of K, nothing else (a missing phrase is a type error). */
const table = <K extends string, V>(t: Record<K, V>): Record<K, V> => t;
const tuple6 = (t: [string, string, string, string, string, string]) => t;

const it = {
  title: (n: number, last: number | null) => `EDITTO IMPERIALE — Turno ${n}${last === null ? '' : ` di ${last}`}`,
  game: (g: string, m: string) => `Partita: ${g} — mappa: ${m}`,
  inOffice: (n: string | null) => (n ? `Cancelliere in carica: ${n}` : 'Nessun Cancelliere in carica'),
  electionTurn: 'Questo è un turno di elezioni: i voti sono nella sezione 4.',
  sections: tuple6(['ORDINI', 'IPERSPAZIO E COMBATTIMENTO', 'POLITICA', 'ELEZIONI', 'PRODUZIONE', 'SITUAZIONE FINALE']),
  turnOne: "Turno 1: solo l'elezione del primo Cancelliere; nessuna unità si muove, combatte, fa politica o viene prodotta (R-TURN-1).",
  nobody: 'nessuno',
  chancellorDeclares: 'Cancelliere, ordini dichiarati pubblicamente',
  chancellorSilent: 'Cancelliere, nessuna dichiarazione',
  hostileTo: 'Ostile a',
  hostilitySource: table<HostilitySource, string>({
    sheet: 'dal foglio ordini',
    kept: 'mantenuta dal turno precedente (R-TURN-5)',
    none: 'nessuna riga H:',
    lapsed: 'foglio mancante, nessuna ostilità in vigore dal turno precedente (R-TURN-5)',
  }),
  nmr: 'Nessun ordine ricevuto: tutte le unità restano ferme (R-TURN-5).',
  nmrChancellor: 'Nessuna dichiarazione entro la scadenza: tutte le unità e le Truppe Imperiali restano ferme (R-TURN-3).',
  noOrders: 'Nessun ordine: tutte le unità restano ferme (R-ORD-5).',
  imperialTag: '[Imperiali]',
  problems: 'Problemi nel foglio:',
  problemKinds: table<ProblemKindCode, string>({
    'not-understood': 'non è un ordine comprensibile',
    'unknown-faction': 'fazione sconosciuta',
    'vote-imperial': 'voto per le Truppe Imperiali',
    'vote-empty': 'riga V: senza fazione',
    'vote-several': 'voto per più di una fazione',
    'off-board': 'casella fuori dalla plancia',
    'eliminate-not-cell': 'riga E: senza una casella',
    'self-hostility': 'ostilità verso la propria fazione',
    'chancellor-imperial-hostility': 'il Cancelliere non può essere ostile alle Truppe Imperiali',
    'hostility-not-in-play': 'ostilità verso una fazione non in gioco',
    'vote-not-election': 'voto fuori da un turno di elezioni',
    'vote-not-in-play': 'voto per una fazione non in gioco',
  }),
  otherProblem: 'problema',
  line: (n: number) => `riga ${n}`,
  wholeSheet: 'foglio',
  results: table<OrderResult, string>({
    moved: 'movimento riuscito',
    stalled: 'in stallo',
    attacked: 'attacco, resta ferma',
    jumped: 'salto riuscito',
    destroyed: 'distrutta',
    politics: 'azione politica compiuta',
    'politics-lost': 'azione politica persa',
    invalid: 'non valido, resta ferma',
    superseded: 'sostituito',
    ignored: 'ignorato',
  }),
  reasons: table<KnownReason, string | Reason>({
    standoff: ['più unità verso la stessa casella', (c) => `stessa destinazione di ${c}`],
    swap: ['scambio di posto', (c) => `scambio di posto con ${c}`],
    occupied: ['casella occupata', (c) => `casella occupata da ${c}`],
    blocked: ["casella d'arrivo non liberata", (c) => `bloccata da ${c}`],
    'no-unit': 'nessuna tua unità in quella casella',
    'not-your-unit': "l'unità appartiene a un altro giocatore",
    'not-adjacent': "casella d'arrivo non adiacente",
    'off-board': 'casella fuori dalla mappa',
    'no-mans-land': 'terra di nessuno (fazione non in gioco)',
    'too-far': 'più di 4 caselle',
    'not-on-capital': "l'unità non è sulla Capitale",
    'turn-1': 'nel turno 1 nessuna unità agisce',
    superseded: "vale l'ordine successivo per la stessa unità",
    planet: ['salto su un pianeta', (c) => `salto sul pianeta ${c}`],
    collision: ['collisione con un altro salto', (c) => `collisione con il salto da ${c}`],
    'occupied-after-moves': ["casella d'arrivo occupata dopo i movimenti", (c) => `casella d'arrivo occupata da ${c}`],
    eliminated: "l'unità è stata eliminata in combattimento",
    'not-capital-start': "l'unità non era sulla Capitale a inizio turno",
    'nmr-hold': 'nessun ordine ricevuto, resta ferma',
    'jumper-still-there': ["l'occupante salta solo dopo i movimenti", (c) => `${c} salta solo dopo i movimenti`],
    'same-cell': 'un salto deve lasciare la casella',
    'imperial-no-effect': 'la politica di una Truppa Imperiale non ha effetto',
  }),
  involving: 'coinvolge',
  attack: (cells: string) => `attacca ${cells}, resta ferma`,
  unit: (n: string) => `Unità ${n}`,
  imperialUnit: 'Truppa Imperiale',
  imperialShort: 'Imperiale',
  destroyed: (u: string, f: string, a: string, w: string) => `${u} in salto da ${f} a ${a} distrutta: ${w}`,
  noDestructions: "Nessuna unità distrutta nell'iperspazio.",
  eliminated: (u: string, a: string, b: string) => `${u} in ${a} eliminata da ${b}`,
  noEliminations: 'Nessuna unità eliminata in combattimento.',
  advances: (u: string, t: string) => `${u} avanza in ${t}`,
  contested: (c: string) => `CONTESA tra ${c}: il Cancelliere può chiedere all'arbitro un'altra scelta (R-ADV-2)`,
  chosenByReferee: (c: string) => `scelta dall'arbitro tra ${c} (R-ADV-2)`,
  noAdvances: 'Nessuna avanzata.',
  politicsBy: (u: string) => `Azione politica compiuta da: ${u} (R-POL-1).`,
  troop: (a: string, b: string) => `Nuova Truppa Imperiale in ${a}, creata dall'unità in ${b}`,
  troopRefused: table<TroopRefusal, string>({
    'capital-not-full': 'Nessuna Truppa Imperiale: a inizio turno la Capitale non era tutta occupata (R-POL-2).',
    'no-free-cell': 'Nessuna Truppa Imperiale: nessuna casella libera adiacente (R-POL-2).',
  }),
  electionsCalled: (u: string) => `Elezioni indette per il prossimo turno da: ${u} (R-POL-3).`,
  noPolitics: 'Nessuna azione politica.',
  notElectionTurn: 'Non è un turno di elezioni.',
  outgoing: (n: string | null) => `Cancelliere uscente: ${n ?? 'nessuno'}`,
  ballots: 'Voti, uno per pianeta controllato (R-ELEC-3):',
  votes: (n: number) => (n === 1 ? '1 voto' : `${n} voti`),
  nothingCast: 'nessun voto espresso',
  ballotNotes: table<BallotNote, string>({
    nmr: 'foglio mancante (R-TURN-5)',
    'no-vote': 'nessuna riga V:',
    imperial: 'voto agli Imperiali, non valido (R-ORD-3)',
    'not-in-play': 'voto a una fazione non in gioco (R-ORD-3)',
    'no-planets': 'nessun pianeta controllato',
  }),
  tally: 'Scrutinio:',
  noVotesAtAll: 'nessun voto espresso',
  elected: (n: string) => `Nuovo Cancelliere: ${n}`,
  kept: (n: string) => `Resta Cancelliere: ${n}`,
  noChancellor: 'Nessun Cancelliere',
  how: table<ElectionHow, string>({
    majority: 'maggioranza dei voti',
    'tie-kept': 'parità: resta il Cancelliere uscente',
    'no-votes-kept': 'nessun voto: resta il Cancelliere uscente',
    lot: 'parità senza Cancelliere uscente: decide il sorteggio',
    'no-votes': 'nessun voto e nessun Cancelliere uscente',
  }),
  lot: 'Sorteggio tra i candidati in parità, ordinati per identificativo (R-ELEC-4):',
  lotIndex: (c: number, i: number, w: string) => `indice = hash mod ${c} = ${i} → ${w}`,
  newUnit: (a: string) => `Nuova unità del Cancelliere in ${a}`,
  removed: (u: string) => `rimossa: ${u}`,
  noNewUnit: 'Nessuna nuova unità: la Capitale è già tutta del nuovo Cancelliere (R-ELEC-5).',
  planets: (n: number) => (n === 1 ? '1 pianeta' : `${n} pianeti`),
  units: (n: number) => `${n} unità`,
  produced: (a: string, h: string) => `nuova unità in ${a} (${h})`,
  homeTaken: (h: string) => `nessuna nuova unità: il pianeta base ${h} è occupato`,
  notProduced: 'nessuna nuova unità',
  noProduction: 'Nessuna nuova unità prodotta.',
  perFaction: 'Pianeti controllati e unità, per fazione (R-CTRL-1..3):',
  chancellorMark: '(Cancelliere)',
  chancellor: (n: string | null) => (n ? `Cancelliere: ${n}` : 'Nessun Cancelliere'),
  nextElection: 'Il prossimo turno è un turno di elezioni (R-ELEC-1):',
  noNextElection: 'Il prossimo turno non è un turno di elezioni.',
  electionReasons: table<ElectionReason, string>({
    'no-chancellor': "non c'è un Cancelliere",
    'chancellor-off-capital': 'nessuna unità della fazione del Cancelliere è sulla Capitale',
    politics: "azione politica di un'altra fazione sulla Capitale (R-POL-3)",
  }),
  joiningNextTurn: (n: string) => `Entrano in gioco dal prossimo turno: ${n} (R-SETUP-4).`,
  winners: (n: string, s: boolean, lastTurn: boolean) =>
    `${s ? 'VITTORIA CONDIVISA' : 'VITTORIA'}: ${n} (${lastTurn ? "R-WIN-2: l'ultimo turno della partita, il maggior numero di pianeti" : 'R-WIN-1'}).`,
  noWinner: (n: number) => `Nessun vincitore per ora (vince chi controlla almeno ${n} pianeti).`,
  noWinnerLast: (n: number, last: number) =>
    `Nessun vincitore per ora (vince chi controlla almeno ${n} pianeti, o il maggior numero di pianeti alla fine del turno ${last}, R-WIN-2).`,
  gameOverNoWinner: "La partita è finita: era l'ultimo turno (R-WIN-2), senza fazioni in gioco.",
  nextDeadline: (w: string) => `Prossima scadenza per gli ordini: ${w}`,
  declarationDeadline: (w: string) => `Scadenza per la dichiarazione del Cancelliere: ${w}`,
  legendTerrain: 'Legenda: .  spazio   o  pianeta   @  Capitale',
  legendNoMansLand: 'x  terra di nessuno',
  imperialTroops: 'Truppe Imperiali',
  /** Column headings of the edict's tables (the HTML edict). */
  columns: {
    faction: 'Fazione',
    order: 'Ordine',
    result: 'Esito',
    votes: 'Voti',
    cast: 'Voto a',
    planets: 'Pianeti',
    units: 'Unità',
    made: 'Produzione',
  },
  /** The map's place in the HTML edict, where the text edict draws the board in characters. */
  mapHeading: 'Mappa della situazione finale',
};

/** The shape of a language table, taken from the Italian one: English must match it key for key. */
export type Vocabulary = typeof it;

const en: Vocabulary = {
  title: (n, last) => `IMPERIAL EDICT — Turn ${n}${last === null ? '' : ` of ${last}`}`,
  game: (g, m) => `Game: ${g} — map: ${m}`,
  inOffice: (n) => (n ? `Chancellor in office: ${n}` : 'No Chancellor in office'),
  electionTurn: 'This is an election turn: the votes are in section 4.',
  sections: ['ORDERS', 'HYPERSPACE AND COMBAT', 'POLITICS', 'ELECTION', 'PRODUCTION', 'FINAL SITUATION'],
  turnOne: 'Turn 1: only the election of the first Chancellor; no unit moves, fights, does politics or is produced (R-TURN-1).',
  nobody: 'nobody',
  chancellorDeclares: 'Chancellor, orders declared publicly',
  chancellorSilent: 'Chancellor, no declaration',
  hostileTo: 'Hostile to',
  hostilitySource: {
    sheet: 'from the sheet',
    kept: 'kept from last turn (R-TURN-5)',
    none: 'no H: line',
    lapsed: 'no sheet, none in force from last turn (R-TURN-5)',
  },
  nmr: 'No orders received: all units hold (R-TURN-5).',
  nmrChancellor: 'No declaration by the deadline: all units and the Imperial Troops hold (R-TURN-3).',
  noOrders: 'No orders: all units hold (R-ORD-5).',
  imperialTag: '[Imperial]',
  problems: 'Problems in the sheet:',
  problemKinds: {
    'not-understood': 'not an order I understand',
    'unknown-faction': 'unknown faction',
    'vote-imperial': 'vote for the Imperial Troops',
    'vote-empty': 'V: line naming no faction',
    'vote-several': 'vote for more than one faction',
    'off-board': 'cell off the board',
    'eliminate-not-cell': 'E: line without a cell',
    'self-hostility': 'hostility to its own faction',
    'chancellor-imperial-hostility': 'the Chancellor cannot be hostile to the Imperial Troops',
    'hostility-not-in-play': 'hostility to a faction not in play',
    'vote-not-election': 'vote outside an election turn',
    'vote-not-in-play': 'vote for a faction not in play',
  },
  otherProblem: 'problem',
  line: (n) => `line ${n}`,
  wholeSheet: 'sheet',
  results: {
    moved: 'moved',
    stalled: 'stalled',
    attacked: 'attacked, stays in place',
    jumped: 'jumped',
    destroyed: 'destroyed',
    politics: 'politics done',
    'politics-lost': 'politics lost',
    invalid: 'invalid, unit holds',
    superseded: 'replaced',
    ignored: 'ignored',
  },
  reasons: {
    standoff: ['standoff: several units into the same cell', (c) => `standoff with ${c}`],
    swap: ['swap of places', (c) => `swap with ${c}`],
    occupied: ['cell occupied', (c) => `cell occupied by ${c}`],
    blocked: ['target cell not freed', (c) => `blocked by ${c}`],
    'no-unit': 'no unit of yours in that cell',
    'not-your-unit': 'the unit belongs to another player',
    'not-adjacent': 'target cell not adjacent',
    'off-board': 'cell off the board',
    'no-mans-land': "no-man's land (faction not in play)",
    'too-far': 'farther than 4 cells',
    'not-on-capital': 'the unit is not on the Capital',
    'turn-1': 'no unit acts in turn 1',
    superseded: 'the later order for the same unit counts',
    planet: ['jumped onto a planet', (c) => `jumped onto the planet ${c}`],
    collision: ['collision with another jump', (c) => `collision with the jump from ${c}`],
    'occupied-after-moves': ['landing cell occupied after the moves', (c) => `landing cell occupied by ${c}`],
    eliminated: 'the unit was eliminated in combat',
    'not-capital-start': 'the unit was not on the Capital at the start of the turn',
    'nmr-hold': 'no orders received, unit holds',
    'jumper-still-there': ['the occupant jumps only after the moves', (c) => `${c} jumps only after the moves`],
    'same-cell': 'a jump must leave its cell',
    'imperial-no-effect': "an Imperial Troop's politics has no effect",
  },
  involving: 'involving',
  attack: (cells) => `attacked ${cells}, stays in place`,
  unit: (n) => `${n} unit`,
  imperialUnit: 'Imperial Troop',
  imperialShort: 'Imperial',
  destroyed: (u, f, a, w) => `${u} jumping from ${f} to ${a} destroyed: ${w}`,
  noDestructions: 'No unit destroyed in hyperspace.',
  eliminated: (u, a, b) => `${u} at ${a} eliminated by ${b}`,
  noEliminations: 'No unit eliminated in combat.',
  advances: (u, t) => `${u} advances to ${t}`,
  contested: (c) => `CONTESTED between ${c}: the Chancellor may ask the referee for another choice (R-ADV-2)`,
  chosenByReferee: (c) => `chosen by the referee among ${c} (R-ADV-2)`,
  noAdvances: 'No advances.',
  politicsBy: (u) => `Politics completed by: ${u} (R-POL-1).`,
  troop: (a, b) => `New Imperial Troop at ${a}, created by the unit at ${b}`,
  troopRefused: {
    'capital-not-full': 'No Imperial Troop: the Capital was not fully occupied at the start of the turn (R-POL-2).',
    'no-free-cell': 'No Imperial Troop: no free adjacent cell (R-POL-2).',
  },
  electionsCalled: (u) => `Elections called for next turn by: ${u} (R-POL-3).`,
  noPolitics: 'No politics.',
  notElectionTurn: 'Not an election turn.',
  outgoing: (n) => `Outgoing Chancellor: ${n ?? 'none'}`,
  ballots: 'Votes, one per planet controlled (R-ELEC-3):',
  votes: (n) => (n === 1 ? '1 vote' : `${n} votes`),
  nothingCast: 'nothing cast',
  ballotNotes: {
    nmr: 'no sheet (R-TURN-5)',
    'no-vote': 'no V: line',
    imperial: 'vote for the Imperial Troops, not valid (R-ORD-3)',
    'not-in-play': 'vote for a faction not in play (R-ORD-3)',
    'no-planets': 'controls no planet',
  },
  tally: 'Tally:',
  noVotesAtAll: 'no votes cast',
  elected: (n) => `New Chancellor: ${n}`,
  kept: (n) => `Chancellor stays: ${n}`,
  noChancellor: 'No Chancellor',
  how: {
    majority: 'most votes',
    'tie-kept': 'tie: the outgoing Chancellor stays',
    'no-votes-kept': 'no votes: the outgoing Chancellor stays',
    lot: 'tie with no outgoing Chancellor: decided by lot',
    'no-votes': 'no votes and no outgoing Chancellor',
  },
  lot: 'Lot among the tied candidates, sorted by id (R-ELEC-4):',
  lotIndex: (c, i, w) => `index = hash mod ${c} = ${i} → ${w}`,
  newUnit: (a) => `New unit of the Chancellor at ${a}`,
  removed: (u) => `removed: ${u}`,
  noNewUnit: "No new unit: the Capital is already all the new Chancellor's (R-ELEC-5).",
  planets: (n) => (n === 1 ? '1 planet' : `${n} planets`),
  units: (n) => (n === 1 ? '1 unit' : `${n} units`),
  produced: (a, h) => `new unit at ${a} (${h})`,
  homeTaken: (h) => `no new unit: home planet ${h} is occupied`,
  notProduced: 'no new unit',
  noProduction: 'No new units produced.',
  perFaction: 'Planets controlled and units, per faction (R-CTRL-1..3):',
  chancellorMark: '(Chancellor)',
  chancellor: (n) => (n ? `Chancellor: ${n}` : 'No Chancellor'),
  nextElection: 'Next turn is an election turn (R-ELEC-1):',
  noNextElection: 'Next turn is not an election turn.',
  electionReasons: {
    'no-chancellor': 'there is no Chancellor',
    'chancellor-off-capital': "no unit of the Chancellor's faction is on the Capital",
    politics: 'politics by another faction on the Capital (R-POL-3)',
  },
  joiningNextTurn: (n) => `Entering play next turn: ${n} (R-SETUP-4).`,
  winners: (n, s, lastTurn) =>
    `${s ? 'SHARED VICTORY' : 'VICTORY'}: ${n} (${lastTurn ? "R-WIN-2: the game's last turn, the most planets" : 'R-WIN-1'}).`,
  noWinner: (n) => `No winner yet (${n} planets are needed to win).`,
  noWinnerLast: (n, last) => `No winner yet (${n} planets are needed to win, or the most planets at the end of turn ${last}, R-WIN-2).`,
  gameOverNoWinner: 'The game is over: this was its last turn (R-WIN-2), with no faction in play.',
  nextDeadline: (w) => `Next deadline for orders: ${w}`,
  declarationDeadline: (w) => `Deadline for the Chancellor's declaration: ${w}`,
  legendTerrain: 'Legend: .  space   o  planet   @  Capital',
  legendNoMansLand: "x  no-man's land",
  imperialTroops: 'Imperial Troops',
  columns: {
    faction: 'Faction',
    order: 'Order',
    result: 'Result',
    votes: 'Votes',
    cast: 'Vote for',
    planets: 'Planets',
    units: 'Units',
    made: 'Production',
  },
  mapHeading: 'Map of the final situation',
};

export const VOCABULARY: Readonly<Record<Lang, Vocabulary>> = { it, en };

/** A side's display name: the map's first name in that language (R-BOARD-5), else the raw id. */
export function sideName(board: Board, side: Side, lang: Lang): string {
  if (side === IMPERIAL) return VOCABULARY[lang].imperialTroops;
  return board.factions.get(side)?.names[lang][0] ?? side;
}

/**
 * A side's display name as the object of a sentence: in Italian with its article (`gli Hutt`,
 * `i Sith`: "inviato agli Hutt"), from the map's table, else guessed for a masculine plural
 * (`gli` before a vowel, h, s+consonant, z, x, y, gn, ps, pn; else `i`); in English the bare name.
 */
export function sideNameAsObject(board: Board, side: Side, lang: Lang): string {
  const name = sideName(board, side, lang);
  if (lang !== 'it') return name;
  const article = (side === IMPERIAL ? board.map.imperial.article : board.factions.get(side)?.article)?.it ?? guessArticle(name);
  return `${article} ${name}`;
}

function guessArticle(name: string): 'i' | 'gli' {
  return /^([aeiouhxyzàèéìòù]|s[^aeiouàèéìòù]|gn|ps|pn)/i.test(name) ? 'gli' : 'i';
}

/** A reason in words, with the cells involved; an unknown reason is printed as the engine wrote it. */
export function reasonText(lang: Lang, reason: string, cells: readonly string[] = []): string {
  const known = (KNOWN_REASONS as readonly string[]).includes(reason) ? VOCABULARY[lang].reasons[reason as KnownReason] : reason;
  const list = cells.join(', ');
  if (cells.length === 0) return typeof known === 'string' ? known : known[0];
  return typeof known === 'string' ? `${known} (${list})` : known[1](list);
}

/** A problem's kind in words (R-EDICT-4); a code this table does not know is just "problem". */
export function problemKindText(lang: Lang, code: string): string {
  return (PROBLEM_KINDS as readonly string[]).includes(code)
    ? VOCABULARY[lang].problemKinds[code as ProblemKindCode]
    : VOCABULARY[lang].otherProblem;
}

/** A ballot note in words; unknown notes as written. */
export function ballotNote(lang: Lang, note: string): string {
  return (BALLOT_NOTES as readonly string[]).includes(note) ? VOCABULARY[lang].ballotNotes[note as BallotNote] : note;
}
