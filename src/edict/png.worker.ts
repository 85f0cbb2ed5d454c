// The worker of png-pool.ts: draws one job at a time (resvg: layout, raster and PNG encoding all
// here), a map's whole SVG or an edict's maps as bands, so that a thousand edicts due at once keep
// every core busy and the event loop free. The bands it keeps drawn (map-png.ts) are its own.
import { parentPort } from 'node:worker_threads';
import { renderMapPng, renderMapPngs } from './map-png.ts';
import type { MapLayers } from './map-svg.ts';

const port = parentPort!;
port.on('message', (m: { id: number; svg?: string; maps?: MapLayers[] }) => {
  try {
    const pngs = m.maps ? renderMapPngs(m.maps) : [renderMapPng(m.svg ?? '')];
    // A Buffer's memory may be Node's shared pool, which cannot be transferred (Node 22+ refuses
    // it): each PNG is copied once into memory of its own, which moves to the caller without a copy.
    const out = pngs.map((png) => {
      const bytes = new Uint8Array(png.byteLength);
      bytes.set(png);
      return bytes;
    });
    port.postMessage(
      { id: m.id, pngs: out },
      out.map((b) => b.buffer),
    );
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
