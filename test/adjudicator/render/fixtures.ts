// Hand-built Imperial Edicts on the classic map, consistent with the rules so that a reader can
// check every line of the render against RULES.md. Plain objects: they do not depend on the engine.
import type { Declaration, Edict, OrderOutcome, Unit } from '../../../src/adjudicator/types.ts';

const u = (side: string, at: string): Unit => ({ side, at });

function order(
  faction: string,
  side: string | null,
  text: string,
  line: number,
  result: OrderOutcome['result'],
  rule: string,
  extra: { reason?: string; with?: string[] } = {},
): OrderOutcome {
  const kind = text.includes('=') ? 'jump' : text.includes('#') ? 'politics' : 'move';
  return { faction, side, order: text, kind, line, result, rule, ...extra };
}

function decl(faction: string, d: Partial<Declaration>): Declaration {
  return {
    faction,
    isChancellor: false,
    submitted: true,
    hostility: [],
    hostilitySource: 'none',
    vote: null,
    orders: [],
    problems: [],
    ...d,
  };
}

/**
 * Turn 7 of "andromeda", six factions, Sith in office. At the start all four Capital cells were
 * held (Sith N9 and O10, Hutt O9, Aristocrats N10), so the Sith N9# makes an Imperial Troop on the
 * first free cell (N8 holds a troop, so west: M9, R-POL-2) and the Hutt O9# calls elections (R-POL-3).
 * Combat: Sith M4 falls to Hutt M3 + L4 (contested advance), Knights P9 to Imperial P10 + Sith Q9
 * (Sith ordered the move, so it goes, R-ADV-2), and a mutual elimination between Corellians M13
 * and Merchants M14 (rulebook figure 2). Knights sent no sheet: they hold and keep last turn's
 * hostility; they own T6 and their empty home, so they produce at Dagobah X2.
 */
