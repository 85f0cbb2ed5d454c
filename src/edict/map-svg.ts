// The map of the Imperial Edict as one SVG (R-EDICT-1: "a map of the final situation"): the same
// document goes into the mail as a PNG (map-png.ts) and inline into the web page, so it has a
// viewBox, a <title> and a <desc> for screen readers, role="img", no scripts, no style attributes
// (the page's Content-Security-Policy forbids inline styles) and no external references.
// A pure function: the same input gives the same bytes.
import type { Board, CellIndex } from '../adjudicator/map.ts';
import type { Edict, GameState, Lang } from '../adjudicator/types.ts';
import { describeView } from './map-describe.ts';
import { boardDefs, drawBoard } from './map-board.ts';
import { Layout } from './map-geometry.ts';
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
  const [legend, height] = drawLegend(L, view, lang, id);
  const overlay = view.overlay;
  const spots = new Spots(L, occupied, overlay);
  const body = [
    `<title id="${id}-title">${xml(`${title[0]} — ${title[1]}`)}</title>`,
    `<desc id="${id}-desc">${xml(describeView(board, view, lang, gameName))}</desc>`,
    `<defs>${boardDefs(id)}</defs>`,
    `<rect width="${num(L.width)}" height="${num(height)}" fill="${COLOURS.background}"/>`,
    drawTitle(title),
    drawBoard(L, id, mapTexts[lang], new Set(view.factions)),
    overlay ? drawGhosts(L, overlay, spots) : '',
    overlay ? drawArrows(L, overlay, spots) : '',
    drawUnits(L, view.units, spots),
    overlay ? drawBadges(L, overlay, spots) : '',
    legend,
  ].filter((part) => part !== '');
  const root =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(L.width)} ${num(height)}" ` +
    `width="${num(L.width)}" height="${num(height)}" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" ` +
    `lang="${lang}" font-family="${xml(MAP_FONT_FAMILY)}">`;
  return `${root}\n${body.join('\n')}\n</svg>\n`;
}
