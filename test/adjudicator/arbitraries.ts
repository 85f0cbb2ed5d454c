// fast-check generators for the engine: random LEGAL positions on the classic map and random
// order sheets for them (valid orders, invalid ones, other players' units, garbage, H:/V:/E:
// lines in Italian and English, NMR and empty sheets).
import fc from 'fast-check';
import type { CellIndex } from '../../src/adjudicator/map.ts';
import { IMPERIAL, type FactionId, type GameState, type Side, type Unit } from '../../src/adjudicator/types.ts';
import { board } from './position.ts';

export type Sheets = Partial<Record<FactionId, string>>;
export interface Case {
  state: GameState;
  sheets: Sheets;
}

const ALL = Array.from({ length: board.size }, (_, i) => i);

/** Planets of factions not in play (R-SETUP-3): nobody may stand there. */
export function isNoMansLand(cell: CellIndex, inPlay: readonly FactionId[]): boolean {
  const owner = board.planetOwner[cell];
  return owner !== undefined && !inPlay.includes(owner);
}

/** Cells within Chebyshev `radius` of `center`, on the board. */
function window(center: CellIndex, radius: number): CellIndex[] {
  return ALL.filter((c) => board.distance(c, center) <= radius);
}

const capitalCenter = board.parseCell('N9')!;

/** Distinct cells for the units: uniform, a dense cluster anywhere, or a dense cluster on the Capital. */
function cellsArb(free: readonly CellIndex[]): fc.Arbitrary<CellIndex[]> {
  const freeSet = new Set(free);
  // A dense cluster: every cell of a window around `center`, kept with probability `density`%.
  const cluster = (center: fc.Arbitrary<CellIndex>) =>
    fc
      .record({
        c: center,
        r: fc.integer({ min: 1, max: 4 }),
        density: fc.integer({ min: 30, max: 100 }),
        dice: fc.array(fc.nat(99), { minLength: 81, maxLength: 81 }),
      })
      .map(({ c, r, density, dice }) => window(c, r).filter((x, i) => freeSet.has(x) && dice[i]! < density));
  return fc.oneof(
    { weight: 2, arbitrary: fc.uniqueArray(fc.constantFrom(...free), { maxLength: 60 }) },
    { weight: 3, arbitrary: cluster(fc.constantFrom(...free)) },
    { weight: 2, arbitrary: cluster(fc.constant(capitalCenter)) },
  );
}

/**
 * A legal position (R-SETUP-1..3): 4–8 factions in R-SETUP-1 order, units on distinct cells and
 * never on no-man's land, Imperial Troops only under a Chancellor, the Chancellor in play or null,
 * turn 1..30, the election flag, a clean hostility list in force, sometimes a late joiner.
 */
export const positionArb: fc.Arbitrary<GameState> = fc.integer({ min: 4, max: 8 }).chain((n) => {
  const factions = board.factionIds.slice(0, n);
  const notInPlay = board.factionIds.slice(n);
  const free = ALL.filter((c) => !isNoMansLand(c, factions));
  return fc
    .record({
      chancellor: fc.option(fc.constantFrom(...factions), { nil: null, freq: 4 }),
      homes: fc.subarray(factions),
      // The Senate in session: all four Capital cells taken, one by the Chancellor (R-POL-2, R-ELEC-5).
      senate: fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat(3) }),
      cells: cellsArb(free),
      sideSeeds: fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
      turn: fc.oneof({ weight: 1, arbitrary: fc.constant(1) }, { weight: 5, arbitrary: fc.integer({ min: 2, max: 30 }) }),
      election: fc.boolean(),
      hostility: fc.array(fc.subarray([...factions, IMPERIAL]), { minLength: n, maxLength: n }),
      victoryPlanets: fc.oneof({ weight: 3, arbitrary: fc.constant(12) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }) }),
      nmrHostility: fc.constantFrom('keep' as const, 'none' as const),
      joining: fc.oneof({ weight: 4, arbitrary: fc.constant([] as FactionId[]) }, { weight: 1, arbitrary: fc.subarray(notInPlay) }),
      gameId: fc.oneof(fc.constantFrom('game', 'g-1', 'partita'), fc.string({ minLength: 1, maxLength: 8 })),
    })
    .map((r): GameState => {
      const sides: Side[] = r.chancellor === null ? [...factions] : [...factions, IMPERIAL];
      const units: Unit[] = [];
      const used = new Set<CellIndex>();
      for (const f of r.homes) {
        for (const c of board.startingCells(f)) {
          used.add(c);
          units.push({ side: f, at: board.name(c) });
        }
      }
      if (r.senate >= 0) {
        board.capital.forEach((c, i) => {
          used.add(c);
          const side = i === r.senate && r.chancellor !== null ? r.chancellor : sides[r.sideSeeds[199 - i]! % sides.length]!;
          units.push({ side, at: board.name(c) });
        });
      }
      r.cells.forEach((c, i) => {
        if (used.has(c)) return;
        used.add(c);
        units.push({ side: sides[r.sideSeeds[i % r.sideSeeds.length]! % sides.length]!, at: board.name(c) });
      });
      const hostility: Record<FactionId, Side[]> = {};
      factions.forEach((f, i) => {
        // A list in force is a cleaned one: not itself, and the Chancellor never against the troops.
        const list = r.hostility[i]!.filter((s) => s !== f && !(s === IMPERIAL && f === r.chancellor));
        if (list.length) hostility[f] = list;
      });
      const state: GameState = {
        gameId: r.gameId,
        turn: r.turn,
        factions: [...factions],
        chancellor: r.chancellor,
        election: r.election,
        hostility,
        units,
        settings: { victoryPlanets: r.victoryPlanets, nmrHostility: r.nmrHostility },
      };
      if (r.joining.length) state.joining = r.joining;
      return state;
    });
});

