// Adjudication throughput: `npm run bench:adjudicate`.
// Three deterministic positions on the classic map, every unit ordered through raw sheet texts
// (so parsing is included), each adjudicated repeatedly after a warm-up:
//   (a) a typical 8-faction mid-game turn (~5–8 units a faction, a few Imperial Troops, combat);
//   (c) a medium board: about half of the non-planet cells filled (~190 units);
//   (b) a crowded board: every non-planet cell filled (384 units), hostile to everyone.
// Targets on one core: (a) ≥ 20,000 turns/s, (b) ≤ 5 ms/turn. Prints PASS/MISS; always exits 0.
// Last, case (a) is split: its sheets parsed alone, and the rest of the turn by difference.
import { adjudicate } from '../src/adjudicator/adjudicate.ts';
import { parseSheet } from '../src/adjudicator/sheet.ts';
import { classicMap, type CellIndex } from '../src/adjudicator/map.ts';
import { IMPERIAL, type FactionId, type GameState, type Side } from '../src/adjudicator/types.ts';
import { seededRandom } from '../test/support/seeded-random.ts';

const board = classicMap();
const factions = [...board.factionIds];
const MIN_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

interface Case {
  name: string;
  state: GameState;
  sheets: Record<FactionId, string>;
}

const ALL = Array.from({ length: board.size }, (_, i) => i);
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** An order for the unit on `cell`: mostly moves, some jumps, politics on the Capital, some holds. */
function orderFor(r: () => number, cell: CellIndex, holdShare: number): string | null {
  const from = board.name(cell);
  if (board.isCapital[cell] && r() < 0.7) return `${from}#`;
  const x = r();
  if (x < holdShare) return null;
  if (x < holdShare + (1 - holdShare) * 0.75) return `${from}-${board.name(pick(r, board.moveNeighbours(cell)))}`;
  const near = ALL.filter((c) => c !== cell && board.distance(c, cell) <= 4);
  return `${from}=${board.name(pick(r, near))}`;
}

function makeCase(
  name: string,
  seed: number,
  units: { side: Side; at: CellIndex }[],
  holdShare: number,
  hostileTo: (f: FactionId) => Side[],
): Case {
  const r = seededRandom(seed ^ 0x9e3779b9);
  const lines = new Map<FactionId, string[]>(factions.map((f) => [f, []]));
  for (const f of factions) {
    const names = hostileTo(f).map((s) => (s === IMPERIAL ? 'Imperiali' : board.factions.get(s)!.names.it[0]!));
    if (names.length) lines.get(f)!.push(`H: ${names.join(', ')}`);
  }
  for (const u of units) {
    const owner = u.side === IMPERIAL ? 'sith' : u.side; // the Chancellor orders the troops
    const o = orderFor(r, u.at, holdShare);
    if (o) lines.get(owner)!.push(o);
  }
  const state: GameState = {
    gameId: `bench-${name}`,
    turn: 12,
    factions,
    chancellor: 'sith',
    election: false,
    hostility: {},
    units: units.map((u) => ({ side: u.side, at: board.name(u.at) })),
    settings: { victoryPlanets: 12, nmrHostility: 'keep' },
  };
  return { name, state, sheets: Object.fromEntries([...lines].map(([f, ls]) => [f, ls.join('\n')])) };
}

/** (a) Starting units, 2–5 more a faction near home or in a contested middle, the Senate, 3 troops. */
function typical(): Case {
  const r = seededRandom(1);
  const taken = new Set<CellIndex>();
  const units: { side: Side; at: CellIndex }[] = [];
  const put = (side: Side, at: CellIndex) => {
    taken.add(at);
    units.push({ side, at });
  };
  const senate: Side[] = ['sith', 'hutt', 'merchants', 'sith'];
  board.capital.forEach((c, i) => put(senate[i]!, c));
  for (const f of factions) for (const c of board.startingCells(f)) put(f, c);
  const middle = ALL.filter(
    (c) => !board.isPlanet[c] && board.col(c) >= 6 && board.col(c) <= 16 && board.row(c) >= 4 && board.row(c) <= 13,
  );
  for (const f of factions) {
    const home = board.homeCell.get(f)!;
    const nearHome = ALL.filter((c) => !board.isPlanet[c] && board.distance(c, home) <= 4);
    const extra = 2 + Math.floor(r() * 4);
    for (let k = 0; k < extra; k++) {
      const pool = (k % 2 ? middle : nearHome).filter((c) => !taken.has(c));
      put(f, pick(r, pool));
    }
  }
  for (let k = 0; k < 3; k++)
    put(
      IMPERIAL,
      pick(
        r,
        middle.filter((c) => !taken.has(c)),
      ),
    );
  const hostile = (f: FactionId): Side[] => {
    const h = seededRandom(f.length * 7919);
    const others = factions.filter((x) => x !== f);
    const out: Side[] = [];
    while (out.length < 3) {
      const s = pick(h, others);
      if (!out.includes(s)) out.push(s);
    }
    if (f !== 'sith' && h() < 0.5) out.push(IMPERIAL);
    return out;
  };
  return makeCase('(a) typical 8-faction mid-game', 1, units, 0, hostile);
}

/** Non-planet cells filled with probability `share`, sides at random, everyone hostile to everyone. */
function filled(name: string, seed: number, share: number): Case {
  const r = seededRandom(seed);
  const sides: Side[] = [...factions, IMPERIAL];
  const units = ALL.filter((c) => !board.isPlanet[c] && r() < share).map((at) => ({ side: pick(r, sides), at }));
  const hostile = (f: FactionId): Side[] => [...factions.filter((x) => x !== f), ...(f === 'sith' ? [] : [IMPERIAL])];
  return makeCase(name, seed, units, 0.2, hostile);
}

