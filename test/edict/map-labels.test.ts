// Icons never cover a planet's name: for every named planet (the home planets, the Capital) and
// every cell around it, each mark the map can draw there is measured as resvg draws it and kept
// clear of the name's box.
import { Resvg, type BBox } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { classicMap, type CellIndex } from '../../src/adjudicator/map.ts';
import { CAPTION_STYLE, planetLabels } from '../../src/edict/map-board.ts';
import { Layout } from '../../src/edict/map-geometry.ts';
import { drawBadges, drawGhosts, drawUnits, Spots, TOKEN_TEXT } from '../../src/edict/map-marks.ts';
import { mapFontFiles } from '../../src/edict/map-png.ts';
import type { Overlay } from '../../src/edict/map-view.ts';
import { mapTexts } from '../../src/text/map.ts';

const board = classicMap();
const L = new Layout(board);
const font = { loadSystemFonts: false, fontFiles: mapFontFiles(), defaultFontFamily: 'DejaVu Sans' };

/** The box of an SVG fragment as resvg draws it (strokes included). */
const boxes = new Map<string, BBox>();
function box(fragment: string): BBox {
  const known = boxes.get(fragment);
  if (known) return known;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="2000" font-family="DejaVu Sans">${fragment}</svg>`;
  const b = new Resvg(svg, { font }).getBBox();
  if (!b) throw new Error(`nothing drawn: ${fragment}`);
  boxes.set(fragment, b);
  return b;
}

const overlaps = (a: BBox, b: BBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every mark the map can draw on a cell, alone and beside a standing unit: each top-level group. */
function marksOn(i: CellIndex): { what: string; svg: string }[] {
  const name = board.name(i);
  const out: { what: string; svg: string }[] = [];
  for (const kind of ['eliminated', 'destroyed'] as const)
    for (const standing of [false, true]) {
      const overlay: Overlay = {
        arrows: [],
        losses: [{ kind, side: 'hutt', at: i }],
        contested: [{ at: i, candidates: [] }],
        newUnits: [i],
      };
      const occupied = new Set(standing ? [i] : []);
      const spots = new Spots(L, occupied, overlay);
      const drawn = [
        drawGhosts(L, overlay, spots),
        drawBadges(L, overlay, spots),
        standing ? drawUnits(L, [{ side: 'sith', at: name }], spots) : '',
      ].join('\n');
      for (const m of drawn.matchAll(/<g (data-[^>]*)>.*?<\/g>/g))
        out.push({ what: `${kind}${standing ? ' beside a unit' : ''}: ${m[1]}`, svg: `<g ${TOKEN_TEXT}>${m[0]}</g>` });
    }
  return out;
}

describe('planet names stay readable', () => {
  const labels = planetLabels(L, mapTexts.en, new Set(board.factionIds));

  it('measures real things', () => {
    // Ten home planets and the Capital; every cell draws at least the loss, flag, new unit, lost and standing units.
    expect(labels.length).toBe(board.map.factions.length + 1);
    expect(marksOn(board.parseCell('B2')!).length).toBeGreaterThanOrEqual(8);
    // The test can fail: the old place of the loss badge (13 above the unit) did reach into a name.
    const tatooine = labels.find((l) => l.cells.includes(board.parseCell('B2')!))!;
    const old = `<circle cx="${L.unitX(board.parseCell('A2')!) + 14}" cy="${L.unitY(board.parseCell('A2')!) - 13}" r="8" fill="#FFFFFF" stroke="#111111" stroke-width="1.2"/>`;
    expect(overlaps(box(old), box(`<g ${CAPTION_STYLE}>${tatooine.svg}</g>`))).toBe(true);
  });

  it('no mark on a named planet or around it covers the name', () => {
    const problems: string[] = [];
    for (const label of labels) {
      const text = box(`<g ${CAPTION_STYLE}><g stroke="none">${label.svg}</g></g>`); // the letters, without their halo
      const near = new Set(label.cells.flatMap((c) => [c, ...board.moveNeighbours(c)]));
      for (const i of near)
        for (const m of marksOn(i)) if (overlaps(box(m.svg), text)) problems.push(`${board.name(i)} ${m.what} covers ${label.svg}`);
    }
    expect(problems).toEqual([]);
  });
});
