// Map PNGs drawn on worker threads: the same bytes as drawn here, several at once, and a map that
// cannot be drawn fails alone.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { renderMapLayers, renderMapPng, renderMapPngs, renderMapSvg } from '../../src/edict/index.ts';
import { crowdedEdict } from './positions.ts';
import { PngPool } from '../../src/edict/png-pool.ts';
import { initialState } from '../../src/games/initial-state.ts';

const board = classicMap();
const pool = new PngPool(2);
afterAll(() => pool.close());

describe('PngPool', () => {
  it('draws the same PNG as the calling thread would, several maps at once', { timeout: 120_000 }, async () => {
    const svgs = [4, 5, 6, 8].map((n) =>
      renderMapSvg(board, initialState(board, `g${n}`, board.factionIds.slice(0, n), { victoryPlanets: 12, nmrHostility: 'keep' }), {
        lang: 'en',
        gameName: `Game ${n}`,
      }),
    );
    const drawn = await Promise.all(svgs.map((s) => pool.render(s)));
    for (const [i, png] of drawn.entries()) expect(png.equals(renderMapPng(svgs[i]!)), `map ${i}`).toBe(true);
  });

  it('draws an edict’s maps in bands, both languages in one job, as the calling thread would', { timeout: 120_000 }, async () => {
    const edict = crowdedEdict(3);
    const maps = (['it', 'en'] as const).map((lang) => renderMapLayers(board, edict, { lang, gameName: 'Crowded' }));
    const [fromPool, again] = await Promise.all([pool.renderLayers(maps), pool.renderLayers(maps)]);
    const here = renderMapPngs(maps);
    expect(fromPool).toHaveLength(2);
    fromPool.forEach((png, k) => expect(png.equals(here[k]!), `map ${k}`).toBe(true));
    again.forEach((png, k) => expect(png.equals(here[k]!), `map ${k} from the other worker`).toBe(true));
  });

  it('rejects a map it cannot draw, and goes on drawing the next', { timeout: 120_000 }, async () => {
    await expect(pool.render('<not svg')).rejects.toThrow();
    const svg = renderMapSvg(board, initialState(board, 'g', board.factionIds.slice(0, 4), { victoryPlanets: 12, nmrHostility: 'keep' }), {
      lang: 'it',
    });
    expect((await pool.render(svg)).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });
});

/** Runs `code` in a fresh Node (through tsx); resolves with its exit code, or 'still running' if it has not exited after a long hang guard. */
function runAlone(code: string, guardMs = 90_000): Promise<number | string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: 'ignore',
  });
  return new Promise((resolve) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still running');
    }, guardMs);
    child.once('exit', (c, signal) => {
      clearTimeout(guard);
      resolve(c ?? signal ?? 'none');
    });
  });
}

describe('the shared pool', () => {
  it('never keeps the process alive once a map is drawn', { timeout: 120_000 }, async () => {
    // A process that drew a map and has nothing else to do ends by itself, once the map is drawn
    // (not before: exit code 13 would say the await was left unsettled). A service stopped by
    // SIGTERM is such a process.
    const code = `const m = await import('./src/edict/png-pool.ts');
const png = await m.renderMapPngOffThread('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
if (png.length < 8) process.exitCode = 3;`;
    expect(await runAlone(code)).toBe(0);
  });

  it('fails the maps not yet drawn when closed, and draws again when asked after', { timeout: 120_000 }, async () => {
    const p = new PngPool(1);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
    const pending = Promise.allSettled([p.render(svg), p.render(svg)]);
    await p.close();
    for (const r of await pending) expect(r.status).toBe('rejected');
    expect((await p.render(svg)).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    await p.close();
  });
});
