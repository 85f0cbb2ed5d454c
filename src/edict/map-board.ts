// The board without units: space, planets (tinted with their faction's colour and edged, so they
// read without colour too), home planets with their names, the Capital, no-man's land hatched
// (R-SETUP-3), the grid, and the column letters and row numbers on all four sides (R-BOARD-1).
import type { CellIndex } from '../adjudicator/map.ts';
import type { FactionId } from '../adjudicator/types.ts';
import { BAND, CELL_H, CELL_W, MARGIN, type Layout } from './map-geometry.ts';
import type { MapLabels } from '../text/map.ts';
import { COLOURS, sideStyles } from './map-style.ts';
import { clip, num, xml } from './svg.ts';

/** The hatch of no-man's land, defined once per document under the caller's id prefix. */
export function boardDefs(id: string): string {
  return (
    `<pattern id="${id}-nml" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="8" height="8" fill="${COLOURS.noMansLandTint}"/>` +
    `<line x1="0" y1="0" x2="0" y2="8" stroke="${COLOURS.noMansLand}" stroke-width="3"/></pattern>`
  );
}

/** A rectangle inset by half its stroke, so that edges stay inside their cell. */
function cellRect(L: Layout, i: CellIndex, fill: string, stroke: string, width: number): string {
  const inset = width / 2;
  return (
    `<rect x="${num(L.cellX(i) + inset)}" y="${num(L.cellY(i) + inset)}" width="${num(CELL_W - width)}" ` +
    `height="${num(CELL_H - width)}" fill="${fill}" stroke="${stroke}" stroke-width="${num(width)}"/>`
  );
}

function planets(L: Layout, id: string, inPlay: ReadonlySet<FactionId>): string[] {
  const b = L.board;
  const styles = sideStyles(b);
  const out: string[] = [];
  for (const i of b.planets) {
    if (b.isCapital[i]) {
      out.push(cellRect(L, i, COLOURS.capitalTint, COLOURS.capitalEdge, 1));
      continue;
    }
    const owner = b.planetOwner[i];
    const home = owner !== undefined && b.homeCell.get(owner) === i;
    const width = home ? 4 : 2;
    if (owner !== undefined && !inPlay.has(owner)) out.push(cellRect(L, i, `url(#${id}-nml)`, COLOURS.noMansLand, width));
    else {
      // A planet of nobody's (a map's extra planet) is edged in plain ink.
      const s = owner === undefined ? undefined : styles.get(owner);
      out.push(cellRect(L, i, s?.tint ?? COLOURS.space, s?.fill ?? COLOURS.ink, width));
    }
  }
  return out;
}

/** One thick edge around the Capital when its cells form a rectangle, else around each cell. */
function capitalEdge(L: Layout): { edge: string; labelX: number; labelY: number } {
  const b = L.board;
  const cols = b.capital.map((i) => b.col(i));
  const rows = b.capital.map((i) => b.row(i));
  const [c0, c1, r0, r1] = [Math.min(...cols), Math.max(...cols), Math.min(...rows), Math.max(...rows)];
  const rect = (x: number, y: number, w: number, h: number) =>
    `<rect x="${num(x + 1.5)}" y="${num(y + 1.5)}" width="${num(w - 3)}" height="${num(h - 3)}" fill="none" stroke="${COLOURS.capitalEdge}" stroke-width="3"/>`;
  const x0 = L.boardX + c0 * CELL_W;
  const y0 = L.boardY + r0 * CELL_H;
  if ((c1 - c0 + 1) * (r1 - r0 + 1) === b.capital.length)
    return { edge: rect(x0, y0, (c1 - c0 + 1) * CELL_W, (r1 - r0 + 1) * CELL_H), labelX: x0 + ((c1 - c0 + 1) * CELL_W) / 2, labelY: y0 };
  return { edge: b.capital.map((i) => rect(L.cellX(i), L.cellY(i), CELL_W, CELL_H)).join(''), labelX: x0 + CELL_W / 2, labelY: y0 };
}

