// Map PNGs drawn on worker threads: the same bytes as drawn here, several at once, and a map that
// cannot be drawn fails alone.
import { afterAll, describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { renderMapPng, renderMapSvg } from '../../src/edict/index.ts';
import { PngPool } from '../../src/edict/png-pool.ts';
import { initialState } from '../../src/games/initial-state.ts';

const board = classicMap();
const pool = new PngPool(2);
afterAll(() => pool.close());

describe('PngPool', () => {
  it('draws the same PNG as the calling thread would, several maps at once', { timeout: 120_000 }, async () => {
    const svgs = [4, 5, 6, 8].map((n) => renderMapSvg(board, initialState(board, `g${n}`, board.factionIds.slice(0, n), { victoryPlanets: 12, nmrHostility: 'keep' }), { lang: 'en', gameName: `Game ${n}` }));
    const drawn = await Promise.all(svgs.map((s) => pool.render(s)));
    for (const [i, png] of drawn.entries()) expect(png.equals(renderMapPng(svgs[i]!)), `map ${i}`).toBe(true);
  });

  it('rejects a map it cannot draw, and goes on drawing the next', { timeout: 120_000 }, async () => {
    await expect(pool.render('<not svg')).rejects.toThrow();
    const svg = renderMapSvg(board, initialState(board, 'g', board.factionIds.slice(0, 4), { victoryPlanets: 12, nmrHostility: 'keep' }), { lang: 'it' });
    expect((await pool.render(svg)).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });
});
