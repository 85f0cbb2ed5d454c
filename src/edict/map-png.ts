// The map as a PNG for the edict mail, through resvg (Rust, prebuilt in the npm package). Fonts
// are the DejaVu files bundled as the `dejavu-fonts-ttf` package, never the system's, so every
// machine draws the same letters.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { renderAsync, Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { encodeIndexedPng, encodeIndexedPngs } from './png-indexed.ts';
import { outlineTexts, textAsPaths } from './text-outlines.ts';
import type { MapBand, MapLayers } from './map-svg.ts';

/**
 * Wide enough for the unit codes, coordinates and legend to read on a desktop mail client and on a
 * phone zoomed in, the planets' names (the smallest text, ~9 px) still legible; at 800 px they
 * were not. Each step down draws faster, and ~1,000 maps are drawn at one deadline (bench:map,
 * bench:deadline).
 */
export const MAP_PNG_WIDTH = 900;

/** The four faces the map uses (regular, bold, each normal and condensed). */
const FACES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSansCondensed.ttf', 'DejaVuSansCondensed-Bold.ttf'];

let fontFiles: string[] | undefined;
/** The bundled font files' paths, found once through the package's own location. */
export function mapFontFiles(): string[] {
  fontFiles ??= (() => {
    const dir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    return FACES.map((f) => join(dir, f));
  })();
  return fontFiles;
}

export interface MapPngOptions {
  /** Width in pixels; the height follows the SVG's proportions. */
  width?: number;
}

function renderOptions(options: MapPngOptions): ResvgRenderOptions {
  return {
    fitTo: { mode: 'width', value: options.width ?? MAP_PNG_WIDTH },
    background: '#FFFFFF',
    font: {
      loadSystemFonts: false,
      fontFiles: mapFontFiles(),
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
    },
    logLevel: 'error',
  };
}

/**
 * Once every text is outlines (text-outlines.ts: all of them on the maps drawn here), resvg needs
 * no font: not loading the four files saves ~2 ms a map. Any text left keeps them.
 */
function withoutFontsIfNoText(flat: string, opts: ResvgRenderOptions): ResvgRenderOptions {
  return flat.includes('<text') ? opts : { ...opts, font: { loadSystemFonts: false } };
}

/**
 * zlib level 3: ~10 % larger than the default level 6 (88 against 78 kB for a typical map) in
 * about half its time (bench:map); a thousand maps at one deadline (bench:deadline).
 */
const DEFLATE_LEVEL = 3;

/**
 * The PNG of a map's SVG, 8-bit indexed (png-indexed.ts: a third of the bytes of resvg's RGBA).
 * Tens of milliseconds of CPU a map (bench:map): render it once per edict, not per recipient.
 */
export function renderMapPng(svg: string, options: MapPngOptions = {}): Buffer {
  const { pixels, width, height } = wholePixels(svg, options);
  return encodeIndexedPng(pixels, width, height, DEFLATE_LEVEL);
}

/** The same PNG, laid out and drawn on libuv's thread pool (only the PNG encoding runs on the caller's thread). */
export async function renderMapPngAsync(svg: string, options: MapPngOptions = {}): Promise<Buffer> {
  const opts = renderOptions(options);
  const flat = textAsPaths(svg, opts.font);
  const img = await renderAsync(flat, withoutFontsIfNoText(flat, opts));
  return encodeIndexedPng(img.pixels, img.width, img.height, DEFLATE_LEVEL);
}

/** A band drawn: premultiplied RGBA pixels (one number a pixel) from picture row `row` on. */
interface DrawnBand {
  row: number;
  rows: number;
  pixels: Uint32Array;
  opaque: boolean;
}

/**
 * Bands the same on many maps (MapBand.keep: the board of a language and of the factions in play,
 * the legend's symbols), kept drawn by their SVG, the least recently used dropped past this many
 * bytes, in each worker: a board band is ~3 MB, the symbols ~1 MB, one of each per language and
 * number of factions in play (classic map, Italian and English, 4–8 players: ~50 MB).
 */
const KEPT_BYTES = 64 * 1024 * 1024;
const kept = new Map<string, DrawnBand>();
let keptBytes = 0;

function keep(doc: string, band: DrawnBand): void {
  kept.set(doc, band);
  keptBytes += band.pixels.byteLength;
  for (const [k, b] of kept) {
    if (keptBytes <= KEPT_BYTES) break;
    kept.delete(k);
    keptBytes -= b.pixels.byteLength;
  }
}

/** The pixel rows of a picture `width` px wide that a map `layers` gives, rounded as resvg sizes the whole map. */
function pictureRows(layers: MapLayers, width: number): number {
  return Math.round((width * layers.height) / layers.width);
}

/** A band's own SVG document: its pixel rows r0…r1 of the whole map's picture (`rows` rows). */
function bandDoc(layers: MapLayers, band: MapBand, width: number, rows: number): { doc: string; r0: number; r1: number } {
  // Whole pixel rows of the whole map's picture, drawn with its transform: resvg fits the map's
  // viewBox to the picture's size, the width and the rounded height each scaled on its own. The
  // band's document is that picture's rows r0…r1, in pixels, its viewBox their part of the map.
  const sy = rows / layers.height;
  const r0 = Math.max(0, Math.floor(band.top * sy));
  const r1 = Math.min(rows, Math.max(r0 + 1, Math.ceil(band.bottom * sy)));
  const doc =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 ${r0 / sy} ${layers.width} ${(r1 - r0) / sy}" width="${width}" height="${r1 - r0}" ` +
    `preserveAspectRatio="none" ${layers.root}>\n${layers.defs}\n${band.svg}\n</svg>\n`;
  return { doc, r0, r1 };
}

