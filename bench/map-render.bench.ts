// Map rendering speed: `node --import tsx bench/map-render.bench.ts`.
// Two edicts on the classic map: a typical mid-game turn (6 factions, 31 units, a few arrows and
// losses) and a crowded 8-faction board (about 110 units, dozens of arrows and losses). For each,
// the SVG render and the PNG render (resvg at MAP_PNG_WIDTH px, bundled fonts, 8-bit palette) are timed after a warm-up,
// each for at least BENCH_SECONDS (default 2), and printed per map. Always exits 0.
// Also the PNG in bands (renderMapLayers, renderMapPngs), the Italian and English maps drawn
// together as closing a turn draws them, per map, warm (the board and symbols already kept).
// Figures behind map-png.ts's choices, as measured when they were made: ~50 ms of CPU a typical
// map at 900 px (~60 at 1,000 px), of which zlib's deflate ~6 ms at level 3 against ~13 at the
// default level 6. In bands (load average 7, others' tests running): typical 31.9 CPU ms a map
// against 51.1 whole, crowded 53.1 against 90.7; of a typical map's ~36 ms (distinct titles), the
// palette and deflate ~11, resvg drawing the marks (half, shared), title and sides ~10, their
// parsing ~7, composing the bands ~3.
// An edict's maps encoded with one palette, their shared rows (three in four) once, and the texts
// new to them laid out in one resvg call (load average 6, against the code before in the same
// minutes): typical 23.1 CPU ms a map against 24.4, crowded 36.2 against 39.7. This bench repeats
// one title, so the texts' gain (~3 ms a map with a title of its own, as at a deadline) is not in it.
import { classicMap } from '../src/adjudicator/map.ts';
import type { Edict } from '../src/adjudicator/types.ts';
import { MAP_PNG_WIDTH, renderMapPng, renderMapPngs } from '../src/edict/map-png.ts';
import { renderMapLayers, renderMapSvg } from '../src/edict/map-svg.ts';
import { midGameEdict } from '../test/adjudicator/render/fixtures.ts';
import { crowdedEdict } from '../test/edict/positions.ts';

const board = classicMap();
const MIN_SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

/**
 * Mean wall and CPU milliseconds per call of `fn`, run for at least MIN_SECONDS after a short
 * warm-up. On a shared machine the CPU figure is the steadier one.
 */
function time(fn: () => unknown): { ms: number; cpu: number; runs: number } {
  for (let i = 0; i < 3; i++) fn();
  const start = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let runs = 0;
  let elapsed = 0;
  while (elapsed < MIN_SECONDS * 1e3 || runs < 5) {
    fn();
    runs++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  }
  const cpu = process.cpuUsage(cpu0);
  return { ms: elapsed / runs, cpu: (cpu.user + cpu.system) / 1e3 / runs, runs };
}

const cases: [string, Edict][] = [
  ['typical (6 factions, 31 units)', midGameEdict()],
  [`crowded (8 factions, ${crowdedEdict().units.length} units)`, crowdedEdict()],
];

console.log(`map render, classic map, PNG ${MAP_PNG_WIDTH} px wide, ≥ ${MIN_SECONDS} s per measure`);
for (const [name, edict] of cases) {
  const svg = renderMapSvg(board, edict, { lang: 'it' });
  const png = renderMapPng(svg);
  const s = time(() => renderMapSvg(board, edict, { lang: 'it' }));
  const p = time(() => renderMapPng(svg));
  // As closing a turn draws them: in bands, the Italian and English maps together (per map below).
  const pair = (['it', 'en'] as const).map((lang) => renderMapLayers(board, edict, { lang }));
  const b = time(() => renderMapPngs(pair));
  console.log(name);
  console.log(
    `  SVG ${s.ms.toFixed(2).padStart(7)} ms/map (CPU ${s.cpu.toFixed(2)} ms), ${(svg.length / 1024).toFixed(0)} kB, ${s.runs} runs`,
  );
  console.log(
    `  PNG ${p.ms.toFixed(1).padStart(7)} ms/map (CPU ${p.cpu.toFixed(1)} ms), ${(png.length / 1024).toFixed(0)} kB, ${p.runs} runs`,
  );
  console.log(
    `  PNG in bands, it and en together ${(b.ms / 2).toFixed(1).padStart(7)} ms/map (CPU ${(b.cpu / 2).toFixed(1)} ms), ${b.runs} runs of two maps`,
  );
}
