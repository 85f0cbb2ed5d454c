import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { IMPERIAL, type Edict } from '../../src/adjudicator/types.ts';
import { Layout } from '../../src/edict/map-geometry.ts';
import { CODE_BASELINE } from '../../src/edict/map-marks.ts';
import { sideStyles } from '../../src/edict/map-style.ts';
import { renderMapSvg } from '../../src/edict/map-svg.ts';
import { num, xml } from '../../src/edict/svg.ts';
import { midGameEdict } from '../adjudicator/render/fixtures.ts';
import { crowdedEdict, scenarioInput } from './positions.ts';

const board = classicMap();
const L = new Layout(board);

/** Every `<text>` of a document: where it is and what it says. */
function texts(svg: string): { x: string; y: string; text: string }[] {
  const out: { x: string; y: string; text: string }[] = [];
  for (const m of svg.matchAll(/<text x="([^"]*)" y="([^"]*)"[^>]*>([^<]*)<\/text>/g)) out.push({ x: m[1]!, y: m[2]!, text: m[3]! });
  return out;
}

/** The code drawn on the unit standing on `cell`, if any, where the SVG puts the unit's disc. */
function codeAt(svg: string, cell: string): string | undefined {
  const m =
    new RegExp(
      `<g data-unit="[^"]*" data-cell="${cell}"><circle cx="([^"]*)" cy="([^"]*)"[^>]*/><text x="([^"]*)" y="([^"]*)"[^>]*>([^<]*)</text>`,
    ).exec(svg) ??
    new RegExp(
      `<g data-unit="[^"]*" data-cell="${cell}"><polygon [^>]*/><polygon [^>]*/><text x="([^"]*)" y="([^"]*)"[^>]*>([^<]*)</text>`,
    ).exec(svg);
  if (!m) return undefined;
  const i = board.parseCell(cell)!;
  // The disc on its cell (moved right when a lost unit shares it), the code centred on it.
  const [x, y] = m.length === 6 ? [Number(m[3]), Number(m[4])] : [Number(m[1]), Number(m[2])];
  expect(x).toBeGreaterThan(L.cellX(i));
  expect(x).toBeLessThan(L.cellX(i) + 42);
  expect(num(y)).toBe(num(L.unitY(i) + CODE_BASELINE));
  if (m.length === 6) expect(m[1]).toBe(m[3]);
  return m.at(-1);
}

