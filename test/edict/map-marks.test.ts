// The map's marks against the edict they draw: every mark comes from a real adjudication (the
// scenario files, run through the engine) and is checked against the edict's own events.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict } from '../../src/adjudicator/types.ts';
import { Layout } from '../../src/edict/map-geometry.ts';
import { sideStyles } from '../../src/edict/map-style.ts';
import { renderMapSvg } from '../../src/edict/map-svg.ts';
import { crowdedEdict, scenarioEdict } from './positions.ts';

const board = classicMap();
const L = new Layout(board);
const code = (side: string) => sideStyles(board).get(side)!.code;

type Pt = [number, number];
const dist = (a: Pt, b: Pt) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Every short `<text>` (a side's code, a flag) with its anchor point. */
function texts(svg: string): { at: Pt; text: string }[] {
  return [...svg.matchAll(/<text x="([^"]*)" y="([^"]*)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    at: [Number(m[1]), Number(m[2])],
    text: m[3]!,
  }));
}

/** Centres of the ✕ badges: each cross is drawn as `M x-h y-h L x+h y+h …`. */
function crosses(svg: string): Pt[] {
  return [...svg.matchAll(/<path d="M([\d.-]+) ([\d.-]+)L([\d.-]+) ([\d.-]+)M[^"]*" stroke="#111111"/g)].map((m) => [
    (Number(m[1]) + Number(m[3])) / 2,
    (Number(m[2]) + Number(m[4])) / 2,
  ]);
}

/** Inside the board area of a cell (the legend below the board has its own samples). */
const inCell = (cell: string) => (p: Pt) => {
  const i = board.parseCell(cell)!;
  return p[0] >= L.cellX(i) && p[0] <= L.cellX(i) + 42 && p[1] >= L.cellY(i) && p[1] <= L.cellY(i) + 50;
};

describe('a unit eliminated where another advances', () => {
  // Rulebook figure 1: the Aristocrats' unit on N4 falls, the Hutt's from N3 advances into N4.
  const edict: Edict = scenarioEdict('rb-fig1-only-d1-falls');
  const svg = renderMapSvg(board, edict, { lang: 'en' });

  it('is the case the engine reports', () => {
    expect(edict.eliminations.map((x) => `${x.side} ${x.at}`)).toEqual(['aristocrats N4']);
    expect(edict.advances.map((a) => `${a.side} ${a.from}>${a.to}`)).toEqual(['hutt N3>N4']);
  });

  it('draws the dead unit where it died, beside the unit that advanced, and the ✕ on the dead one', () => {
    const here = texts(svg).filter((t) => inCell('N4')(t.at));
    const dead = here.find((t) => t.text === code('aristocrats'));
    const alive = here.find((t) => t.text === code('hutt'));
    expect(dead, 'the eliminated Aristocrats drawn on N4').toBeDefined();
    expect(alive, 'the advancing Hutt drawn on N4').toBeDefined();
    const marks = crosses(svg).filter(inCell('N4'));
    expect(marks).toHaveLength(1);
    expect(dist(marks[0]!, dead!.at)).toBeLessThan(dist(marks[0]!, alive!.at));
  });
});

