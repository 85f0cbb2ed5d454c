// Properties of `adjudicate` on random legal positions and random sheets (arbitraries.ts).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { parseSheet } from '../../src/adjudicator/sheet.ts';
import { assertValidState } from '../../src/adjudicator/state-check.ts';
import { IMPERIAL, type AdjudicationResult, type GameState, type OrderOutcome, type Side } from '../../src/adjudicator/types.ts';
import { caseArb, isNoMansLand, sheetsArb, shuffled, type Case, type Sheets } from './arbitraries.ts';
import { board } from './position.ts';

// ENGINE_PROPERTY_RUNS=5000 for a deeper search; the default keeps the file well under 20 s.
const RUNS = Number(process.env.ENGINE_PROPERTY_RUNS ?? 250);
const TIMEOUT = Math.max(30_000, RUNS * 200);
const RULE_ID = /^(R|D)-[A-Z]+-\d+$/;

function run(c: Case): AdjudicationResult {
  return adjudicate(board, c.state, c.sheets);
}

function withLastTurn(c: Case, lastTurn: number | null): Case {
  return { ...c, state: { ...c.state, settings: { ...c.state.settings, lastTurn } } };
}

const cellOf = (text: string) => board.parseCell(text)!;
const fromOf = (o: OrderOutcome) => o.order.split(/[-=#]/)[0]!;
const toOf = (o: OrderOutcome) => o.order.split(/[-=#]/)[1]!;

/** What a faction-free summary of units looks like: `side@cell`, sorted. */
const summary = (units: readonly { side: Side; at: string }[]) => units.map((u) => `${u.side}@${u.at}`).sort();

/**
 * Replays the edict on the starting position: moves and jumps (simultaneous), destructions,
 * eliminations, advances, the Imperial Troop, R-ELEC-5, production. Every step must find the unit
 * it names and an empty cell where it puts one; the result must be the edict's final position.
 */
function replay(state: GameState, result: AdjudicationResult): string[] {
  const { edict } = result;
  const problems: string[] = [];
  const at = new Map<string, Side>(state.units.map((u) => [u.at, u.side]));
  const take = (cell: string, side: Side, why: string) => {
    if (at.get(cell) !== side) problems.push(`${why}: no ${side} unit on ${cell}`);
    at.delete(cell);
  };
  const put = (cell: string, side: Side, why: string) => {
    if (at.has(cell)) problems.push(`${why}: ${cell} is not empty`);
    at.set(cell, side);
  };
  const outcomes = edict.declarations.flatMap((d) => d.orders);
  const travelling = outcomes.filter((o) => o.result === 'moved' || o.result === 'jumped' || o.result === 'destroyed');
  for (const o of travelling) take(fromOf(o), o.side!, o.order);
  for (const o of travelling) if (o.result !== 'destroyed') put(toOf(o), o.side!, o.order);
  const destroyedFrom = travelling
    .filter((o) => o.result === 'destroyed')
    .map((o) => fromOf(o))
    .sort();
  if (JSON.stringify(destroyedFrom) !== JSON.stringify(edict.destructions.map((d) => d.from).sort())) {
    problems.push(`destructions ${JSON.stringify(edict.destructions)} vs outcomes ${destroyedFrom}`);
  }
  for (const e of edict.eliminations) take(e.at, e.side, `elimination ${e.at}`);
  for (const a of edict.advances) {
    take(a.from, a.side, `advance ${a.from}`);
    put(a.to, a.side, `advance ${a.to}`);
  }
  if (edict.politics.troop) put(edict.politics.troop.at, IMPERIAL, 'troop');
  const nu = edict.election?.newUnit;
  if (nu) {
    if (nu.removed) take(nu.at, nu.removed.side, 'R-ELEC-5 removal');
    put(nu.at, edict.election!.elected!, 'R-ELEC-5 unit');
  }
  for (const p of edict.production) if (p.at) put(p.at, p.faction, `production ${p.faction}`);
  const replayed = summary([...at].map(([cell, side]) => ({ side, at: cell })));
  if (JSON.stringify(replayed) !== JSON.stringify(summary(edict.units))) {
    problems.push(`replayed ${replayed.join(' ')} but edict has ${summary(edict.units).join(' ')}`);
  }
  return problems;
}

// ---------- an independent reading of RULES.md section 5 (differential oracle) ----------
// Written from the rules, not from the engine: naive loops over cells, no shared code except the
// board geometry and the sheet parser (which has its own tests). Cells are indices.

type Eff = { kind: 'move' | 'jump'; to: number } | { kind: 'politics'; place: number | null };

interface Reference {
  moves: Map<number, { result: 'moved' | 'stalled' | 'attacked'; rule: string }>;
  jumps: Map<number, string>; // from → 'R-HYP-2' (landed) or the destroying rule
  eliminated: string[]; // side@cell
  advances: string[]; // from>to
  troop: string | null;
  tally: Record<string, number> | null;
  elected: string | null;
  newUnit: string | null; // side@cell
  production: string[]; // faction@cell
  final: string[]; // side@cell, sorted
  electionNextTurn: boolean;
  winners: string[];
}

function reference(state: GameState, sheets: Sheets): Reference {
  const inPlay = new Set(state.factions);
  const factions = board.factionIds.filter((f) => inPlay.has(f));
  const chancellor = state.chancellor;
  const noMans = (c: number) => isNoMansLand(c, state.factions);
  const parsed = new Map(factions.filter((f) => sheets[f] !== undefined).map((f) => [f, parseSheet(sheets[f]!, board)] as const));
  const first = state.turn === 1;
  const electionTurn = first || state.election;

  // Hostility in force (R-ORD-1, R-TURN-5, R-COMB-3).
  const hostile = new Map<string, Set<Side>>();
  for (const f of factions) {
    const list = parsed.get(f)?.hostility ?? (state.settings.nmrHostility === 'keep' ? (state.hostility[f] ?? []) : []);
    hostile.set(f, new Set(list.filter((s) => s !== f && !(s === IMPERIAL && f === chancellor) && (s === IMPERIAL || inPlay.has(s)))));
  }
  const isHostile = (a: Side, t: Side): boolean => {
    if (a === t) return false;
    if (a === IMPERIAL) return chancellor !== null && t !== chancellor && hostile.get(chancellor)!.has(t);
    if (t === IMPERIAL && a === chancellor) return false;
    return hostile.get(a)!.has(t);
  };

  const start = new Map<number, Side>(state.units.map((u) => [cellOf(u.at), u.side]));
  // Effective orders (R-ORD-5: the last order for an own unit wins, even when invalid).
  const eff = new Map<number, Eff>();
  if (!first) {
    for (const [f, sheet] of parsed) {
      const last = new Map<number, (typeof sheet.orders)[number]>();
      for (const w of sheet.orders) {
        const from = board.parseCell(w.from);
        if (from === null) continue;
        const side = start.get(from);
        if (side !== undefined && (side === f || (side === IMPERIAL && f === chancellor))) last.set(from, w);
      }
      for (const [from, w] of last) {
        const to = w.to === null ? null : board.parseCell(w.to);
        if (w.to !== null && to === null) continue;
        if (w.kind === 'move' && board.distance(from, to!) === 1 && !noMans(to!)) eff.set(from, { kind: 'move', to: to! });
        if (w.kind === 'jump' && board.distance(from, to!) >= 1 && board.distance(from, to!) <= 4) eff.set(from, { kind: 'jump', to: to! });
        if (w.kind === 'politics' && board.isCapital[from]) eff.set(from, { kind: 'politics', place: to });
      }
    }
  }
  const moveTo = (c: number) => {
    const e = eff.get(c);
    return e?.kind === 'move' ? e.to : null;
  };
  const jumpTo = (c: number) => {
    const e = eff.get(c);
    return e?.kind === 'jump' ? e.to : null;
  };

  // Moves (R-MOVE-2..5): standoffs fail; then a fixpoint; undecided movers form rings.
  const movers = [...eff.keys()].filter((c) => moveTo(c) !== null);
  const status = new Map<number, 'ok' | 'fail'>();
  const why = new Map<number, string>();
  for (const m of movers) {
    if (movers.filter((o) => moveTo(o) === moveTo(m)).length > 1) {
      status.set(m, 'fail');
      why.set(m, 'R-MOVE-3');
    }
  }
  for (;;) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const m of movers) {
        if (status.has(m)) continue;
        const t = moveTo(m)!;
        const occ = start.has(t) ? t : null;
        let verdict: 'ok' | 'fail' | null = null;
        if (occ === null) verdict = 'ok';
        else if (moveTo(occ) === null || status.get(occ) === 'fail') verdict = 'fail';
        else if (status.get(occ) === 'ok') verdict = 'ok';
        if (verdict) {
          status.set(m, verdict);
          changed = true;
        }
      }
    }
    const open = movers.filter((m) => !status.has(m));
    if (!open.length) break;
    // Every open mover points at another open mover: follow to a cycle.
    let c = open[0]!;
    const seen: number[] = [];
    while (!seen.includes(c)) {
      seen.push(c);
      c = moveTo(c)!;
    }
    const ring = seen.slice(seen.indexOf(c));
    for (const r of ring) {
      status.set(r, ring.length >= 3 ? 'ok' : 'fail');
      if (ring.length < 3) why.set(r, 'R-MOVE-4');
    }
  }
  const afterMoves = new Map(start);
  for (const m of movers) if (status.get(m) === 'ok') afterMoves.delete(m);
  for (const m of movers) if (status.get(m) === 'ok') afterMoves.set(moveTo(m)!, start.get(m)!);
  const moves = new Map<number, { result: 'moved' | 'stalled' | 'attacked'; rule: string }>();
  for (const m of movers) {
    if (status.get(m) === 'ok') moves.set(m, { result: 'moved', rule: 'R-MOVE-2' });
    else {
      const occ = afterMoves.get(moveTo(m)!);
      if (occ !== undefined && isHostile(start.get(m)!, occ)) moves.set(m, { result: 'attacked', rule: 'R-MOVE-5' });
      else moves.set(m, { result: 'stalled', rule: why.get(m) ?? 'R-MOVE-5' });
    }
  }
  // Where each unit is now, by its start cell (to follow it through later steps).
  const whereNow = new Map<number, number>();
  for (const c of start.keys()) whereNow.set(c, status.get(c) === 'ok' ? moveTo(c)! : c);

  // Hyperspace (R-HYP-2..5), against the position after the moves.
  const jumpers = [...eff.keys()].filter((c) => jumpTo(c) !== null);
  const afterJumps = new Map(afterMoves);
  for (const j of jumpers) afterJumps.delete(j);
  const jumps = new Map<number, string>();
  for (const j of jumpers) {
    const t = jumpTo(j)!;
    if (board.isPlanet[t]) jumps.set(j, 'R-HYP-3');
    else if (afterJumps.has(t)) jumps.set(j, 'R-HYP-4');
    else if (jumpers.filter((o) => jumpTo(o) === t).length > 1) jumps.set(j, 'R-HYP-5');
    else jumps.set(j, 'R-HYP-2');
  }
  for (const j of jumpers) {
    if (jumps.get(j) === 'R-HYP-2') {
      afterJumps.set(jumpTo(j)!, start.get(j)!);
      whereNow.set(j, jumpTo(j)!);
    } else whereNow.delete(j);
  }

  // Combat (R-COMB-1..5), all at once; then advances (R-ADV-1..4).
  const pos = afterJumps;
  const orth = (c: number) => {
    const col = board.col(c);
    const row = board.row(c);
    return { n: board.at(col, row - 1), w: board.at(col - 1, row), s: board.at(col, row + 1), e: board.at(col + 1, row) };
  };
  const falls: { cell: number; side: Side; by: number[] }[] = [];
  for (const [c, side] of first ? [] : [...pos].sort((a, b) => a[0] - b[0])) {
    const h = (x: number | null) => x !== null && pos.has(x) && isHostile(pos.get(x)!, side);
    const { n, w, s, e } = orth(c);
    let by: number[];
    if (side === IMPERIAL) by = [...(h(n) && h(s) ? [n!, s!] : []), ...(h(w) && h(e) ? [w!, e!] : [])];
    else by = [n, w, s, e].filter((x) => h(x)) as number[];
    if (side === IMPERIAL ? by.length > 0 : by.length >= 2) falls.push({ cell: c, side, by: by.sort((a, b) => a - b) });
  }
  const fallen = new Set(falls.map((f) => f.cell));
  const startOf = new Map<number, number>();
  for (const [s0, now] of whereNow) startOf.set(now, s0);
  const orderedInto = (unitCell: number, cell: number) => moveTo(startOf.get(unitCell)!) === cell;
  const advanced = new Set<number>();
  const taken = new Map<number, number>(); // freed cell → unit cell that advanced
  const cands = (f: (typeof falls)[number]) => f.by.filter((u) => !fallen.has(u) && !advanced.has(u));
  for (const f of falls) {
    const mover = cands(f).find((u) => orderedInto(u, f.cell));
    if (mover !== undefined) {
      advanced.add(mover);
      taken.set(f.cell, mover);
    }
  }
  for (const f of falls) {
    if (taken.has(f.cell)) continue;
    const pool = cands(f);
    if (pool.length) {
      advanced.add(pool[0]!);
      taken.set(f.cell, pool[0]!);
    }
  }
  const afterCombat = new Map(pos);
  for (const f of falls) afterCombat.delete(f.cell);
  for (const from of taken.values()) afterCombat.delete(from);
  for (const [to, from] of taken) afterCombat.set(to, pos.get(from)!);
  for (const [to, from] of taken) {
    const s0 = startOf.get(from)!;
    whereNow.set(s0, to);
  }
  for (const f of falls) {
    const s0 = startOf.get(f.cell);
    if (s0 !== undefined && whereNow.get(s0) === f.cell) whereNow.delete(s0);
  }

  // Politics (R-POL-1..3) by units still on the board.
  const alive = (s0: number) => whereNow.has(s0);
  const completed = [...eff]
    .filter(([c, e]) => e.kind === 'politics' && alive(c))
    .map(([c]) => c)
    .sort((a, b) => a - b);
  let troop: number | null = null;
  const capitalFull = board.capital.every((c) => start.has(c));
  if (capitalFull) {
    for (const c of completed) {
      if (start.get(c) !== chancellor) continue;
      const { n, w, s, e } = orth(c);
      const ok = (x: number | null): x is number => x !== null && !board.isCapital[x] && !noMans(x) && !afterCombat.has(x);
      const place = (eff.get(c) as { place: number | null }).place;
      const cell = place !== null && [n, w, s, e].includes(place) && ok(place) ? place : [n, w, s, e].find(ok);
      if (cell !== undefined) {
        troop = cell;
        afterCombat.set(cell, IMPERIAL);
        break;
      }
    }
  }

  // Elections (R-ELEC-3..5).
  const planets = (p: Map<number, Side>, imperialFor: string | null) => {
    const out: Record<string, number> = Object.fromEntries(factions.map((f) => [f, 0]));
    for (let c = 0; c < board.size; c++) {
      if (!board.isPlanet[c]) continue;
      let owner: string | null = null;
      const side = p.get(c);
      if (side !== undefined) owner = side === IMPERIAL ? imperialFor : side;
      else if (board.planetOwner[c] !== undefined && board.homeCell.get(board.planetOwner[c]!) === c) owner = board.planetOwner[c]!;
      if (owner !== null && owner in out) out[owner]! += 1;
    }
    return out;
  };
  let tally: Record<string, number> | null = null;
  let elected = chancellor;
  let newUnit: string | null = null;
  if (electionTurn) {
    const votes = planets(afterCombat, chancellor);
    tally = {};
    for (const f of factions) {
      const v = parsed.get(f)?.vote?.side;
      if (v === undefined || v === IMPERIAL || !inPlay.has(v) || votes[f] === 0) continue;
      tally[v] = (tally[v] ?? 0) + votes[f]!;
    }
    const best = Math.max(0, ...Object.values(tally));
    const tied = Object.keys(tally)
      .filter((k) => tally![k] === best)
      .sort();
    if (tied.length === 1) elected = tied[0]!;
    else if (tied.length > 1 && chancellor === null) {
      const hash = createHash('sha256').update(`${state.gameId}:${state.turn}`).digest('hex');
      elected = tied[Number(BigInt(`0x${hash}`) % BigInt(tied.length))]!;
    }
    if (elected !== null && elected !== chancellor) {
      let cell = board.capital.find((c) => !afterCombat.has(c));
      if (cell === undefined) {
        const named = parsed.get(elected)?.eliminate?.cell;
        const e = named === undefined ? null : board.parseCell(named);
        cell =
          e !== null && board.isCapital[e] && afterCombat.has(e) && afterCombat.get(e) !== elected
            ? e
            : board.capital.find((c) => afterCombat.get(c) !== elected);
      }
      if (cell !== undefined) {
        afterCombat.set(cell, elected);
        newUnit = `${elected}@${board.name(cell)}`;
      }
    }
  }

  // Production (R-PROD-1): planets counted once, after the election.
  const production: string[] = [];
  if (!first) {
    const owned = planets(afterCombat, null);
    const count = (f: string) => [...afterCombat.values()].filter((s) => s === f).length;
    const due = factions.filter((f) => owned[f]! > count(f));
    for (const f of due) {
      const home = board.homeCell.get(f)!;
      if (!afterCombat.has(home)) {
        afterCombat.set(home, f);
        production.push(`${f}@${board.name(home)}`);
      }
    }
  }
  const finalPlanets = planets(afterCombat, null);
  // R-WIN-1; on the game's last turn with nobody at the threshold, R-WIN-2: everyone qualifies.
  const atThreshold = factions.filter((f) => finalPlanets[f]! >= state.settings.victoryPlanets);
  const last = state.settings.lastTurn;
  const lastTurn = last !== undefined && last !== null && state.turn >= last;
  const qualified = atThreshold.length || !lastTurn ? atThreshold : factions;
  const top = Math.max(0, ...qualified.map((f) => finalPlanets[f]!));
  const politicsCalls = completed.some((c) => start.get(c) !== IMPERIAL && start.get(c) !== elected);
  return {
    moves,
    jumps,
    eliminated: falls.map((f) => `${f.side}@${board.name(f.cell)}`),
    advances: [...taken].sort((a, b) => a[0] - b[0]).map(([to, from]) => `${board.name(from)}>${board.name(to)}`),
    troop: troop === null ? null : board.name(troop),
    tally,
    elected,
    newUnit,
    production,
    final: summary([...afterCombat].map(([c, side]) => ({ side, at: board.name(c) }))),
    electionNextTurn: elected === null || !board.capital.some((c) => afterCombat.get(c) === elected) || politicsCalls,
    winners: qualified.filter((f) => finalPlanets[f] === top),
  };
}

describe('adjudicate on random legal positions and sheets', () => {
  it(
    '(a) never throws (R-ORD-7, R-ORD-8: bad input is reported, not fatal)',
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          run(c);
        }),
        { numRuns: RUNS * 2 },
      );
    },
    TIMEOUT,
  );

  it(
    '(b) units are conserved: start − eliminations − destructions (R-HYP-3..5) − R-ELEC-5 removal + troop (R-POL-2) + new Chancellor (R-ELEC-5) + production (R-PROD-1)',
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          const { edict } = run(c);
          const nu = edict.election?.newUnit ?? null;
          const expected =
            c.state.units.length -
            edict.eliminations.length -
            edict.destructions.length -
            (nu?.removed ? 1 : 0) +
            (edict.politics.troop ? 1 : 0) +
            (nu ? 1 : 0) +
            edict.production.filter((p) => p.at !== null).length;
          expect(edict.units.length).toBe(expected);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    '(b) the edict accounts for every unit: replaying its moves, jumps, falls, advances and creations gives its final position (R-EDICT-1)',
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          expect(replay(c.state, run(c))).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "(c) final units: one per cell, on the board, never on no-man's land (R-SETUP-3), in board order (R-BOARD-3)",
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          const { edict, state } = run(c);
          const cells = edict.units.map((u) => board.parseCell(u.at));
          for (const cell of cells) {
            expect(cell).not.toBeNull();
            expect(isNoMansLand(cell!, c.state.factions)).toBe(false);
          }
          expect(new Set(cells).size).toBe(cells.length);
          for (let i = 1; i < cells.length; i++) expect(cells[i]!).toBeGreaterThan(cells[i - 1]!);
          for (const u of edict.units) expect(u.side === IMPERIAL || c.state.factions.includes(u.side)).toBe(true);
          // The next state is the final position plus the late joiners' starting units (R-SETUP-4).
          const joiners = edict.joiningNextTurn.flatMap((f) => board.startingCells(f).map((x) => ({ side: f, at: board.name(x) })));
          expect(summary(state.units)).toEqual(summary([...edict.units, ...joiners]));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    '(d) R-EDICT-2: deterministic byte for byte, and the input is not mutated',
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          const before = JSON.stringify(c);
          const a = JSON.stringify(run(c));
          expect(JSON.stringify(c)).toBe(before);
          const b = JSON.stringify(adjudicate(board, structuredClone(c.state), { ...c.sheets }));
          expect(b).toBe(a);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "(d) R-EDICT-2: the order of state.units and of the sheets' keys does not change the result",
    () => {
      fc.assert(
        fc.property(caseArb, fc.nat(), (c, seed) => {
          const a = JSON.stringify(run(c));
          const keys = shuffled(Object.keys(c.sheets), seed);
          const sheets: Sheets = {};
          for (const k of keys) sheets[k] = c.sheets[k]!;
          const state = { ...c.state, units: shuffled(c.state.units, seed + 1) };
          expect(JSON.stringify(adjudicate(board, state, sheets))).toBe(a);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    '(e) R-EDICT-1: every written order of every sheet has exactly one outcome, with a rule id, matching its kind',
    () => {
      const resultsFor: Record<OrderOutcome['kind'], OrderOutcome['result'][]> = {
        move: ['moved', 'stalled', 'attacked'],
        jump: ['jumped', 'destroyed'],
        politics: ['politics', 'politics-lost'],
      };
      const always: OrderOutcome['result'][] = ['invalid', 'superseded', 'ignored'];
      fc.assert(
        fc.property(caseArb, (c) => {
          const { edict } = run(c);
          expect(edict.declarations.map((d) => d.faction).sort()).toEqual([...c.state.factions].sort());
          if (c.state.chancellor) expect(edict.declarations[0]!.faction).toBe(c.state.chancellor);
          for (const d of edict.declarations) {
            const text = c.sheets[d.faction];
            expect(d.submitted).toBe(text !== undefined);
            const written = text === undefined ? [] : parseSheet(text, board).orders;
            expect(d.orders.map((o) => [o.order, o.line])).toEqual(written.map((w) => [w.canonical, w.line]));
            for (const o of d.orders) {
              expect(o.rule).toMatch(RULE_ID);
              expect(o.faction).toBe(d.faction);
              expect([...resultsFor[o.kind], ...always]).toContain(o.result);
              // No provisional outcome survives: a `moved` is R-MOVE-2 (orders.ts fills in R-ORD-2 first).
              if (o.result === 'moved') expect(o.rule).toBe('R-MOVE-2');
            }
          }
          for (const list of [edict.eliminations, edict.destructions, edict.advances])
            for (const x of list) expect(x.rule).toMatch(RULE_ID);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    '(f) R-TURN-5: units of a faction without a sheet never move (the troops too when the Chancellor sent none); only R-ADV-1 advances',
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          const { edict } = run(c);
          const nmr = new Set<Side>(c.state.factions.filter((f) => c.sheets[f] === undefined));
          if (c.state.chancellor !== null && nmr.has(c.state.chancellor)) nmr.add(IMPERIAL);
          for (const side of nmr) {
            const cells = new Set(c.state.units.filter((u) => u.side === side).map((u) => u.at));
            expect(edict.destructions.filter((d) => d.side === side)).toEqual([]);
            for (const e of edict.eliminations) if (e.side === side) expect(cells.delete(e.at)).toBe(true);
            for (const a of edict.advances) {
              if (a.side !== side) continue;
              expect(cells.delete(a.from)).toBe(true); // it advanced from where it started
              cells.add(a.to);
            }
            if (side === IMPERIAL && edict.politics.troop) cells.add(edict.politics.troop.at);
            const nu = edict.election?.newUnit;
            if (nu?.removed?.side === side) expect(cells.delete(nu.at)).toBe(true);
            if (nu && edict.election!.elected === side) cells.add(nu.at);
            for (const p of edict.production) if (p.faction === side && p.at) cells.add(p.at);
            const final = edict.units.filter((u) => u.side === side).map((u) => u.at);
            expect(final.sort()).toEqual([...cells].sort());
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "(g) R-TURN-1: in turn 1 nothing moves, fights or is produced; only the new Chancellor's unit appears (R-ELEC-5)",
    () => {
      const turn1 = caseArb.map((c) => ({ ...c, state: { ...c.state, turn: 1 } }));
      fc.assert(
        fc.property(turn1, (c) => {
          const { edict } = run(c);
          expect(edict.electionTurn).toBe(true);
          expect(edict.eliminations).toEqual([]);
          expect(edict.destructions).toEqual([]);
          expect(edict.advances).toEqual([]);
          expect(edict.production).toEqual([]);
          expect(edict.politics.troop).toBeNull();
          for (const o of edict.declarations.flatMap((d) => d.orders)) expect(['ignored', 'invalid', 'superseded']).toContain(o.result);
          const expected = c.state.units.map((u) => `${u.side}@${u.at}`);
          const nu = edict.election?.newUnit;
          if (nu) {
            expect(board.isCapital[cellOf(nu.at)]).toBe(1);
            if (nu.removed) expected.splice(expected.indexOf(`${nu.removed.side}@${nu.at}`), 1);
            expected.push(`${edict.election!.elected}@${nu.at}`);
          }
          expect(summary(edict.units)).toEqual(expected.sort());
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    '(h) the next state is a valid input: assertValidState passes and three more turns (random sheets, then none) never throw',
    () => {
      fc.assert(
        fc.property(caseArb, fc.gen(), (c, gen) => {
          let state = run(c).state;
          for (let t = 0; t < 3; t++) {
            assertValidState(board, state);
            for (const u of state.units) expect(isNoMansLand(cellOf(u.at), state.factions)).toBe(false);
            expect(state.chancellor === null || state.factions.includes(state.chancellor)).toBe(true);
            const sheets = t === 2 ? {} : gen(sheetsArb, state);
            const next = adjudicate(board, state, sheets);
            expect(next.state.turn).toBe(state.turn + 1);
            expect(replay(state, next)).toEqual([]);
            state = next.state;
          }
        }),
        { numRuns: Math.round(RUNS / 2) },
      );
    },
    TIMEOUT,
  );
  it(
    '(i) differential: an independent reading of RULES.md §5 agrees on moves (R-MOVE-2..5), jumps (R-HYP-2..5), combat (R-COMB-1..5), advances (R-ADV-1..4), the troop (R-POL-2), the election (R-ELEC-1..5), production (R-PROD-1) and victory (R-WIN-1, R-WIN-2)',
    () => {
      fc.assert(
        fc.property(caseArb, (drawn) => {
          // The game's length derived from the case, not drawn, so that caseArb (and with it the
          // recorded sample of results-snapshot.test.ts) stays as it is: a third of the cases end
          // this turn, a third a turn later, a third never.
          const c = withLastTurn(drawn, [drawn.state.turn, drawn.state.turn + 1, null][drawn.state.gameId.length % 3]!);
          const { edict } = run(c);
          const ref = reference(c.state, c.sheets);
          const outcomes = edict.declarations.flatMap((d) => d.orders);
          const moves = new Map<number, { result: string; rule: string }>();
          const jumps = new Map<number, string>();
          for (const o of outcomes) {
            if (['moved', 'stalled', 'attacked'].includes(o.result)) moves.set(cellOf(fromOf(o)), { result: o.result, rule: o.rule });
            if (o.result === 'jumped' || o.result === 'destroyed') jumps.set(cellOf(fromOf(o)), o.rule);
          }
          const named = <T>(m: Map<number, T>) =>
            Object.fromEntries([...m].sort((a, b) => a[0] - b[0]).map(([k, v]) => [board.name(k), v]));
          expect(named(moves)).toEqual(named(ref.moves));
          expect(named(jumps)).toEqual(named(ref.jumps));
          expect(edict.eliminations.map((e) => `${e.side}@${e.at}`)).toEqual(ref.eliminated);
          expect(edict.advances.map((a) => `${a.from}>${a.to}`)).toEqual(ref.advances);
          expect(edict.politics.troop?.at ?? null).toBe(ref.troop);
          if (ref.tally) {
            expect(edict.election!.tally).toEqual(ref.tally);
            const nu = edict.election!.newUnit;
            expect(nu ? `${edict.election!.elected}@${nu.at}` : null).toBe(ref.newUnit);
          } else expect(edict.election).toBeNull();
          expect(edict.chancellor).toBe(ref.elected);
          expect(edict.production.filter((p) => p.at).map((p) => `${p.faction}@${p.at}`)).toEqual(ref.production);
          expect(summary(edict.units)).toEqual(ref.final);
          expect(edict.electionNextTurn).toBe(ref.electionNextTurn);
          expect(edict.winners).toEqual(ref.winners);
          expect(edict.gameOver).toBe(ref.winners.length > 0 || edict.turn === c.state.settings.lastTurn);
        }),
        { numRuns: RUNS * 2 },
      );
    },
    TIMEOUT,
  );
});
