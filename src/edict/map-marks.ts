// Units and what happened to them: discs with their side's code (the Imperial Troops as a white
// octagon), arrows for moves (solid), jumps (dashed) and advances (open head), failed orders
// (dotted, ending in a bar), eliminations (✕) and destructions (a burst), contested advances
// (a warning triangle) and new units (+). Every mark differs by shape, not only by colour.
import type { CellIndex } from '../adjudicator/map.ts';
import type { Side, Unit } from '../adjudicator/types.ts';
import { UNIT_R, type Layout } from './map-geometry.ts';
import type { MapArrow, Overlay } from './map-view.ts';
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

/** A unit's token centred on (cx, cy): also used by the legend. */
export function token(style: SideStyle, cx: number, cy: number, ghost = false): string {
  const text = `<text x="${num(cx)}" y="${num(cy + CODE_BASELINE)}" fill="${ghost ? COLOURS.ink : style.ink}">${xml(style.code)}</text>`;
  // A lost unit: its side's colour faded, a dashed edge, the code still readable.
  if (ghost)
    return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${UNIT_R}" fill="${style.tint}" stroke="${COLOURS.ghost}" stroke-width="1.5" stroke-dasharray="4 3"/>${text}`;
  if (style.imperial)
    return (
      `<polygon points="${points(octagon(cx, cy, UNIT_R + 1.5))}" fill="#FFFFFF" stroke="${COLOURS.ink}" stroke-width="2.5"/>` +
      `<polygon points="${points(octagon(cx, cy, UNIT_R - 2.5))}" fill="none" stroke="${COLOURS.ink}" stroke-width="1"/>${text}`
    );
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${UNIT_R}" fill="${style.fill}" stroke="${COLOURS.ink}" stroke-width="1.5"/>${text}`;
}

export function drawUnits(L: Layout, units: readonly Unit[]): string {
  const out = units.flatMap((u) => {
    const i = L.board.parseCell(u.at);
    return i === null ? [] : [token(styleOf(L, u.side), L.unitX(i), L.unitY(i))];
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
    parts.push(`<line x1="${num(p[0])}" y1="${num(p[1])}" x2="${num(q[0])}" y2="${num(q[1])}" stroke="${colour}" stroke-width="3.5" stroke-linecap="round"/>`);
  }
  return parts.join('');
}

export function drawArrows(L: Layout, overlay: Overlay, occupied: ReadonlySet<CellIndex>): string {
  const out = overlay.arrows.map((ar) => {
    const a: Pt = [L.unitX(ar.from), L.unitY(ar.from)];
    const b: Pt = [L.unitX(ar.to), L.unitY(ar.to)];
    // Leave the disc at either end visible; an empty origin lets the arrow start near its centre.
    const startOff = occupied.has(ar.from) ? UNIT_R + 1 : 6;
    const endOff = ar.end === 'destroyed' ? 12 : ar.end === 'failed' ? UNIT_R + 3 : UNIT_R + 1;
    return arrowShape(ar.kind, ar.end, a, b, startOff, endOff);
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

/** The badge of a loss, on the corner of the cell: ✕ eliminated (R-COMB-1), a burst destroyed (R-HYP-3/4/5). */
export function lossMark(kind: 'eliminated' | 'destroyed', cx: number, cy: number): string {
  const disc = `<circle cx="${num(cx)}" cy="${num(cy)}" r="8" fill="#FFFFFF" stroke="${COLOURS.ink}" stroke-width="1.2"/>`;
  return kind === 'eliminated' ? disc + cross(cx, cy, 3.8, 2.4) : burst(cx, cy, 9, COLOURS.ink);
}

export function contestFlag(cx: number, cy: number): string {
  const pts: Pt[] = [[cx, cy - 8], [cx + 8, cy + 6], [cx - 8, cy + 6]];
  return `<polygon points="${points(pts)}" fill="${COLOURS.flag}" stroke="${COLOURS.ink}" stroke-width="1.5" stroke-linejoin="round"/><text x="${num(cx)}" y="${num(cy + 4.5)}" font-size="10" font-weight="bold" text-anchor="middle" fill="${COLOURS.ink}">!</text>`;
}

export function newBadge(cx: number, cy: number): string {
  const d = `M${num(cx - 3.5)} ${num(cy)}h7M${num(cx)} ${num(cy - 3.5)}v7`;
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="6.5" fill="#FFFFFF" stroke="${COLOURS.ink}" stroke-width="1.2"/><path d="${d}" stroke="${COLOURS.ink}" stroke-width="2"/>`;
}

/** Ghosts of units lost on cells left empty: drawn under the arrows and the units. */
export function drawGhosts(L: Layout, overlay: Overlay, occupied: ReadonlySet<CellIndex>): string {
  const seen = new Set<CellIndex>();
  const out: string[] = [];
  for (const x of overlay.losses) {
    if (occupied.has(x.at) || seen.has(x.at)) continue;
    seen.add(x.at);
    out.push(token(styleOf(L, x.side), L.unitX(x.at), L.unitY(x.at), true));
  }
  return `<g ${TOKEN_TEXT}>\n${out.join('\n')}\n</g>`;
}

/** Badges on the corners of cells: a loss there (top right), contested (top left), new (bottom left). */
export function drawBadges(L: Layout, overlay: Overlay): string {
  const out: string[] = [];
  const marked = new Set<CellIndex>();
  for (const x of overlay.losses) {
    if (marked.has(x.at)) continue;
    marked.add(x.at);
    out.push(lossMark(x.kind, L.unitX(x.at) + 14, L.unitY(x.at) - 13));
  }
  for (const c of overlay.contested) out.push(contestFlag(L.unitX(c.at) - 14, L.unitY(c.at) - 13));
  for (const i of overlay.newUnits) out.push(newBadge(L.unitX(i) - 14, L.unitY(i) + 12));
  return `<g>\n${out.join('\n')}\n</g>`;
}
