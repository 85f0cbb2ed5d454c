// The adjudicator's vocabulary: positions, sheets and the Imperial Edict as plain data.
// Cells are canonical strings at this boundary ("B2", "N10"); inside, the engine uses indices.

/** A faction id from the map (`hutt`, `aristocrats`, …). */
export type FactionId = string;
/** A faction, or the Imperial Troops commanded by the Chancellor (R-SETUP-1). */
export type Side = FactionId | 'imperial';
export const IMPERIAL = 'imperial' as const;

export type Lang = 'it' | 'en';
/** A rule of record (`R-MOVE-3`) or a recorded referee decision (`D-…`, docs/rules-decisions.md). */
export type RuleId = string;

export interface Unit {
  side: Side;
  at: string;
}

export interface GameSettings {
  /** R-WIN-1, default 12. */
  victoryPlanets: number;
  /** R-TURN-5, default keep. */
  nmrHostility: 'keep' | 'none';
  /**
   * R-WIN-2: the game's last turn, set when it starts (the referee may change it); absent or null,
   * the game plays until R-WIN-1. A turn at or past it is the last.
   */
  lastTurn?: number | null;
}

/** The position before a turn is adjudicated. */
export interface GameState {
  gameId: string;
  /** The turn being adjudicated; 1 is the first election (R-TURN-1). */
  turn: number;
  /** Factions in play, any order (the engine uses the map's R-SETUP-1 order). */
  factions: FactionId[];
  chancellor: FactionId | null;
  /** This turn is an election turn. */
  election: boolean;
  /** Hostility in force from the previous turn, used for NMR under R-TURN-5. */
  hostility: Record<FactionId, Side[]>;
  units: Unit[];
  settings: GameSettings;
  /** Late joiners (R-SETUP-4) whose units enter at the start of the next turn. */
  joining?: FactionId[];
}

// ---------- sheets ----------

/**
 * A problem as everything public shows it (R-EDICT-4): its line (1-based; 0 = whole sheet) and
 * its kind, never the words the player wrote, which only the writer is shown (R-ORD-8).
 */
export interface ProblemKind {
  line: number;
  code: string;
  /** Rule behind it, when there is one. */
  rule?: RuleId;
}

/** Something in a sheet the player should hear about, in words for the writer alone. */
export interface Problem extends ProblemKind {
  message: { it: string; en: string };
  /** The text of the line as written (trimmed), when the problem is about one line. */
  text?: string;
}

export type OrderKind = 'move' | 'jump' | 'politics';

/** An order as written, before the board is consulted. Cells are canonical text, possibly off the board. */
export interface WrittenOrder {
  kind: OrderKind;
  from: string;
  /** Target of a move or jump; for politics, the optional troop placement (`N9#M9`, R-POL-2). */
  to: string | null;
  line: number;
  /** Canonical spelling: `B2-C3`, `B2=F6`, `N9#`, `N9#M9`. */
  canonical: string;
}

export interface ParsedSheet {
  /** Hostility named in `H:` lines, in the order written (deduplicated). Empty when none. */
  hostility: Side[];
  /** The line on which each side of `hostility` was first named (same index). */
  hostilityLines: number[];
  /** Whether any `H:` line was present. */
  hostilityDeclared: boolean;
  /** Every order in the order written, including those later superseded (R-ORD-5). */
  orders: WrittenOrder[];
  /** `V:` as understood: a side, or null when none (last wins, R-ORD-3). */
  vote: { side: Side; line: number } | null;
  /** `E:` as understood (R-ORD-4), canonical cell text. */
  eliminate: { cell: string; line: number } | null;
  /** Lines not understood, unknown names, and so on. */
  problems: Problem[];
  /** Lines with no order shape at all (greetings, names, signatures: D-PARSE-16), never problems. */
  ignored: Problem[];
  /** Substitutions made while reading (en dash → `-`, no-break space → space…). */
  normalised: Problem[];
}

// ---------- outcomes ----------

export type OrderResult =
  | 'moved' // R-MOVE-2
  | 'stalled' // R-MOVE-3/4/5
  | 'attacked' // R-MOVE-5
  | 'jumped' // R-HYP-2
  | 'destroyed' // R-HYP-3/4/5
  | 'politics' // R-POL-1, completed
  | 'politics-lost' // the unit did not survive combat
  | 'invalid' // R-ORD-7 and friends: the unit holds
  | 'superseded' // a later order for the same unit replaced it (R-ORD-5)
  | 'ignored'; // turn 1, or no unit of the sender's side

export interface OrderOutcome {
  /** Faction whose sheet carried the order. */
  faction: FactionId;
  /** Side of the unit ordered (`imperial` for the Chancellor's troops), null if there was no such unit. */
  side: Side | null;
  order: string;
  kind: OrderKind;
  line: number;
  result: OrderResult;
  rule: RuleId;
  /** Why, in a word the renderer knows (`standoff`, `swap`, `not-adjacent`, …). */
  reason?: string;
  /** Other cells involved (the rival movers in a standoff, the occupant hit by a jump…). */
  with?: string[];
}

