// The map of the Imperial Edict: SVG for the web page and the mail's HTML, PNG for the attachment,
// and the same position in words for alt text.
export { describeMap } from './map-describe.ts';
export { MAP_PNG_WIDTH, renderMapPng, renderMapPngAsync, renderMapPngs, type MapPngOptions } from './map-png.ts';
export { renderMapLayers, renderMapSvg, type MapLayers, type MapSvgOptions } from './map-svg.ts';
export { closeMapPool, PngPool, renderMapPngOffThread, renderMapPngsOffThread } from './png-pool.ts';
