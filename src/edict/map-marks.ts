// Units and what happened to them: discs with their side's code (the Imperial Troops as a white
// octagon), arrows for moves (solid), jumps (dashed) and advances (open head), failed orders
// (dotted, ending in a bar), eliminations (✕) and destructions (a burst), contested advances
// (a warning triangle) and new units (+). Every mark differs by shape, not only by colour.
import type { CellIndex } from '../adjudicator/map.ts';
import type { Side, Unit } from '../adjudicator/types.ts';
import { UNIT_R, type Layout } from './map-geometry.ts';
import type { MapArrow, MapLoss, Overlay } from './map-view.ts';
import { COLOURS, sideStyles, unknownStyle, type SideStyle } from './map-style.ts';
import { num, points, xml } from './svg.ts';

type Pt = readonly [number, number];

export function styleOf(L: Layout, side: Side): SideStyle {
  return sideStyles(L.board).get(side) ?? unknownStyle(side);
}

function octagon(cx: number, cy: number, r: number): Pt[] {
  return Array.from({ length: 8 }, (_, k) => {
    const a = ((k + 0.5) * Math.PI) / 4;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)] as const;
  });
}

/** The side code: as large as the disc allows, since it is what a phone reader looks for. */
export const TOKEN_TEXT = 'font-size="17" font-weight="bold" font-stretch="condensed" text-anchor="middle"';
/** Half the cap height of 17-unit DejaVu Sans Bold: centres the code on its disc. */
export const CODE_BASELINE = 6.2;

/** A unit's token centred on (cx, cy): also used by the legend. A smaller `r` scales its code too. */
export function token(style: SideStyle, cx: number, cy: number, ghost = false, r = UNIT_R): string {
  const scale = r / UNIT_R;
  const size = r === UNIT_R ? '' : ` font-size="${num(17 * scale)}"`;
  const text = `<text x="${num(cx)}" y="${num(cy + CODE_BASELINE * scale)}"${size} fill="${ghost ? COLOURS.ink : style.ink}">${xml(style.code)}</text>`;
  // A lost unit: its side's colour faded, a dashed edge, the code still readable.
  if (ghost)
    return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" fill="${style.tint}" stroke="${COLOURS.ghost}" stroke-width="1.5" stroke-dasharray="4 3"/>${text}`;
  if (style.imperial)
    return (
      `<polygon points="${points(octagon(cx, cy, UNIT_R + 1.5))}" fill="#FFFFFF" stroke="${COLOURS.ink}" stroke-width="2.5"/>` +
      `<polygon points="${points(octagon(cx, cy, UNIT_R - 2.5))}" fill="none" stroke="${COLOURS.ink}" stroke-width="1"/>${text}`
    );
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${UNIT_R}" fill="${style.fill}" stroke="${COLOURS.ink}" stroke-width="1.5"/>${text}`;
}

/**
 * Where the marks of each cell go. A cell where a unit was lost and another now stands (an advance
 * into the cell of the eliminated unit, R-ADV-1; a jumper destroyed on an occupied cell, R-HYP-4)
 * holds both: the standing unit moved right, the lost one small in the bottom-left corner with its
 * badge above it, so that the badge marks the unit it speaks of. Everything stays below the band
 * that holds a planet's name.
 */
export class Spots {
  private readonly shared: ReadonlySet<CellIndex>;

  constructor(
    private readonly L: Layout,
    readonly occupied: ReadonlySet<CellIndex>,
    overlay: Overlay | null,
  ) {
    this.shared = new Set((overlay?.losses ?? []).map((x) => x.at).filter((i) => occupied.has(i)));
  }

  isShared(i: CellIndex): boolean {
    return this.shared.has(i);
  }
  /** Centre of the unit standing on a cell. */
  unit(i: CellIndex): Pt {
    return [this.L.unitX(i) + (this.shared.has(i) ? SHARED_SHIFT : 0), this.L.unitY(i)];
  }
  /** Centre and radius of the unit lost on a cell. */
  lost(i: CellIndex): { at: Pt; r: number } {
    if (!this.shared.has(i)) return { at: [this.L.unitX(i), this.L.unitY(i)], r: UNIT_R };
    return { at: [this.L.cellX(i) + SMALL_R, this.L.unitY(i) + 9], r: SMALL_R };
  }
  /** The loss badge: top right of a lost unit alone, above the small lost unit on a shared cell. */
  lossBadge(i: CellIndex): { at: Pt; r: number } {
    if (!this.shared.has(i)) return { at: [this.L.unitX(i) + 14, this.L.unitY(i) - 7], r: 8 };
    return { at: [this.L.cellX(i) + 7, this.L.unitY(i) - 6], r: 6 };
  }
  /** The contest flag: on the advancing unit, bottom right, clear of its code and of the name above. */
  contest(i: CellIndex): Pt {
    return this.shared.has(i) ? [this.L.unitX(i) + 22, this.L.unitY(i) + 10] : [this.L.unitX(i) - 14, this.L.unitY(i) - 7];
  }
  newUnit(i: CellIndex): Pt {
    return this.shared.has(i) ? [this.L.unitX(i) + 22, this.L.unitY(i) - 8] : [this.L.unitX(i) - 14, this.L.unitY(i) + 12];
  }
}