// ---------- sheets ----------

/** Names a player may write, Italian and English, plus a few that name nobody or nothing known. */
const NAMES: string[] = [
  ...board.map.factions.flatMap((f) => [f.id, ...f.names.it, ...f.names.en]),
  ...board.map.imperial.names.it,
  ...board.map.imperial.names.en,
  'SITH',
  'mercanti',
  'Aristocràtici',
  'Pippo',
  'tutti',
  'nessuno',
  'none',
];

const cellText = (c: CellIndex) => board.name(c);
const offBoard = fc.constantFrom('Z9', 'J5', 'K3', 'B19', 'A0', 'X99', 'B2000');

/** An order text for the unit on `from`: valid most of the time, sometimes invalid on purpose. */
function orderFrom(from: CellIndex, inPlay: readonly FactionId[], hot: ReadonlySet<CellIndex>): fc.Arbitrary<string> {
  const f = cellText(from);
  const col = board.col(from);
  const row = board.row(from);
  const at = (dc: number, dr: number) => board.at(col + dc, row + dr);
  const nbrs = board.moveNeighbours(from).filter((c) => !isNoMansLand(c, inPlay));
  const jumps: CellIndex[] = [];
  for (let dc = -4; dc <= 4; dc++)
    for (let dr = -4; dr <= 4; dr++) {
      const c = at(dc, dr);
      if ((dc || dr) && c !== null) jumps.push(c);
    }
  const far: CellIndex[] = [];
  for (const [dc, dr] of [
    [2, 0],
    [0, -2],
    [5, 1],
    [-1, 6],
    [2, 2],
  ] as const) {
    const c = at(dc, dr);
    if (c !== null) far.push(c);
  }
  const options: fc.WeightedArbitrary<string>[] = [];
  if (nbrs.length) options.push({ weight: 8, arbitrary: fc.constantFrom(...nbrs).map((c) => `${f}-${cellText(c)}`) });
  // Hot cells draw many movers: standoffs of three or four, chains, attacks.
  const hotNbrs = nbrs.filter((c) => hot.has(c));
  if (hotNbrs.length) options.push({ weight: 12, arbitrary: fc.constantFrom(...hotNbrs).map((c) => `${f}-${cellText(c)}`) });
  options.push({ weight: 3, arbitrary: fc.constantFrom(...jumps).map((c) => `${f}=${cellText(c)}`) });
  if (board.isCapital[from]) {
    options.push({ weight: 4, arbitrary: fc.constant(`${f}#`) });
    const around = [board.north(from), board.west(from), board.south(from), board.east(from)].filter((c) => c !== null);
    options.push({ weight: 1, arbitrary: fc.constantFrom(...around, ...board.capital).map((c) => `${f}#${cellText(c)}`) });
  }
  // Invalid on purpose (R-ORD-7): not adjacent, too far, politics off the Capital, off the board.
  if (far.length) options.push({ weight: 1, arbitrary: fc.constantFrom(...far).map((c) => `${f}-${cellText(c)}`) });
  if (far.length) options.push({ weight: 1, arbitrary: fc.constantFrom(...far).map((c) => `${f}=${cellText(c)}`) });
  options.push({ weight: 1, arbitrary: fc.constant(`${f}#`) });
  options.push({ weight: 1, arbitrary: offBoard.map((c) => `${f}-${c}`) });
  const noMans = board.moveNeighbours(from).filter((c) => isNoMansLand(c, inPlay));
  if (noMans.length) options.push({ weight: 2, arbitrary: fc.constantFrom(...noMans).map((c) => `${f}-${cellText(c)}`) });
  return fc.oneof(...options);
}

