// The map drawn in bands (renderMapLayers, renderMapPngs: the board and the legend's symbols drawn
// once, the marks once for both languages) is the picture of the whole SVG (R-EDICT-1): compared
// pixel by pixel with resvg's rendering of renderMapSvg, in Italian and English, over positions
// that together hold every kind of mark, a position without events and one with no-man's land.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import type { Edict, GameState, Lang } from '../../src/adjudicator/types.ts';
import { layeredPixels, renderMapPng, renderMapPngs, wholePixels } from '../../src/edict/map-png.ts';
import { renderMapLayers, renderMapSvg, type MapSvgOptions } from '../../src/edict/map-svg.ts';
import { midGameEdict } from '../adjudicator/render/fixtures.ts';
import { crowdedEdict, scenarioEdict, scenarioInput } from './positions.ts';

const board = classicMap();
const LANGS: Lang[] = ['it', 'en'];

const positions: [string, Edict | GameState][] = [
  ['mid-game', midGameEdict()],
  ['crowded', crowdedEdict(7)],
  ['crowded-3', crowdedEdict(3)],
  ['rb-fig1-only-d1-falls', scenarioEdict('rb-fig1-only-d1-falls')], // elimination, contested advance
  ['hyp-jump-into-trap-then-production', scenarioEdict('hyp-jump-into-trap-then-production')], // destruction, production
  ['pol-troop-named-cell', scenarioEdict('pol-troop-named-cell')], // an Imperial Troop appears
  ['elec5-capital-full-default-removal', scenarioEdict('elec5-capital-full-default-removal')], // a new Chancellor's unit
  ['move-chain-follow-and-blocked', scenarioEdict('move-chain-follow-and-blocked')], // failed moves
  ['setup-no-mans-land', scenarioInput('setup-no-mans-land').state], // a position: no marks, no-man's land
];

/** The values of `attr` on the map's marks. */
const values = (svg: string, attr: string) => [...svg.matchAll(new RegExp(`${attr}="([^"]*)"`, 'g'))].map((m) => m[1]!);

/**
 * How two renderings of one map differ: the largest difference of a colour channel, and how many
 * pixels differ by more than 2 in some channel (resvg composes one band over another with its own
 * rounding: a level or two on anti-aliased edges).
 */
function difference(a: Uint8Array, b: Uint8Array): { max: number; pixels: number } {
  let max = 0;
  let pixels = 0;
  for (let i = 0; i < a.length; i += 4) {
    let worst = 0;
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(a[i + k]! - b[i + k]!));
    max = Math.max(max, worst);
    if (worst > 2) pixels++;
  }
  return { max, pixels };
}

/** The RGB of an 8-bit indexed PNG as written by encodeIndexedPng (one IDAT, no filters). */
function decodeIndexed(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  let plte: Buffer = Buffer.alloc(0);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'PLTE') plte = png.subarray(at + 8, at + 8 + len);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const k = raw[y * (width + 1) + 1 + x]!;
      rgba.set([plte[k * 3]!, plte[k * 3 + 1]!, plte[k * 3 + 2]!, 255], (y * width + x) * 4);
    }
  return { width, height, rgba };
}

describe('the map drawn in bands', () => {
  it('the positions hold every kind of mark the map draws', () => {
    const svgs = positions.map(([, p]) => renderMapSvg(board, p, { lang: 'en' }));
    expect(new Set(svgs.flatMap((s) => values(s, 'data-mark')))).toEqual(
      new Set(['move', 'jump', 'advance', 'eliminated', 'destroyed', 'contested', 'new']),
    );
    expect(new Set(svgs.flatMap((s) => values(s, 'data-end')))).toEqual(new Set(['ok', 'failed', 'destroyed']));
    expect(svgs.some((s) => values(s, 'data-lost').length > 0)).toBe(true);
    expect(svgs.some((s) => s.includes('-nml)'))).toBe(true);
  });

  for (const [name, position] of positions)
    for (const lang of LANGS)
      it(`${name}, ${lang}: the same pixels as the whole SVG, to a rounding on edges`, () => {
        const options: MapSvgOptions = { lang, gameName: `Bench <${name}> & "co"` };
        const whole = wholePixels(renderMapSvg(board, position, options));
        const bands = layeredPixels(renderMapLayers(board, position, options));
        expect([bands.width, bands.height]).toEqual([whole.width, whole.height]);
        const d = difference(whole.pixels, bands.pixels);
        // Measured: at most a few dozen pixels past 2 levels, none past 32, of ~1.3 million.
        expect(d.max, 'largest channel difference').toBeLessThanOrEqual(48);
        expect(d.pixels, 'pixels more than 2 levels off').toBeLessThan(200);
      });

  it('a title that differs is drawn (the bands are not taken from another map)', () => {
    const a = layeredPixels(renderMapLayers(board, midGameEdict(), { lang: 'en', gameName: 'Alpha' }));
    const b = layeredPixels(renderMapLayers(board, midGameEdict(), { lang: 'en', gameName: 'Omega' }));
    const d = difference(a.pixels, b.pixels);
    expect(d.pixels).toBeGreaterThan(100);
  });

  it('renderMapPngs gives, for each language at once, the PNG of the whole SVG to within the palette', () => {
    const edict = crowdedEdict(7);
    const pngs = renderMapPngs(LANGS.map((lang) => renderMapLayers(board, edict, { lang, gameName: 'Crowded' })));
    expect(pngs).toHaveLength(2);
    LANGS.forEach((lang, k) => {
      const bands = decodeIndexed(pngs[k]!);
      const whole = decodeIndexed(renderMapPng(renderMapSvg(board, edict, { lang, gameName: 'Crowded' })));
      expect([bands.width, bands.height]).toEqual([whole.width, whole.height]);
      // Both are reduced to 256 colours, each from its own counts: a rare edge colour may go to a
      // different neighbour, but the picture is the same.
      let sum = 0;
      for (let i = 0; i < whole.rgba.length; i++) sum += Math.abs(whole.rgba[i]! - bands.rgba[i]!);
      expect(sum / whole.rgba.length, `${lang}: mean difference a channel`).toBeLessThan(0.5);
    });
    // The languages differ (title, legend), the board's marks are the same in both.
    expect(pngs[0]!.equals(pngs[1]!)).toBe(false);
  });
});
