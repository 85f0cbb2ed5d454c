// The map as a PNG for the edict mail, through resvg (Rust, prebuilt in the npm package). Fonts
// are the DejaVu files bundled as the `dejavu-fonts-ttf` package, never the system's, so every
// machine draws the same letters.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { renderAsync, Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { textAsPaths } from './text-outlines.ts';

/**
 * Wide enough for the codes and names to read on a desktop mail client and sharp on a phone's
 * 2–3× screen; 1,000 rather than 1,200 px draws in two thirds of the time (bench:map: ~37 against
 * ~55 ms), which a thousand games due at once need (bench:deadline).
 */
export const MAP_PNG_WIDTH = 1000;

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
 * The PNG of a map's SVG. About 40 ms of CPU for a typical board at 1,000 px, most of it laying
 * out text: render it once per edict, not per recipient.
 */
export function renderMapPng(svg: string, options: MapPngOptions = {}): Buffer {
  const opts = renderOptions(options);
  return new Resvg(textAsPaths(svg, opts.font), opts).render().asPng();
}

/** The same PNG, laid out and drawn on libuv's thread pool (only the PNG encoding runs on the caller's thread). */
export async function renderMapPngAsync(svg: string, options: MapPngOptions = {}): Promise<Buffer> {
  const opts = renderOptions(options);
  return (await renderAsync(textAsPaths(svg, opts.font), opts)).asPng();
}