/** How far right a standing unit moves to make room for a lost one on its cell. */
const SHARED_SHIFT = 7;
/** Radius of a lost unit drawn beside a standing one. */
const SMALL_R = 9;

export function drawUnits(L: Layout, units: readonly Unit[], spots: Spots): string {
  const out = units.flatMap((u) => {
    const i = L.board.parseCell(u.at);
    if (i === null) return [];
    const [x, y] = spots.unit(i);
    return [`<g data-unit="${xml(u.side)}" data-cell="${xml(u.at)}">${token(styleOf(L, u.side), x, y)}</g>`];
  });
  return `<g ${TOKEN_TEXT}>\n${out.join('\n')}\n</g>`;
}

// ---------- arrows ----------

const HEAD_LEN = 10;
const HEAD_HALF = 6;

/** The shaft and its end, both as SVG, for an arrow from centre `a` to centre `b`. */
export function arrowShape(kind: MapArrow['kind'], end: MapArrow['end'], a: Pt, b: Pt, startOff: number, endOff: number): string {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const at = (d: number): Pt => [a[0] + ux * d, a[1] + uy * d];
  const side = (p: Pt, w: number): Pt => [p[0] - uy * w, p[1] + ux * w];
  const back = (p: Pt, w: number): Pt => [p[0] + uy * w, p[1] - ux * w];
  const tip = at(len - endOff);
  const colour = end === 'ok' ? COLOURS.ink : COLOURS.failed;
  const dash = end === 'failed' ? ' stroke-dasharray="2 4"' : kind === 'jump' ? ' stroke-dasharray="8 4"' : '';
  const shaftEnd = end === 'ok' ? at(len - endOff - HEAD_LEN + 1) : tip;
  const start = at(startOff);
  const line = (stroke: string, w: number, extra = '') =>
    `<line x1="${num(start[0])}" y1="${num(start[1])}" x2="${num(shaftEnd[0])}" y2="${num(shaftEnd[1])}" stroke="${stroke}" stroke-width="${w}" stroke-linecap="round"${extra}/>`;
  const parts = [line('#FFFFFF', 7, ' stroke-opacity="0.85"'), line(colour, 3, dash)];
  if (end === 'ok') {
    const base = at(len - endOff - HEAD_LEN);
    const head = [tip, side(base, HEAD_HALF), back(base, HEAD_HALF)];
    // An advance's head is open (white inside), a move's and a jump's filled.
    const fill = kind === 'advance' ? '#FFFFFF' : colour;
    parts.push(`<polygon points="${points(head)}" fill="${fill}" stroke="${colour}" stroke-width="2" stroke-linejoin="round"/>`);
  } else if (end === 'failed') {
    const [p, q] = [side(tip, 8), back(tip, 8)];
    parts.push(
      `<line x1="${num(p[0])}" y1="${num(p[1])}" x2="${num(q[0])}" y2="${num(q[1])}" stroke="${colour}" stroke-width="3.5" stroke-linecap="round"/>`,
    );
  }
  return parts.join('');
}

export function drawArrows(L: Layout, overlay: Overlay, spots: Spots): string {
  const out = overlay.arrows.map((ar) => {
    const a = spots.occupied.has(ar.from) ? spots.unit(ar.from) : spots.lost(ar.from).at;
    // A jumper destroyed on landing: the arrow ends at its remains, not at the unit standing there.
    const lost = ar.end === 'destroyed' ? spots.lost(ar.to) : null;
    const b = lost ? lost.at : spots.unit(ar.to);
    // Leave the disc at either end visible; an empty origin lets the arrow start near its centre.
    const startOff = spots.occupied.has(ar.from) ? UNIT_R + 1 : 6;
    const endOff = lost ? Math.min(12, lost.r + 1) : ar.end === 'failed' ? UNIT_R + 3 : UNIT_R + 1;
    const mark = `data-mark="${ar.kind}" data-end="${ar.end}" data-from="${L.board.name(ar.from)}" data-to="${L.board.name(ar.to)}"`;
    return `<g ${mark}>${arrowShape(ar.kind, ar.end, a, b, startOff, endOff)}</g>`;
  });
  return `<g>\n${out.join('\n')}\n</g>`;
}

// ---------- losses and flags ----------

function cross(cx: number, cy: number, h: number, w: number): string {
  const d = `M${num(cx - h)} ${num(cy - h)}L${num(cx + h)} ${num(cy + h)}M${num(cx + h)} ${num(cy - h)}L${num(cx - h)} ${num(cy + h)}`;
  return `<path d="${d}" stroke="#FFFFFF" stroke-width="${num(w + 3)}" stroke-linecap="round"/><path d="${d}" stroke="${COLOURS.ink}" stroke-width="${num(w)}" stroke-linecap="round"/>`;
}