export interface Declaration {
  faction: FactionId;
  isChancellor: boolean;
  /** False for an NMR (R-TURN-5). */
  submitted: boolean;
  hostility: Side[];
  hostilitySource: 'sheet' | 'kept' | 'none';
  vote: Side | null;
  orders: OrderOutcome[];
  /** Public: where and what kind, without the words of the line (R-EDICT-4). */
  problems: ProblemKind[];
}

interface Elimination {
  side: Side;
  at: string;
  rule: RuleId;
  /** The hostile units that counted (R-COMB-1; for an Imperial Troop, the opposite pairs). */
  by: Unit[];
}

export interface Destruction {
  side: Side;
  from: string;
  at: string;
  rule: RuleId;
  reason: 'planet' | 'occupied' | 'collision';
  /** The unit hit on landing (R-HYP-4), or where the other jumpers came from (R-HYP-5). */
  with?: string[];
}

export interface Advance {
  side: Side;
  from: string;
  to: string;
  rule: RuleId;
  /** Two or more units were eligible (R-ADV-4); the Chancellor may choose otherwise. */
  contested: boolean;
  candidates: string[];
  /** The referee applied another choice than the rules' default, in an amendment (R-ADV-2, R-EDICT-3). */
  chosenByReferee?: true;
}

export interface PoliticsReport {
  /** Units whose `#` counted (R-POL-1). */
  completed: Unit[];
  troop: { at: string; by: string; rule: RuleId } | null;
  /** Why no troop, when the Chancellor's `#` could have made one. */
  troopRefused?: 'capital-not-full' | 'no-free-cell';
  /** Units of another faction whose `#` calls elections (R-POL-3). */
  electionsCalledBy: Unit[];
}

export interface Ballot {
  voter: FactionId;
  votes: number;
  for: Side | null;
  /** Why nothing was cast: nmr, no-vote, imperial, not-in-play, no-planets. */
  note?: string;
}

export interface ElectionReport {
  ballots: Ballot[];
  tally: Record<FactionId, number>;
  outgoing: FactionId | null;
  elected: FactionId | null;
  how: 'majority' | 'tie-kept' | 'no-votes-kept' | 'lot' | 'no-votes';
  lot?: { candidates: FactionId[]; seed: string; hash: string; index: number };
  /** R-ELEC-5: the new Chancellor's unit, and the unit it replaced. */
  newUnit: { at: string; removed: Unit | null; rule: RuleId } | null;
}

export interface ProductionEntry {
  faction: FactionId;
  planets: number;
  units: number;
  /** Where the new unit went, or null when the home planet was taken. */
  at: string | null;
}

export interface Edict {
  gameId: string;
  map: string;
  turn: number;
  electionTurn: boolean;
  chancellorAtStart: FactionId | null;
  /** Factions in play this turn, R-SETUP-1 order. */
  factions: FactionId[];
  /** Planets needed to win (R-WIN-1). */
  victoryPlanets: number;
  /** The Chancellor's first, then R-SETUP-1 order. */
  declarations: Declaration[];
  eliminations: Elimination[];
  destructions: Destruction[];
  advances: Advance[];
  politics: PoliticsReport;
  election: ElectionReport | null;
  production: ProductionEntry[];
  /** Final units, in board order. */
  units: Unit[];
  /** Planets controlled for production and victory (R-CTRL-3), every faction in play. */
  planets: Record<FactionId, number>;
  chancellor: FactionId | null;
  electionNextTurn: boolean;
  electionReasons: ('no-chancellor' | 'chancellor-off-capital' | 'politics')[];
  winners: FactionId[];
  /** The rule that made the winners: R-WIN-1 (the threshold) or R-WIN-2 (the last turn); null, none. */
  winRule: 'R-WIN-1' | 'R-WIN-2' | null;
  /** The game's last turn when this one was adjudicated (R-WIN-2), null when it has none. */
  lastTurn: number | null;
  /** This was the game's last turn, or a faction won: the game is over (R-WIN-1, R-WIN-2). */
  gameOver: boolean;
  /** Factions entering at the start of the next turn (R-SETUP-4). */
  joiningNextTurn: FactionId[];
}

/** What a referee may decide when amending a turn after a dispute (R-ADV-2, R-EDICT-3). */
export interface AdjudicationChoices {
  /** Freed cell → the cell of the unit that advances into it instead of the rules' default. */
  advances?: Readonly<Record<string, string>>;
}

export interface AdjudicationResult {
  /** The position for the next turn. */
  state: GameState;
  edict: Edict;
}