function drawBand(
  layers: MapLayers,
  band: MapBand,
  width: number,
  rows: number,
  opts: ResvgRenderOptions,
  memo: Map<string, DrawnBand>,
): DrawnBand {
  const { doc, r0, r1 } = bandDoc(layers, band, width, rows);
  const known = kept.get(doc) ?? memo.get(doc);
  if (known) {
    if (band.keep) {
      kept.delete(doc); // the most recently used last
      kept.set(doc, known);
    }
    return known;
  }
  const flat = textAsPaths(doc, opts.font);
  const img = new Resvg(flat, withoutFontsIfNoText(flat, { ...opts, fitTo: { mode: 'original' }, background: undefined })).render();
  const bytes = img.pixels;
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const drawn: DrawnBand = {
    row: r0,
    rows: Math.min(img.height, r1 - r0),
    pixels: new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4),
    opaque: band.opaque,
  };
  if (img.width !== width) throw new Error(`a map band came out ${img.width} px wide, not ${width}`);
  if (band.keep) keep(doc, drawn);
  else memo.set(doc, drawn);
  return drawn;
}

/** c·k/255, rounded to the nearest (exact for c, k ≤ 255). */
function times(c: number, k: number): number {
  const t = c * k + 128;
  return (t + (t >> 8)) >> 8;
}

/** `band` drawn over `canvas` (opaque, premultiplied = straight): source-over, as resvg composes. */
function compose(canvas: Uint32Array, width: number, band: DrawnBand): void {
  const n = band.rows * width;
  const src = band.pixels;
  const at = band.row * width;
  if (band.opaque) {
    canvas.set(src.subarray(0, n), at);
    return;
  }
  for (let i = 0; i < n; i++) {
    const p = src[i]!;
    const a = p >>> 24;
    if (a === 0) continue;
    if (a === 255) {
      canvas[at + i] = p;
      continue;
    }
    const d = canvas[at + i]!;
    const k = 255 - a;
    const r = (p & 0xff) + times(d & 0xff, k);
    const g = ((p >>> 8) & 0xff) + times((d >>> 8) & 0xff, k);
    const b = ((p >>> 16) & 0xff) + times((d >>> 16) & 0xff, k);
    canvas[at + i] = (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
  }
}

/**
 * The PNGs of maps given as bands (renderMapLayers): the same pictures as renderMapPng of their
 * SVGs, to a rounding of colours at the edges of the marks, for a fraction of the CPU (bench:map):
 * the board and the legend's symbols are drawn once per language and factions in play, and the
 * marks, the same in every language, once for all the maps of one call (an edict's languages).
 */
export function renderMapPngs(maps: readonly MapLayers[], options: MapPngOptions = {}): Buffer[] {
  const memo = new Map<string, DrawnBand>();
  // The texts new to these maps (titles, legend lines) laid out together: one font load, not one a band.
  const width = options.width ?? MAP_PNG_WIDTH;
  const fresh = maps.flatMap((layers) =>
    layers.bands.filter((band) => !band.keep).map((band) => bandDoc(layers, band, width, pictureRows(layers, width)).doc),
  );
  outlineTexts(fresh, renderOptions(options).font);
  // Encoded together: the languages' maps share most rows, counted and looked up once (png-indexed.ts).
  const pictures = maps.map((layers, k) => {
    const { pixels, width, height } = layeredPixels(layers, options, memo, k);
    return { rgba: pixels, width, height };
  });
  return encodeIndexedPngs(pictures, DEFLATE_LEVEL);
}

/** Picture buffers kept from one call of renderMapPngs to the next, one a map of the call. */
const canvases: Uint32Array[] = [];

/** The RGBA pixels of a map given as bands, before the palette (tests compare them with resvg's whole map). */
export function layeredPixels(
  layers: MapLayers,
  options: MapPngOptions = {},
  memo = new Map<string, DrawnBand>(),
  reuse?: number,
): { pixels: Uint8Array; width: number; height: number } {
  const opts = renderOptions(options);
  const width = options.width ?? MAP_PNG_WIDTH;
  const rows = pictureRows(layers, width);
  // `reuse`: the kept buffer of that number, free again once its picture is encoded.
  let canvas: Uint32Array;
  if (reuse !== undefined) {
    if ((canvases[reuse]?.length ?? 0) < width * rows) canvases[reuse] = new Uint32Array(width * rows);
    canvas = canvases[reuse]!.subarray(0, width * rows);
  } else canvas = new Uint32Array(width * rows);
  canvas.fill(0xffffffff); // the background, as renderOptions
  for (const band of layers.bands) compose(canvas, width, drawBand(layers, band, width, rows, opts, memo));
  return { pixels: new Uint8Array(canvas.buffer, canvas.byteOffset, canvas.byteLength), width, height: rows };
}

/** The RGBA pixels of a map's whole SVG, as renderMapPng draws them before the palette. */
export function wholePixels(svg: string, options: MapPngOptions = {}): { pixels: Uint8Array; width: number; height: number } {
  const opts = renderOptions(options);
  const flat = textAsPaths(svg, opts.font);
  const img = new Resvg(flat, withoutFontsIfNoText(flat, opts)).render();
  return { pixels: img.pixels, width: img.width, height: img.height };
}
