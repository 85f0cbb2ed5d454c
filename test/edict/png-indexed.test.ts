// The indexed PNG encoder: exact for images of up to 256 colours, nearest palette colour beyond,
// and a file other decoders read (resvg's image loader here; the map tests decode whole maps).
import { inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { encodeIndexedPng, encodeIndexedPngs } from '../../src/edict/png-indexed.ts';

/** Our own reading of the file: its palette and each pixel's colour as `0xRRGGBB`. */
function read(png: Buffer): { palette: number[]; pixels: number[]; width: number; height: number } {
  let at = 8;
  const chunks = new Map<string, Buffer>();
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    chunks.set(png.subarray(at + 4, at + 8).toString('latin1'), png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const ihdr = chunks.get('IHDR')!;
  const [width, height] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
  const plte = chunks.get('PLTE')!;
  const palette = Array.from({ length: plte.length / 3 }, (_, i) => plte.readUIntBE(i * 3, 3));
  const raw = inflateSync(chunks.get('IDAT')!);
  const pixels: number[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width + 1)]).toBe(0); // filter: none
    for (let x = 0; x < width; x++) pixels.push(palette[raw[y * (width + 1) + 1 + x]!]!);
  }
  return { palette, pixels, width, height };
}

/** An opaque RGBA image from `0xRRGGBB` colours. */
function rgba(colours: number[]): Uint8Array {
  const out = new Uint8Array(colours.length * 4);
  colours.forEach((c, i) => out.set([c >>> 16, (c >>> 8) & 0xff, c & 0xff, 255], i * 4));
  return out;
}

describe('encodeIndexedPng', () => {
  it('keeps every colour of an image of up to 256 colours, in runs and alone', () => {
    const colours = Array.from({ length: 40 * 25 }, (_, i) =>
      i % 40 < 20 ? 0xf3f4f7 : ((((i * 2654435761) >>> 0) % 255) * 0x010101) ^ 0x102030,
    );
    expect(new Set(colours).size).toBeLessThanOrEqual(256);
    const out = read(encodeIndexedPng(rgba(colours), 40, 25));
    expect([out.width, out.height]).toEqual([40, 25]);
    expect(out.pixels).toEqual(colours);
  });

  it('beyond 256 colours keeps the commonest exactly and draws each other as the nearest of them', () => {
    // 256 common greys (each 4 pixels), then 300 rare colours each one step off a grey.
    const common = Array.from({ length: 256 }, (_, i) => i * 0x010101);
    const rare = Array.from({ length: 300 }, (_, i) => (i % 256) * 0x010101 + (i % 256 < 255 ? 0x000001 : -0x000001));
    const colours = [...common.flatMap((c) => [c, c, c, c]), ...rare];
    const width = colours.length;
    const out = read(encodeIndexedPng(rgba(colours), width, 1));
    expect(out.palette).toHaveLength(256);
    expect(new Set(out.palette)).toEqual(new Set(common));
    expect(out.pixels.slice(0, 1024)).toEqual(colours.slice(0, 1024));
    out.pixels.slice(1024).forEach((c, i) => expect(c, `rare colour ${i}`).toBe(common[i % 256]));
  });

  it('draws thousands of rare colours (anti-aliased edges) as their nearest common colour', () => {
    // 256 common colours on a lattice, 30 pixels each; 5,120 rare ones, a pixel each, each a few
    // steps of red off one common colour and far from every other.
    const common = Array.from({ length: 256 }, (_, i) => (i & 7) * 32 * 0x10000 + ((i >> 3) & 7) * 32 * 0x100 + (i >> 6) * 64);
    const rare = common.flatMap((c) =>
      Array.from({ length: 20 }, (_, k) => ({ c: c + (k % 2 ? -1 : 1) * (1 + (k >> 1)) * 0x10000, of: c })),
    );
    const valid = rare.filter((x) => x.c >= 0); // red 0 has nothing below it
    const colours = [...common.flatMap((c) => Array<number>(30).fill(c)), ...valid.map((x) => x.c)];
    expect(new Set(colours).size).toBeGreaterThan(4000);
    const out = read(encodeIndexedPng(rgba(colours), colours.length, 1));
    expect(new Set(out.palette)).toEqual(new Set(common));
    expect(out.pixels.slice(0, 256 * 30)).toEqual(colours.slice(0, 256 * 30));
    expect(out.pixels.slice(256 * 30)).toEqual(valid.map((x) => x.of));
  });

  it('writes a file another decoder reads to the same pixels', () => {
    const colours = Array.from({ length: 16 * 16 }, (_, i) => [0xe69f00, 0x56b4e9, 0xffffff, 0x111111][(i >> 2) % 4]!);
    const png = encodeIndexedPng(rgba(colours), 16, 16);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="16" height="16"><image width="16" height="16" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
    const img = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
    expect(Buffer.from(img.pixels).equals(Buffer.from(rgba(colours)))).toBe(true);
  });

  it('reads pixels that do not start on a 4-byte boundary', () => {
    const colours = [0x123456, 0xabcdef, 0x123456, 0xffffff];
    const shifted = new Uint8Array(4 * colours.length + 1);
    shifted.set(rgba(colours), 1);
    expect(read(encodeIndexedPng(shifted.subarray(1), 2, 2)).pixels).toEqual(colours);
  });

  it('refuses pixels that do not match the size', () => {
    expect(() => encodeIndexedPng(new Uint8Array(4 * 10), 3, 3)).toThrow(/size/);
  });

  it('encodes pictures together with one palette: rows the same as in the first picture copied, the others their own', () => {
    const [width, height] = [30, 12];
    // Two pictures alike but for rows 3, 4 and 10, and a third of another width; 200 colours in all.
    const a = Array.from({ length: width * height }, (_, i) => ((i * 7) % 150) * 0x010203);
    const b = a.map((c, i) => ([3, 4, 10].includes(Math.floor(i / width)) ? 0xff0000 + (i % 50) : c));
    const c = Array.from({ length: 20 * 5 }, (_, i) => (i % 9) * 0x111111);
    const out = encodeIndexedPngs(
      [
        { rgba: rgba(a), width, height },
        { rgba: rgba(b), width, height },
        { rgba: rgba(c), width: 20, height: 5 },
      ],
      3,
    ).map(read);
    expect(out.map((o) => o.pixels)).toEqual([a, b, c]);
    expect(out[1]!.palette).toEqual(out[0]!.palette); // one palette for all
    expect(out[2]!.palette).toEqual(out[0]!.palette);
    // Alone, a picture gives the same PNG as encodeIndexedPng.
    expect(encodeIndexedPngs([{ rgba: rgba(a), width, height }], 3)[0]!.equals(encodeIndexedPng(rgba(a), width, height, 3))).toBe(true);
  });
});
