// The map as a PNG for the edict mail, through resvg (Rust, prebuilt in the npm package). Fonts
// are the DejaVu files bundled as the `dejavu-fonts-ttf` package, never the system's, so every
// machine draws the same letters.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { renderAsync, Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { encodeIndexedPng } from './png-indexed.ts';
import { textAsPaths } from './text-outlines.ts';

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
  const opts = renderOptions(options);
  const flat = textAsPaths(svg, opts.font);
  const img = new Resvg(flat, withoutFontsIfNoText(flat, opts)).render();
  return encodeIndexedPng(img.pixels, img.width, img.height, DEFLATE_LEVEL);
}

/** The same PNG, laid out and drawn on libuv's thread pool (only the PNG encoding runs on the caller's thread). */
export async function renderMapPngAsync(svg: string, options: MapPngOptions = {}): Promise<Buffer> {
  const opts = renderOptions(options);
  const flat = textAsPaths(svg, opts.font);
  const img = await renderAsync(flat, withoutFontsIfNoText(flat, opts));
  return encodeIndexedPng(img.pixels, img.width, img.height, DEFLATE_LEVEL);
}