export function midGameEdict(): Edict {
  return {
    gameId: 'andromeda',
    map: 'classic',
    turn: 7,
    electionTurn: false,
    chancellorAtStart: 'sith',
    factions: ['hutt', 'aristocrats', 'sith', 'knights', 'merchants', 'corellians'],
    victoryPlanets: 12,
    declarations: [
      decl('sith', {
        isChancellor: true,
        hostility: ['hutt', 'knights'],
        hostilitySource: 'sheet',
        orders: [
          order('sith', 'sith', 'N9#', 2, 'politics', 'R-POL-1'),
          order('sith', 'sith', 'S8-R8', 3, 'moved', 'R-MOVE-2'),
          order('sith', 'sith', 'Q9-P9', 4, 'attacked', 'R-MOVE-5', { reason: 'occupied', with: ['P9'] }),
          order('sith', 'imperial', 'P10-Q11', 5, 'stalled', 'R-MOVE-3', { reason: 'standoff', with: ['Q12'] }),
        ],
      }),
      decl('hutt', {
        hostility: ['sith', 'aristocrats'],
        hostilitySource: 'sheet',
        orders: [
          order('hutt', 'hutt', 'B2-C2', 2, 'superseded', 'R-ORD-5', { reason: 'superseded' }),
          order('hutt', 'hutt', 'B1=F3', 3, 'destroyed', 'R-HYP-5', { reason: 'collision' }),
          order('hutt', 'hutt', 'A2-A4', 4, 'invalid', 'R-MOVE-1', { reason: 'not-adjacent' }),
          order('hutt', 'hutt', 'B2-C3', 6, 'moved', 'R-MOVE-2'),
          order('hutt', 'hutt', 'M3-M4', 7, 'attacked', 'R-MOVE-5', { reason: 'occupied', with: ['M4'] }),
          order('hutt', 'hutt', 'O9#', 8, 'politics', 'R-POL-1'),
        ],
        problems: [
          {
            line: 5,
            code: 'not-understood',
            rule: 'R-ORD-8',
          },
        ],
      }),
      decl('aristocrats', {
        orders: [
          order('aristocrats', 'aristocrats', 'C1-B1', 1, 'stalled', 'R-MOVE-5', { reason: 'jumper-still-there', with: ['B1'] }),
          order('aristocrats', 'aristocrats', 'G7-H8', 2, 'moved', 'R-MOVE-2'),
          order('aristocrats', 'aristocrats', 'F7=F3', 3, 'destroyed', 'R-HYP-5', { reason: 'collision' }),
        ],
      }),
      decl('knights', { submitted: false, hostility: ['sith'], hostilitySource: 'kept' }),
      decl('merchants', {
        hostility: ['corellians'],
        hostilitySource: 'sheet',
        orders: [
          order('merchants', 'merchants', 'Q12-Q11', 2, 'stalled', 'R-MOVE-3', { reason: 'standoff', with: ['P10'] }),
          order('merchants', 'merchants', 'U12-V11', 3, 'moved', 'R-MOVE-2'),
        ],
      }),
      decl('corellians', {
        hostility: ['merchants'],
        hostilitySource: 'sheet',
        orders: [
          order('corellians', 'corellians', 'H11=H8', 2, 'destroyed', 'R-HYP-4', { reason: 'occupied' }),
          order('corellians', 'corellians', 'G13-H14', 3, 'moved', 'R-MOVE-2'),
        ],
        problems: [
          {
            line: 4,
            code: 'vote-not-election',
            rule: 'R-ORD-3',
          },
        ],
      }),
    ],
    destructions: [
      { side: 'hutt', from: 'B1', at: 'F3', rule: 'R-HYP-5', reason: 'collision' },
      { side: 'aristocrats', from: 'F7', at: 'F3', rule: 'R-HYP-5', reason: 'collision' },
      { side: 'corellians', from: 'H11', at: 'H8', rule: 'R-HYP-4', reason: 'occupied' },
    ],
    eliminations: [
      { side: 'sith', at: 'M4', rule: 'R-COMB-1', by: [u('hutt', 'L4'), u('hutt', 'M3')] },
      { side: 'corellians', at: 'M13', rule: 'R-COMB-1', by: [u('merchants', 'M14'), u('merchants', 'N13')] },
      { side: 'merchants', at: 'M14', rule: 'R-COMB-1', by: [u('corellians', 'L14'), u('corellians', 'M13')] },
      { side: 'knights', at: 'P9', rule: 'R-COMB-1', by: [u('imperial', 'P10'), u('sith', 'Q9')] },
    ],
    advances: [
      { side: 'hutt', from: 'M3', to: 'M4', rule: 'R-ADV-2', contested: true, candidates: ['L4', 'M3'] },
      { side: 'merchants', from: 'N13', to: 'M13', rule: 'R-ADV-1', contested: false, candidates: ['N13'] },
      { side: 'corellians', from: 'L14', to: 'M14', rule: 'R-ADV-1', contested: false, candidates: ['L14'] },
      { side: 'sith', from: 'Q9', to: 'P9', rule: 'R-ADV-2', contested: true, candidates: ['P10', 'Q9'] },
    ],
    politics: {
      completed: [u('sith', 'N9'), u('hutt', 'O9')],
      troop: { at: 'M9', by: 'N9', rule: 'R-POL-2' },
      electionsCalledBy: [u('hutt', 'O9')],
    },
    election: null,
    production: [{ faction: 'knights', planets: 4, units: 3, at: 'X2' }],
    units: [
      u('hutt', 'A2'),
      u('aristocrats', 'C1'),
      u('hutt', 'C3'),
      u('corellians', 'F12'),
      u('aristocrats', 'G6'),
      u('corellians', 'G12'),
      u('aristocrats', 'H8'),
      u('corellians', 'H14'),
      u('hutt', 'L4'),
      u('hutt', 'M4'),
      u('imperial', 'M9'),
      u('merchants', 'M13'),
      u('corellians', 'M14'),
      u('imperial', 'N8'),
      u('sith', 'N9'),
      u('aristocrats', 'N10'),
      u('hutt', 'O9'),
      u('sith', 'O10'),
      u('sith', 'P9'),
      u('imperial', 'P10'),
      u('merchants', 'Q12'),
      u('sith', 'R8'),
      u('knights', 'T6'),
      u('sith', 'T7'),
      u('merchants', 'T12'),
      u('merchants', 'T13'),
      u('sith', 'U7'),
      u('merchants', 'V11'),
      u('knights', 'X1'),
      u('knights', 'X2'),
      u('knights', 'Y2'),
    ],
    planets: { hutt: 3, aristocrats: 3, sith: 4, knights: 4, merchants: 2, corellians: 2 },
    chancellor: 'sith',
    electionNextTurn: true,
    electionReasons: ['politics'],
    winners: [],
    winRule: null,
    lastTurn: null,
    gameOver: false,
    joiningNextTurn: ['federals'],
  };
}

