// The map of the Imperial Edict as one SVG (R-EDICT-1: "a map of the final situation"): the same
// document goes into the mail as a PNG (map-png.ts) and inline into the web page, so it has a
// viewBox, a <title> and a <desc> for screen readers, role="img", no scripts, no style attributes
// (the page's Content-Security-Policy forbids inline styles) and no external references.
// A pure function: the same input gives the same bytes.
import type { Board, CellIndex } from '../adjudicator/map.ts';
import type { Edict, GameState, Lang } from '../adjudicator/types.ts';
import { describeView } from './map-describe.ts';
import { boardDefs, drawBoard } from './map-board.ts';
import { Layout, MARGIN } from './map-geometry.ts';
import { mapTexts } from '../text/map.ts';
import { drawLegend, drawTitle, titleLines } from './map-legend.ts';
import { drawArrows, drawBadges, drawGhosts, drawUnits, Spots } from './map-marks.ts';
import { COLOURS } from './map-style.ts';
import { mapView } from './map-view.ts';
import { num, safeId, xml } from './svg.ts';

export interface MapSvgOptions {
  lang: Lang;
  /** The game's name as players know it (user-supplied, escaped); the edict's game id otherwise. */
  gameName?: string;
  /** Prefix of the ids inside the SVG, so that two maps inline in one page do not clash. */
  idPrefix?: string;
}

/** The fonts named in the SVG: DejaVu (bundled for the PNG), then what a browser likely has. */
export const MAP_FONT_FAMILY = "'DejaVu Sans', Verdana, Arial, sans-serif";

/**
 * The board after an edict (the final units, this turn's moves, jumps, losses and advances) or a
 * position before its turn (a GameState: units only).
 */
export function renderMapSvg(board: Board, input: Edict | GameState, options: MapSvgOptions): string {
  const p = mapParts(board, input, options);
  const body = [
    `<title id="${p.id}-title">${xml(`${p.title[0]} — ${p.title[1]}`)}</title>`,
    `<desc id="${p.id}-desc">${xml(describeView(board, p.view, options.lang, p.gameName))}</desc>`,
    p.defs,
    p.background,
    p.titleSvg,
    p.board,
    p.marks,
    `${p.legend.sides}\n${p.legend.symbols}`,
  ].filter((part) => part !== '');
  const root =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(p.L.width)} ${num(p.height)}" ` +
    `width="${num(p.L.width)}" height="${num(p.height)}" role="img" aria-labelledby="${p.id}-title" aria-describedby="${p.id}-desc" ` +
    `lang="${options.lang}" font-family="${xml(MAP_FONT_FAMILY)}">`;
  return `${root}\n${body.join('\n')}\n</svg>\n`;
}

/**
 * One horizontal band of the map as an SVG body: what it draws lies between `top` and `bottom`
 * (user units). `keep`: the same on many maps (the board of a language and sides in play, the
 * symbols of the legend), worth keeping drawn; `opaque`: it covers its whole band.
 */
export interface MapBand {
  svg: string;
  top: number;
  bottom: number;
  keep: boolean;
  opaque: boolean;
}

/**
 * The map of renderMapSvg as bands, to be drawn one over another in this order (map-png.ts): the
 * board (background, planets, grid, names), the marks (units, arrows, losses: the same in every
 * language), the title, the legend's sides, its symbols. Drawn in place on one picture they give
 * the same pixels as the whole SVG (only the title moves above the board, which it never meets).
 */
export interface MapLayers {
  width: number;
  height: number;
  /** The root element's presentation attributes (the font), and the defs the bands may use. */
  root: string;
  defs: string;
  bands: MapBand[];
}

export function renderMapLayers(board: Board, input: Edict | GameState, options: MapSvgOptions): MapLayers {
  const p = mapParts(board, input, options);
  const L = p.L;
  const band = (svg: string, top: number, bottom: number, keep = false, opaque = false): MapBand => ({ svg, top, bottom, keep, opaque });
  // The column letters sit MARGIN above the board, the title's lowest line well above them.
  const boardTop = L.boardY - MARGIN;
  return {
    width: L.width,
    height: p.height,
    root: `font-family="${xml(MAP_FONT_FAMILY)}"`,
    defs: p.defs,
    bands: [
      band(`${p.background}\n${p.board}`, boardTop, L.legendY, true, true),
      band(p.marks, boardTop, L.legendY),
      band(p.titleSvg, 0, boardTop + 8),
      band(p.legend.sides, L.legendY - 8, p.legend.symbolsY),
      band(p.legend.symbols, p.legend.symbolsY, p.height, true),
    ],
  };
}

/** Everything both renderings draw. */
function mapParts(board: Board, input: Edict | GameState, options: MapSvgOptions) {
  const lang = options.lang;
  const id = safeId(options.idPrefix ?? 'sf-map');
  const gameName = options.gameName ?? input.gameId;
  const view = mapView(board, input);
  const L = new Layout(board);
  const occupied = new Set<CellIndex>();
  for (const u of view.units) {
    const i = board.parseCell(u.at);
    if (i !== null) occupied.add(i);
  }
  const title = titleLines(L, view, lang, gameName);
  const legend = drawLegend(L, view, lang, id);
  const overlay = view.overlay;
  const spots = new Spots(L, occupied, overlay);
  const marks = [
    overlay ? drawGhosts(L, overlay, spots) : '',
    overlay ? drawArrows(L, overlay, spots) : '',
    drawUnits(L, view.units, spots),
    overlay ? drawBadges(L, overlay, spots) : '',
  ]
    .filter((part) => part !== '')
    .join('\n');
  return {
    id,
    gameName,
    view,
    L,
    title,
    legend,
    height: legend.bottom,
    defs: `<defs>${boardDefs(id)}</defs>`,
    background: `<rect width="${num(L.width)}" height="${num(legend.bottom)}" fill="${COLOURS.background}"/>`,
    titleSvg: drawTitle(title),
    board: drawBoard(L, id, mapTexts[lang], new Set(view.factions)),
    marks,
  };
}
