import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../src/adjudicator/map.ts';
import { mapFontFiles } from '../../src/edict/map-png.ts';
import { renderMapSvg } from '../../src/edict/map-svg.ts';
import { clearTextOutlines, outlineTexts, textAsPaths } from '../../src/edict/text-outlines.ts';
import { midGameEdict } from '../adjudicator/render/fixtures.ts';

const font = { loadSystemFonts: false, fontFiles: mapFontFiles(), defaultFontFamily: 'DejaVu Sans' };
const wrap = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60" font-family="'DejaVu Sans'">${body}</svg>`;

describe('textAsPaths', () => {
  it('turns every text of a map into outlines that draw the same pixels', () => {
    const svg = renderMapSvg(classicMap(), midGameEdict(), { lang: 'en', gameName: `<script>&"'` });
    const flat = textAsPaths(svg, font);
    expect(flat).not.toContain('<text');
    expect(flat).toContain('<title id="sf-map-title">'); // the document around the texts is kept
    const draw = (s: string) => new Resvg(s, { font, fitTo: { mode: 'width', value: 600 }, background: '#fff' }).render().pixels;
    const [a, b] = [draw(svg), draw(flat)];
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 16) differing++;
    expect(differing).toBeLessThan(a.length / 10_000);
  });

  it('gives the same outlines from a cold cache and a warm one, and takes inherited attributes into the key', () => {
    const svg = wrap('<g font-size="20"><text x="10" y="30">Hu</text></g><g font-size="40"><text x="100" y="50">Hu</text></g>');
    clearTextOutlines();
    const cold = textAsPaths(svg, font);
    expect(textAsPaths(svg, font)).toBe(cold);
    expect(cold).toContain('<g transform="translate(10 30)">');
    expect(cold).toContain('<g transform="translate(100 50)">');
    const outlines = [...cold.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]!);
    expect(outlines).toHaveLength(2);
    expect(outlines[0]).not.toBe(outlines[1]); // 20 and 40 units high: not one cached shape
  });

  it('lays out texts new to several documents in one go, with the outlines each would get alone', () => {
    const docs = [
      wrap('<text x="1" y="20" font-size="20">Turno 6</text><text x="1" y="40"></text><text x="1" y="50" font-weight="bold">AV</text>'),
      wrap('<g font-size="14"><text x="5" y="30">Hutt · 4</text></g><text x="1" y="40" font-size="20">Turno 6</text>'),
    ];
    clearTextOutlines();
    const alone = docs.map((doc) => textAsPaths(doc, font));
    clearTextOutlines();
    outlineTexts(docs, font);
    expect(docs.map((doc) => textAsPaths(doc, font))).toEqual(alone);
    expect(alone.join('')).not.toContain('>Turno 6<');
    expect(alone.join('')).not.toContain('>AV<');
  });

  it('leaves alone what it does not follow: children, unknown attributes, groups it cannot read', () => {
    const kept = [
      '<text x="1" y="20">a<tspan>b</tspan></text>',
      '<text x="1" y="20" class="c">a</text>',
      '<text x="1em" y="20">a</text>',
      '<g filter="url(#f)"><text x="1" y="20">a</text></g>',
    ];
    for (const body of kept) expect(textAsPaths(wrap(body), font), body).toBe(wrap(body));
  });
});