/** The sha256 of `andromeda:1` (R-ELEC-4); as a number it is odd, so index 1 of two. */
export const LOT_HASH = '3e00d117c9fe3a507b7a1d9d91184ad7be0cf861cf7332026f5a671b4c3f3e69';

/**
 * Turn 1 of "andromeda": only the election (R-TURN-1). Hutt and Aristocrats vote for each other
 * (3 votes each), Sith vote for the Imperial Troops (nothing cast), Knights send no sheet. A tie
 * with no outgoing Chancellor is settled by lot: candidates [aristocrats, hutt], index 1 → Hutt,
 * whose new unit takes N9, the first free Capital cell (R-ELEC-5).
 */
export function electionEdict(): Edict {
  const start = (f: string, cells: string[]) => cells.map((c) => u(f, c));
  return {
    gameId: 'andromeda',
    map: 'classic',
    turn: 1,
    electionTurn: true,
    chancellorAtStart: null,
    factions: ['hutt', 'aristocrats', 'sith', 'knights'],
    victoryPlanets: 12,
    declarations: [
      decl('hutt', {
        hostility: ['sith'],
        hostilitySource: 'sheet',
        vote: 'aristocrats',
        orders: [order('hutt', 'hutt', 'B2-C3', 3, 'ignored', 'R-TURN-1', { reason: 'turn-1' })],
      }),
      decl('aristocrats', { vote: 'hutt' }),
      decl('sith', {
        hostility: ['knights'],
        hostilitySource: 'sheet',
        vote: null,
        problems: [
          {
            line: 2,
            code: 'vote-imperial',
            rule: 'R-ORD-3',
          },
        ],
      }),
      decl('knights', { submitted: false, hostilitySource: 'none' }),
    ],
    destructions: [],
    eliminations: [],
    advances: [],
    politics: { completed: [], troop: null, electionsCalledBy: [] },
    election: {
      ballots: [
        { voter: 'hutt', votes: 3, for: 'aristocrats' },
        { voter: 'aristocrats', votes: 3, for: 'hutt' },
        { voter: 'sith', votes: 0, for: null, note: 'imperial' },
        { voter: 'knights', votes: 0, for: null, note: 'nmr' },
      ],
      tally: { hutt: 3, aristocrats: 3 },
      outgoing: null,
      elected: 'hutt',
      how: 'lot',
      lot: { candidates: ['aristocrats', 'hutt'], seed: 'andromeda:1', hash: LOT_HASH, index: 1 },
      newUnit: { at: 'N9', removed: null, rule: 'R-ELEC-5' },
    },
    production: [],
    units: [
      ...start('hutt', ['A2', 'B1', 'B2']),
      ...start('aristocrats', ['F7', 'G6', 'G7']),
      u('hutt', 'N9'),
      ...start('sith', ['T6', 'T7', 'U7']),
      ...start('knights', ['X1', 'X2', 'Y2']),
    ],
    planets: { hutt: 4, aristocrats: 3, sith: 3, knights: 3 },
    chancellor: 'hutt',
    electionNextTurn: false,
    electionReasons: [],
    winners: [],
    winRule: null,
    lastTurn: null,
    gameOver: false,
    joiningNextTurn: [],
  };
}