interface Row {
  name: string;
  units: number;
  turnsPerSecond: number;
  msPerTurn: number;
  usPerUnit: number;
  /** CPU time over wall time while measuring: well under 100% means other processes took the core. */
  cpuShare: number;
}

function measure(c: Case): Row {
  const run = () => adjudicate(board, c.state, c.sheets);
  const probe = run(); // also checks the case is valid
  const { edict } = probe;
  const orders = edict.declarations.reduce((n, d) => n + d.orders.length, 0);
  const moved = edict.declarations.reduce((n, d) => n + d.orders.filter((o) => o.result === 'moved' || o.result === 'jumped').length, 0);
  console.log(
    `  ${c.name}: ${c.state.units.length} units, ${orders} orders, ${moved} moved/jumped, ` +
      `${edict.eliminations.length} eliminated, ${edict.destructions.length} destroyed, ${edict.advances.length} advances`,
  );
  // Warm-up: let the JIT settle (≥ 0.3 s and ≥ 200 turns).
  const warmEnd = process.hrtime.bigint() + 300_000_000n;
  for (let i = 0; i < 200 || process.hrtime.bigint() < warmEnd; i++) run();
  let turns = 0;
  let sink = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const budget = BigInt(Math.round(MIN_SECONDS * 1e9));
  let elapsed = 0n;
  let batch = 16;
  while (elapsed < budget) {
    for (let i = 0; i < batch; i++) sink += run().edict.units.length;
    turns += batch;
    elapsed = process.hrtime.bigint() - t0;
    if (elapsed < budget / 20n) batch *= 2;
  }
  const cpu = process.cpuUsage(cpu0);
  if (sink === -1) console.log('unreachable');
  const seconds = Number(elapsed) / 1e9;
  const msPerTurn = (seconds * 1000) / turns;
  return {
    name: c.name,
    units: c.state.units.length,
    turnsPerSecond: turns / seconds,
    msPerTurn,
    usPerUnit: (msPerTurn * 1000) / c.state.units.length,
    cpuShare: (cpu.user + cpu.system) / 1e6 / seconds,
  };
}

/**
 * Case (a) split: µs per turn for its sheets parsed alone (parseSheet) and for the whole turn,
 * each the fastest of short batches taken in turns, so that a noisy moment on this machine does
 * not land on one side of the difference only.
 */
function split(c: Case): { parse: number; turn: number } {
  const texts = Object.values(c.sheets);
  let sink = 0;
  const parse = () => {
    for (const t of texts) sink += parseSheet(t, board).orders.length;
  };
  const turn = () => {
    sink += adjudicate(board, c.state, c.sheets).edict.units.length;
  };
  const batch = (fn: () => void): number => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 256; i++) fn();
    return Number(process.hrtime.bigint() - t0) / 1000 / 256;
  };
  for (let i = 0; i < 2000; i++) parse();
  const best = { parse: Infinity, turn: Infinity };
  const end = process.hrtime.bigint() + BigInt(Math.round((MIN_SECONDS / 2) * 1e9));
  do {
    best.parse = Math.min(best.parse, batch(parse));
    best.turn = Math.min(best.turn, batch(turn));
  } while (process.hrtime.bigint() < end);
  if (sink === -1) console.log('unreachable');
  return best;
}

// BENCH_ONLY=a (or b, c) measures one case, e.g. under --cpu-prof.
const only = process.env.BENCH_ONLY;
const cases = [typical(), filled('(c) medium board', 3, 0.5), filled('(b) crowded board', 2, 1)];
console.log(`adjudicate: node ${process.version}, ≥ ${MIN_SECONDS}s per case after warm-up`);
const rows = cases.map((c) => (only && !c.name.startsWith(`(${only})`) ? null : measure(c)));
const fmt = (n: number, d: number) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
console.log('');
console.log(
  `${'case'.padEnd(34)}${'units'.padStart(7)}${'turns/s'.padStart(12)}${'ms/turn'.padStart(10)}${'µs/unit'.padStart(10)}${'cpu/wall'.padStart(10)}  target`,
);
for (const row of rows) {
  if (!row) continue;
  let target = '';
  if (row.name.startsWith('(a)')) target = `≥ 20,000 turns/s: ${row.turnsPerSecond >= 20_000 ? 'PASS' : 'MISS'}`;
  if (row.name.startsWith('(b)')) target = `≤ 5 ms/turn: ${row.msPerTurn <= 5 ? 'PASS' : 'MISS'}`;
  console.log(
    `${row.name.padEnd(34)}${String(row.units).padStart(7)}${fmt(row.turnsPerSecond, 0).padStart(12)}` +
      `${fmt(row.msPerTurn, 3).padStart(10)}${fmt(row.usPerUnit, 2).padStart(10)}${`${fmt(row.cpuShare * 100, 0)}%`.padStart(10)}  ${target}`,
  );
}
const [a, c, b] = rows;
if (a && b && c)
  console.log(
    `\nscaling: µs/unit medium ÷ typical = ${fmt(c.usPerUnit / a.usPerUnit, 2)}, crowded ÷ medium = ${fmt(b.usPerUnit / c.usPerUnit, 2)} (≈1 means linear)`,
  );
if (a) {
  const { parse, turn } = split(cases[0]!);
  console.log(
    `(a) split (fastest batches): turn ${fmt(turn, 1)} µs = parsing the 8 sheets ${fmt(parse, 1)} µs + the rest ${fmt(turn - parse, 1)} µs`,
  );
}