function grid(L: Layout): string {
  const d: string[] = [];
  for (let c = 0; c <= L.board.cols; c++) d.push(`M${num(L.boardX + c * CELL_W)} ${num(L.boardY)}v${num(L.boardH)}`);
  for (let r = 0; r <= L.board.rows; r++) d.push(`M${num(L.boardX)} ${num(L.boardY + r * CELL_H)}h${num(L.boardW)}`);
  return `<path d="${d.join('')}" fill="none" stroke="${COLOURS.grid}" stroke-width="1"/>`;
}

function coordinates(L: Layout): string {
  const b = L.board;
  const out: string[] = [];
  const text = (x: number, y: number, t: string) => `<text x="${num(x)}" y="${num(y)}">${xml(t)}</text>`;
  b.map.columns.forEach((c, i) => {
    const x = L.boardX + i * CELL_W + CELL_W / 2;
    out.push(text(x, L.boardY - 9, c), text(x, L.boardY + L.boardH + 21, c));
  });
  for (let r = 0; r < b.rows; r++) {
    const y = L.boardY + r * CELL_H + CELL_H / 2 + 6;
    out.push(text(L.boardX - MARGIN / 2, y, String(r + 1)), text(L.boardX + L.boardW + MARGIN / 2, y, String(r + 1)));
  }
  return `<g font-size="16" font-weight="bold" fill="${COLOURS.label}" text-anchor="middle">\n${out.join('\n')}\n</g>`;
}

/** How a planet's name is written; a white halo keeps it legible over the hatch of no-man's land. */
export const CAPTION_STYLE =
  'font-size="10.5" font-stretch="condensed" text-anchor="middle" stroke="#FFFFFF" stroke-width="2.5" stroke-linejoin="round" paint-order="stroke"';

/** Home planets' names in their band (R-BOARD-4), and the Capital's across its top, each with the cells it names. */
export function planetLabels(L: Layout, labels: MapLabels, inPlay: ReadonlySet<FactionId>): { cells: CellIndex[]; svg: string }[] {
  const b = L.board;
  const out: { cells: CellIndex[]; svg: string }[] = [];
  for (const f of b.map.factions) {
    const i = b.homeCell.get(f.id);
    if (i === undefined) continue;
    const fill = inPlay.has(f.id) ? COLOURS.ink : COLOURS.label;
    out.push({
      cells: [i],
      svg: `<text x="${num(L.unitX(i))}" y="${num(L.cellY(i) + BAND - 1.5)}" fill="${fill}">${xml(clip(f.homeName, 11))}</text>`,
    });
  }
  const capital = capitalEdge(L);
  const top = Math.min(...b.capital.map((i) => b.row(i)));
  out.push({
    cells: b.capital.filter((i) => b.row(i) === top),
    svg: `<text x="${num(capital.labelX)}" y="${num(capital.labelY + BAND - 1.5)}" fill="${COLOURS.capitalEdge}" font-weight="bold">${xml(labels.capital)}</text>`,
  });
  return out;
}

function captions(L: Layout, labels: MapLabels, inPlay: ReadonlySet<FactionId>): string {
  return `<g ${CAPTION_STYLE}>\n${planetLabels(L, labels, inPlay)
    .map((l) => l.svg)
    .join('\n')}\n</g>`;
}

export function drawBoard(L: Layout, id: string, labels: MapLabels, inPlay: ReadonlySet<FactionId>): string {
  const capital = capitalEdge(L);
  return [
    `<rect x="${num(L.boardX)}" y="${num(L.boardY)}" width="${num(L.boardW)}" height="${num(L.boardH)}" fill="${COLOURS.space}"/>`,
    ...planets(L, id, inPlay),
    grid(L),
    capital.edge,
    captions(L, labels, inPlay),
    coordinates(L),
  ].join('\n');
}