describe('renderMapSvg', () => {
  const edict = midGameEdict();
  const svg = renderMapSvg(board, edict, { lang: 'en', gameName: 'Andromeda' });

  it('draws every final unit on its cell with its side code, and nothing on empty cells', () => {
    const styles = sideStyles(board);
    for (const u of edict.units) expect(codeAt(svg, u.at), u.at).toBe(styles.get(u.side)!.code);
    expect(codeAt(svg, 'B2')).toBeUndefined(); // Tatooine, left by B2-C3
    expect(codeAt(svg, 'M9')).toBe('IT');
  });

  it('is a scalable, accessible image: viewBox, role, <title> and <desc> referenced by aria', () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+" width="\d+" height="\d+" role="img"/);
    expect(svg).toContain('aria-labelledby="sf-map-title" aria-describedby="sf-map-desc"');
    expect(svg).toContain(
      '<title id="sf-map-title">Imperial Edict · Turn 7 — Game: Andromeda · Chancellor: Sith · next turn: election</title>',
    );
    const desc = /<desc id="sf-map-desc">([^<]*)<\/desc>/.exec(svg)![1]!;
    expect(desc).toContain('Knights (4): T6 X1 X2 Y2; Merchants (5)');
    expect(desc).toContain('Destroyed in hyperspace: Hutt B1=F3, Aristocrats F7=F3, Corellians H11=H8.');
    expect(desc).toContain('M4 (contested between L4, M3)');
    // The web page's Content-Security-Policy forbids inline styles and scripts.
    expect(svg).not.toMatch(/style=|<style|<script|href="http/);
  });

  it('has the column letters (no J, no K) and the row numbers on both sides', () => {
    const all = texts(svg);
    for (const c of board.map.columns) expect(all.filter((t) => t.text === c).length, c).toBeGreaterThanOrEqual(2);
    expect(all.some((t) => t.text === 'J' || t.text === 'K')).toBe(false);
    for (let r = 1; r <= 18; r++) expect(all.filter((t) => t.text === String(r)).length, `row ${r}`).toBe(2);
  });

  it('names the home planets and the Capital, and hatches no-man’s land only for factions not in play', () => {
    for (const name of ['Tatooine', 'Naboo', 'Kalgan', 'Dagobah', 'Siwenna', 'Corellia', 'Terra', 'Terminus', 'CAPITAL'])
      expect(
        texts(svg).some((t) => t.text === name),
        name,
      ).toBe(true);
    // Federals and Founders are not in play: their 6 planets are no-man's land (R-SETUP-3).
    expect(svg.match(/fill="url\(#sf-map-nml\)"/g)).toHaveLength(6 + 1); // + the legend's swatch
    const all8 = renderMapSvg(board, crowdedEdict(), { lang: 'en' });
    expect(all8).not.toContain('url(#sf-map-nml)');
  });

  it('gives every faction its own colour and code, and the Imperial Troops a white octagon', () => {
    const styles = [...sideStyles(board).entries()];
    const factions = styles.filter(([s]) => s !== IMPERIAL).map(([, st]) => st);
    expect(new Set(factions.map((s) => s.fill)).size).toBe(8);
    expect(new Set(styles.map(([, s]) => s.code)).size).toBe(9);
    const i = board.parseCell('M9')!;
    expect(svg).toContain(`<polygon points="${num(L.unitX(i) + 17.5 * Math.cos(Math.PI / 8))},`);
  });

  it('draws moves, jumps, advances and failed orders as arrows, and marks losses, contests and new units', () => {
    const arrowHeads =
      svg.match(/<polygon points="[^"]*" fill="#(111111|FFFFFF)" stroke="#111111" stroke-width="2" stroke-linejoin="round"\/>/g) ?? [];
    // 5 moves + 4 advances on the board, and 3 in the legend (move, jump, advance).
    expect(arrowHeads).toHaveLength(5 + 4 + 3);
    expect(svg.match(/stroke-dasharray="2 4"/g)).toHaveLength(4 + 1); // P10-Q11, A2-A4, C1-B1, Q12-Q11 + legend
    // Two contested advances (M4, P9) and the legend's flag.
    expect(svg.match(/<text [^>]*>!<\/text>/g)).toHaveLength(2 + 1);
  });

  it('escapes the game name and drops characters XML forbids', () => {
    const hostile = renderMapSvg(board, edict, { lang: 'it', gameName: `<script>&"'\u0001x`, idPrefix: '"><script>' });
    expect(hostile).not.toContain('<script');
    expect(hostile).toContain('&lt;script&gt;&amp;&quot;&#39;\uFFFDx');
    expect(hostile).not.toContain('\u0001');
    expect(hostile).toContain('id="script-title"');
    expect(xml('a&b<c>"d\'')).toBe('a&amp;b&lt;c&gt;&quot;d&#39;');
  });

  it('is deterministic and speaks the language asked for', () => {
    expect(renderMapSvg(board, structuredClone(edict), { lang: 'en', gameName: 'Andromeda' })).toBe(svg);
    const it_ = renderMapSvg(board, edict, { lang: 'it' });
    expect(it_).toContain('Editto Imperiale · Turno 7');
    expect(it_).toContain('lang="it"');
    expect(it_).toContain('Cavalieri');
    expect(svg).toContain('Knights');
    expect(svg).not.toContain('Cavalieri');
  });

  it('draws a position before its turn without arrows or marks', () => {
    const state = scenarioInput('rb-fig3-star-cross-of-death').state;
    const map = renderMapSvg(board, state, { lang: 'en' });
    expect(map).toContain('Turn 5 · starting position');
    for (const u of state.units) expect(codeAt(map, u.at), u.at).toBeDefined();
    expect(map).not.toContain('stroke-dasharray="2 4"');
    expect(map).not.toContain('advance after combat');
  });

  it('survives a corrupt edict: a side the map does not know, a cell off the board', () => {
    const bad: Edict = { ...edict, units: [...edict.units, { side: 'pirates', at: 'D5' }, { side: 'hutt', at: 'Z99' }] };
    const map = renderMapSvg(board, bad, { lang: 'en' });
    expect(codeAt(map, 'D5')).toBe('pi');
    expect(map).toContain('pirates (1): D5');
  });
});