function burst(cx: number, cy: number, r: number, fill: string): string {
  const pts = Array.from({ length: 16 }, (_, k): Pt => {
    const a = (k * Math.PI) / 8;
    const rr = k % 2 === 0 ? r : r * 0.5;
    return [cx + rr * Math.sin(a), cy - rr * Math.cos(a)];
  });
  return `<polygon points="${points(pts)}" fill="${fill}" stroke="${COLOURS.ink}" stroke-width="1.8" stroke-linejoin="round"/>`;
}

/** The badge of a loss: ✕ eliminated (R-COMB-1), a burst destroyed (R-HYP-3/4/5); `r` 8 in full size. */
export function lossMark(kind: 'eliminated' | 'destroyed', cx: number, cy: number, r = 8): string {
  const k = r / 8;
  const disc = `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" fill="#FFFFFF" stroke="${COLOURS.ink}" stroke-width="1.2"/>`;
  return kind === 'eliminated' ? disc + cross(cx, cy, 3.8 * k, 2.4 * k) : burst(cx, cy, 9 * k, COLOURS.ink);
}

export function contestFlag(cx: number, cy: number): string {
  const pts: Pt[] = [
    [cx, cy - 8],
    [cx + 8, cy + 6],
    [cx - 8, cy + 6],
  ];
  return `<polygon points="${points(pts)}" fill="${COLOURS.flag}" stroke="${COLOURS.ink}" stroke-width="1.5" stroke-linejoin="round"/><text x="${num(cx)}" y="${num(cy + 4.5)}" font-size="10" font-weight="bold" text-anchor="middle" fill="${COLOURS.ink}">!</text>`;
}

export function newBadge(cx: number, cy: number): string {
  const d = `M${num(cx - 3.5)} ${num(cy)}h7M${num(cx)} ${num(cy - 3.5)}v7`;
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="6.5" fill="#FFFFFF" stroke="${COLOURS.ink}" stroke-width="1.2"/><path d="${d}" stroke="${COLOURS.ink}" stroke-width="2"/>`;
}

/**
 * The units lost this turn, each where it was lost, one per cell (the first lost there: a collision
 * of jumpers, R-HYP-5, shows one of them; the words list them all). On an empty cell a lost unit is
 * drawn full size, under the arrows; beside a standing unit, small and over it (drawn by drawBadges).
 */
function lostOnce(overlay: Overlay): MapLoss[] {
  const seen = new Set<CellIndex>();
  // The unit eliminated on a cell was there before any jumper that died landing on it.
  const ordered = [...overlay.losses.filter((x) => x.kind === 'eliminated'), ...overlay.losses.filter((x) => x.kind !== 'eliminated')];
  return ordered.filter((x) => !seen.has(x.at) && seen.add(x.at));
}

function lostUnit(L: Layout, spots: Spots, x: MapLoss): string {
  const { at, r } = spots.lost(x.at);
  return `<g data-lost="${xml(x.side)}" data-cell="${L.board.name(x.at)}">${token(styleOf(L, x.side), at[0], at[1], true, r)}</g>`;
}

/** Lost units on cells left empty: drawn under the arrows and the units. */
export function drawGhosts(L: Layout, overlay: Overlay, spots: Spots): string {
  const out = lostOnce(overlay)
    .filter((x) => !spots.isShared(x.at))
    .map((x) => lostUnit(L, spots, x));
  return `<g ${TOKEN_TEXT}>\n${out.join('\n')}\n</g>`;
}

/** The small lost units beside standing ones, then the badges: a loss, contested, new. */
export function drawBadges(L: Layout, overlay: Overlay, spots: Spots): string {
  const lost = lostOnce(overlay);
  const small = lost.filter((x) => spots.isShared(x.at)).map((x) => lostUnit(L, spots, x));
  const out: string[] = [];
  const name = (i: CellIndex) => L.board.name(i);
  for (const x of lost) {
    const { at, r } = spots.lossBadge(x.at);
    out.push(`<g data-mark="${x.kind}" data-side="${xml(x.side)}" data-cell="${name(x.at)}">${lossMark(x.kind, at[0], at[1], r)}</g>`);
  }
  for (const c of overlay.contested) {
    const [x, y] = spots.contest(c.at);
    out.push(`<g data-mark="contested" data-cell="${name(c.at)}">${contestFlag(x, y)}</g>`);
  }
  for (const i of overlay.newUnits) {
    const [x, y] = spots.newUnit(i);
    out.push(`<g data-mark="new" data-cell="${name(i)}">${newBadge(x, y)}</g>`);
  }
  const tokens = small.length ? `<g ${TOKEN_TEXT}>\n${small.join('\n')}\n</g>\n` : '';
  return `${tokens}<g>\n${out.join('\n')}\n</g>`;
}