/** The marks of a map as its groups name them: `data-mark`, `data-lost` and `data-unit`, with the code drawn in each. */
interface Mark {
  attrs: Record<string, string>;
  body: string;
}
function marks(svg: string, attr: 'data-mark' | 'data-lost' | 'data-unit'): Mark[] {
  return [...svg.matchAll(/<g ((?:data-[a-z]+="[^"]*" ?)+)>(.*?)<\/g>/g)]
    .map((m) => ({ attrs: Object.fromEntries([...m[1]!.matchAll(/(data-[a-z]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])), body: m[2]! }))
    .filter((m) => attr in m.attrs);
}
const codeIn = (m: Mark) => /<text [^>]*>([^<]*)<\/text>/.exec(m.body)?.[1];
const key = (m: Mark, ...names: string[]) => names.map((n) => m.attrs[`data-${n}`]).join(' ');
const sorted = (xs: string[]) => [...xs].sort();

/** Which kinds of mark an edict has, so that the set of cases below is known to cover them all. */
function kindsOf(e: Edict): string[] {
  const orders = e.declarations.flatMap((d) => d.orders);
  const kinds = [
    orders.some((o) => o.result === 'moved') && 'move',
    orders.some((o) => o.result === 'jumped') && 'jump',
    orders.some((o) => o.result === 'stalled' && o.reason !== 'standoff') && 'stall',
    orders.some((o) => (o.result === 'stalled' || o.result === 'attacked') && o.reason === 'standoff') && 'standoff',
    e.eliminations.length > 0 && 'elimination',
    e.destructions.length > 0 && 'destruction',
    e.advances.some((a) => !a.contested) && 'advance',
    e.advances.some((a) => a.contested) && 'contested advance',
    e.politics.troop !== null && 'imperial troop',
    e.election?.newUnit != null && 'chancellor unit',
    e.production.some((p) => p.at !== null) && 'production',
  ];
  return kinds.filter((k): k is string => k !== false);
}

// One real adjudication for each kind of mark, and a crowded turn with many of each.
const CASES = [
  'board-classic-planets-8-factions', // move, destruction on a planet
  'hyp-jump-into-trap-then-production', // jump, elimination, contested advance, production
  'hyp-jump-onto-own-unit-or-arriving-mover', // destruction on an occupied cell
  'move-attack-priority-advance', // stall, standoff, attack then advance
  'move-chain-follow-and-blocked', // standoff
  'move-swap-both-stall', // stall (a swap)
  'rb-fig1-only-d1-falls', // elimination, contested advance into the cell
  'rb-fig2-mutual-elimination', // uncontested advances
  'rb-fig3-star-cross-of-death', // nine eliminations, no advance
  'adv-two-freed-cells-attacker-pass-first', // two freed cells, an attack that advanced
  'pol-troop-named-cell', // Imperial Troop created (R-POL-2)
  'elec5-capital-full-default-removal', // new Chancellor's unit replacing one (R-ELEC-5)
  'elec-votes-after-combat', // new Chancellor's unit after a combat
  'prod-after-jump-onto-own-unit', // production
  'ord-other-players-unit-and-last-order', // superseded and impossible orders: no arrow
];

describe('every mark the map draws is an event of the edict, and every event has its mark', () => {
  const edicts: [string, Edict][] = [
    ...CASES.map((n): [string, Edict] => [n, scenarioEdict(n)]),
    ['crowded', crowdedEdict(7)],
    ['crowded-3', crowdedEdict(3)],
  ];

  it('the cases cover every kind of mark', () => {
    const covered = new Set(edicts.flatMap(([, e]) => kindsOf(e)));
    expect([...covered].sort()).toEqual(
      [
        'advance',
        'chancellor unit',
        'contested advance',
        'destruction',
        'elimination',
        'imperial troop',
        'jump',
        'move',
        'production',
        'stall',
        'standoff',
      ].sort(),
    );
  });

  for (const [name, e] of edicts)
    it(`${name}: ${kindsOf(e).join(', ') || 'no events'}`, () => {
      const svg = renderMapSvg(board, e, { lang: 'it' });
      const drawn = marks(svg, 'data-mark');
      const of = (kind: string) => drawn.filter((m) => m.attrs['data-mark'] === kind);
      const orders = e.declarations.flatMap((d) => d.orders);

      // Units: every final unit on its cell with its code, nothing else standing.
      const units = marks(svg, 'data-unit');
      expect(sorted(units.map((m) => `${key(m, 'unit', 'cell')} ${codeIn(m)}`))).toEqual(
        sorted(e.units.map((u) => `${u.side} ${u.at} ${code(u.side)}`)),
      );

      // Moves and jumps that landed: one arrow each, from → to.
      const landed = (r: string) =>
        orders.filter((o) => o.result === r).map((o) => o.order.replace(/\s/g, '').toUpperCase().replace(/[-=]/, '>'));
      expect(
        sorted(
          of('move')
            .filter((m) => m.attrs['data-end'] === 'ok')
            .map((m) => key(m, 'from', 'to').replace(' ', '>')),
        ),
      ).toEqual(sorted(landed('moved')));
      expect(
        sorted(
          of('jump')
            .filter((m) => m.attrs['data-end'] === 'ok')
            .map((m) => key(m, 'from', 'to').replace(' ', '>')),
        ),
      ).toEqual(sorted(landed('jumped')));

      // Stalls and standoffs: a failed arrow for each, unless the attacker then advanced there.
      const advanced = new Set(e.advances.map((a) => `${a.from}>${a.to}`));
      const stuck = orders
        .filter((o) => o.result === 'stalled' || o.result === 'attacked')
        .map((o) => o.order.replace(/\s/g, '').toUpperCase().replace(/[-=]/, '>'))
        .filter((o) => !advanced.has(o));
      const failed = drawn.filter((m) => m.attrs['data-end'] === 'failed').map((m) => key(m, 'from', 'to').replace(' ', '>'));
      for (const o of stuck) expect(failed, `failed arrow ${o}`).toContain(o);
      // …and no failed arrow without an order that failed with a unit to draw from.
      const failedOrders = new Set(
        orders
          .filter((o) => ['stalled', 'attacked', 'invalid'].includes(o.result) && o.side !== null)
          .map((o) => o.order.replace(/\s/g, '').toUpperCase().replace(/[-=]/, '>')),
      );
      for (const f of failed) expect(failedOrders.has(f), `failed arrow ${f} has its order`).toBe(true);

      // Eliminations: one ✕ at the cell for that side, on the dead unit drawn there with its code.
      const lost = marks(svg, 'data-lost');
      expect(sorted(of('eliminated').map((m) => key(m, 'side', 'cell')))).toEqual(sorted(e.eliminations.map((x) => `${x.side} ${x.at}`)));
      for (const x of e.eliminations) {
        const ghost = lost.filter((m) => key(m, 'lost', 'cell') === `${x.side} ${x.at}`);
        expect(ghost.map(codeIn), `dead ${x.side} on ${x.at}`).toEqual([code(x.side)]);
      }
      // Destructions: a burst on each cell where a jumper died (one per cell: a collision shows one).
      const elimCells = new Set(e.eliminations.map((x) => x.at));
      const destroyedCells = [...new Set(e.destructions.map((x) => x.at))].filter((c) => !elimCells.has(c));
      expect(sorted(of('destroyed').map((m) => m.attrs['data-cell']!))).toEqual(sorted(destroyedCells));
      for (const x of of('destroyed')) expect(e.destructions.some((d) => `${d.side} ${d.at}` === key(x, 'side', 'cell'))).toBe(true);

      // Advances: an arrow from → to for each; a flag on the cell for each contested one.
      expect(sorted(of('advance').map((m) => `${key(m, 'from', 'to', 'end')}`))).toEqual(
        sorted(e.advances.map((a) => `${a.from} ${a.to} ok`)),
      );
      expect(sorted(of('contested').map((m) => m.attrs['data-cell']!))).toEqual(
        sorted(e.advances.filter((a) => a.contested).map((a) => a.to)),
      );

      // New units: the troop (R-POL-2), the new Chancellor's (R-ELEC-5), production (R-PROD-1).
      const born = [
        ...e.production.flatMap((p) => (p.at ? [p.at] : [])),
        ...(e.politics.troop ? [e.politics.troop.at] : []),
        ...(e.election?.newUnit ? [e.election.newUnit.at] : []),
      ];
      expect(sorted(of('new').map((m) => m.attrs['data-cell']!))).toEqual(sorted([...new Set(born)]));
      for (const cell of born)
        expect(
          units.some((u) => u.attrs['data-cell'] === cell),
          `a unit stands on new ${cell}`,
        ).toBe(true);
    });
});
