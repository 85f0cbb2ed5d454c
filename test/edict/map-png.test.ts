// The PNG of the map: a real PNG (signature, IHDR, CRCs, image data of the announced size), read
// back by a second decoder, drawn with the bundled fonts only.
import { crc32, inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { Layout } from '../../src/edict/map-geometry.ts';
import { MAP_PNG_WIDTH, mapFontFiles, renderMapPng, renderMapPngAsync } from '../../src/edict/map-png.ts';
import { sideStyles } from '../../src/edict/map-style.ts';
import { renderMapSvg } from '../../src/edict/map-svg.ts';
import { midGameEdict } from '../adjudicator/render/fixtures.ts';

const board = classicMap();
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
}

/** The chunks of a PNG, each CRC checked. */
function chunks(png: Buffer): Chunk[] {
  expect(png.subarray(0, 8).equals(SIGNATURE)).toBe(true);
  const out: Chunk[] = [];
  let at = 8;
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    expect(png.readUInt32BE(at + 8 + len), `CRC of ${type.toString('latin1')}`).toBe(crc32(Buffer.concat([type, data])));
    out.push({ type: type.toString('latin1'), data });
    at += 12 + len;
  }
  return out;
}

/** Pixels of a PNG as another decoder reads them: resvg's image loader, at the PNG's own size. */
function decode(png: Buffer, width: number, height: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image width="${width}" height="${height}" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  const img = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  expect([img.width, img.height]).toEqual([width, height]);
  return img.pixels;
}

describe('renderMapPng', () => {
  const svg = renderMapSvg(board, midGameEdict(), { lang: 'en', gameName: `<script>&"'` });
  const png = renderMapPng(svg);
  const [, vbW, vbH] = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(svg)!.map(Number) as [number, number, number];
  const height = Math.round((MAP_PNG_WIDTH * vbH) / vbW);

  it('is a well-formed 8-bit indexed PNG of the map’s proportions, MAP_PNG_WIDTH wide, and of a sane size', () => {
    const list = chunks(png);
    expect(list.map((c) => c.type)).toEqual(['IHDR', 'PLTE', 'IDAT', 'IEND']);
    const ihdr = list[0]!.data;
    expect(ihdr.readUInt32BE(0)).toBe(MAP_PNG_WIDTH);
    expect(Math.abs(ihdr.readUInt32BE(4) - height)).toBeLessThanOrEqual(1);
    expect([...ihdr.subarray(8)]).toEqual([8, 3, 0, 0, 0]); // 8-bit palette indices, no interlace
    expect(list[1]!.data.length % 3).toBe(0);
    expect(list[1]!.data.length / 3).toBeLessThanOrEqual(256);
    const raw = inflateSync(list[2]!.data);
    expect(raw.length).toBe(ihdr.readUInt32BE(4) * (1 + MAP_PNG_WIDTH));
    // Small enough to mail to every player, large enough to hold a whole board.
    expect(png.length).toBeGreaterThan(30_000);
    expect(png.length).toBeLessThan(400_000);
  });

  it('decodes to the map: a unit’s disc in its faction’s colour where the SVG puts it', () => {
    const h = png.readUInt32BE(20);
    const pixels = decode(png, MAP_PNG_WIDTH, h);
    const L = new Layout(board);
    const scale = MAP_PNG_WIDTH / L.width;
    const at = (x: number, y: number) => {
      const o = (Math.round(y * scale) * MAP_PNG_WIDTH + Math.round(x * scale)) * 4;
      return `#${[0, 1, 2].map((k) => pixels[o + k]!.toString(16).padStart(2, '0')).join('')}`.toUpperCase();
    };
    // Hutt C3: the disc's edge, left of the code, is pure Hutt orange; empty space E5 is space.
    const c3 = board.parseCell('C3')!;
    expect(at(L.unitX(c3) - 12, L.unitY(c3))).toBe(sideStyles(board).get('hutt')!.fill);
    const e5 = board.parseCell('E5')!;
    expect(at(L.unitX(e5), L.unitY(e5))).toBe('#F3F4F7');
  });

  it('renders the same bytes on the thread pool, and the same bytes every time', async () => {
    expect((await renderMapPngAsync(svg)).equals(png)).toBe(true);
    expect(renderMapPng(svg).equals(png)).toBe(true);
  });

  it('draws text with the bundled DejaVu fonts, system fonts off', () => {
    expect(mapFontFiles().every((f) => /dejavu-fonts-ttf[\\/]ttf[\\/]DejaVuSans/.test(f))).toBe(true);
    const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40"><text x="4" y="30" font-size="30" font-family="'DejaVu Sans', sans-serif" font-weight="bold">Hu</text></svg>`;
    const out = renderMapPng(text, { width: 100 });
    const pixels = decode(out, 100, 40);
    let dark = 0;
    for (let o = 0; o < pixels.length; o += 4) if (pixels[o]! < 100 && pixels[o + 3]! > 200) dark++;
    expect(dark).toBeGreaterThan(200); // no font, no glyphs: the image would be all white
  });
});