/** How a player might spell an order: lower case, spaces, an en dash, a full-width sign. */
function spelled(order: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(order, fc.constantFrom('plain', 'lower', 'spaced', 'dash', 'cellspace')).map(([o, how]) => {
    switch (how) {
      case 'lower':
        return o.toLowerCase();
      case 'spaced':
        return o.replace(/([-=#])/, ' $1 ');
      case 'dash':
        return o.replace('-', '\u2013');
      case 'cellspace':
        return o.replace(/^([A-Z])/, '$1 ');
      default:
        return o;
    }
  });
}

function nameList(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(fc.constantFrom(...NAMES), { maxLength: 4 }), fc.constantFrom(', ', ' e ', ' and ', '; '))
    .map(([names, sep]) => names.join(sep));
}

/** Every way to write each side's name (R-ORD-1), by side. */
const SPELLINGS = new Map<Side, string[]>([
  ...board.map.factions.map((f) => [f.id, [f.id, ...f.names.it, ...f.names.en, f.names.it[0]!.toUpperCase()]] as [Side, string[]]),
  [IMPERIAL, [...board.map.imperial.names.it, ...board.map.imperial.names.en]],
]);

/** An `H:` line naming some sides in play (so that combat happens), spelled at random, plus noise. */
function hostilityLine(inPlay: readonly FactionId[]): fc.Arbitrary<string> {
  const named = fc
    .subarray([...inPlay, IMPERIAL], { minLength: 1 })
    .chain((sides) => fc.tuple(...sides.map((side) => fc.constantFrom(...SPELLINGS.get(side)!))));
  return fc
    .tuple(
      fc.constantFrom('H: ', 'h:', 'Ostili: ', 'Hostile : ', 'H : ', 'Ostilità: '),
      named,
      fc.array(fc.constantFrom(...NAMES), { maxLength: 2 }),
      fc.constantFrom(', ', ' e ', ' and ', '; '),
    )
    .map(([k, names, noise, sep]) => k + [...names, ...noise].join(sep));
}

/** One sheet for `faction` on `state`: orders for some of its units, then noise, shuffled. */
function sheetFor(state: GameState, faction: FactionId, hot: ReadonlySet<CellIndex>): fc.Arbitrary<string> {
  const own = state.units
    .filter((u) => u.side === faction || (u.side === IMPERIAL && faction === state.chancellor))
    .map((u) => board.parseCell(u.at)!);
  const others = state.units.length ? state.units.map((u) => board.parseCell(u.at)!) : ALL;
  const inPlay = state.factions;
  const ownOrders = fc
    .subarray(own)
    .chain((units) => (units.length ? fc.tuple(...units.map((c) => spelled(orderFrom(c, inPlay, hot)))) : fc.constant([] as string[])));
  const strayOrder = spelled(
    fc.oneof(
      fc.constantFrom(...ALL).chain((c) => orderFrom(c, inPlay, hot)), // usually an empty cell
      fc.constantFrom(...others).chain((c) => orderFrom(c, inPlay, hot)), // maybe someone else's, maybe a second order
    ),
  );
  const capitalOrAny = fc.oneof(fc.constantFrom(...board.capital), fc.constantFrom(...ALL)).map(cellText);
  const extra = fc.oneof(
    { weight: 4, arbitrary: strayOrder },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('H: ', 'h:', 'Hostility: '), nameList()).map(([k, v]) => k + v) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('V: ', 'Voto: ', 'vote:', 'V : '), fc.constantFrom(...NAMES)).map(([k, v]) => k + v) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('E: ', 'Elimina: ', 'e:'), fc.oneof(capitalOrAny, offBoard)).map(([k, v]) => k + v) },
    { weight: 1, arbitrary: fc.constantFrom('ciao a tutti', 'B2-C3 please', 'Code: 1234', '- M4-M5', '???', 'N9##', '=', 'H', '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
  );
  return fc
    .record({
      orders: ownOrders,
      perLine: fc.integer({ min: 1, max: 3 }),
      sep: fc.constantFrom(', ', ' ', '; ', ','),
      hostility: fc.option(hostilityLine(inPlay), { freq: 3 }),
      extras: fc.array(extra, { maxLength: 5 }),
      seed: fc.nat(),
      nl: fc.constantFrom('\n', '\r\n'),
    })
    .map((r) => {
      const lines: string[] = [];
      for (let i = 0; i < r.orders.length; i += r.perLine) lines.push(r.orders.slice(i, i + r.perLine).join(r.sep));
      if (r.hostility !== null) lines.push(r.hostility);
      return shuffled([...lines, ...r.extras], r.seed).join(r.nl);
    });
}

/** Sheets for a position: per faction in play an NMR (no key), an empty sheet, or a random sheet. */
export function sheetsArb(state: GameState): fc.Arbitrary<Sheets> {
  const near = [...new Set(state.units.flatMap((u) => board.moveNeighbours(board.parseCell(u.at)!)))];
  const hotArb = near.length ? fc.subarray(near, { maxLength: Math.min(6, near.length) }) : fc.constant([] as CellIndex[]);
  return hotArb.chain((hotList) => {
    const hot = new Set(hotList);
    const perFaction = state.factions.map((f) =>
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant('') },
        { weight: 8, arbitrary: sheetFor(state, f, hot) },
      ),
    );
    return fc.tuple(...perFaction).map((texts) => {
      const sheets: Sheets = {};
      state.factions.forEach((f, i) => {
        if (texts[i] !== undefined) sheets[f] = texts[i];
      });
      return sheets;
    });
  });
}

export const caseArb: fc.Arbitrary<Case> = positionArb.chain((state) => sheetsArb(state).map((sheets) => ({ state, sheets })));

/** A deterministic shuffle (for permutation properties), seeded. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
