// The title above the board (game, turn, Chancellor) and the legend below it: every side with its
// token, home planet, units and planets, then every symbol the map uses, in the reader's language.
import { sideName } from '../adjudicator/render/vocabulary.ts';
import { IMPERIAL, type Lang, type Side } from '../adjudicator/types.ts';
import { noMansLandFactions, sidesShown } from './map-describe.ts';
import { PAD, UNIT_R, type Layout } from './map-geometry.ts';
import { mapTexts } from '../text/map.ts';
import { arrowShape, contestFlag, lossMark, newBadge, styleOf, token, TOKEN_TEXT } from './map-marks.ts';
import { COLOURS, sideStyles } from './map-style.ts';
import type { MapView } from './map-view.ts';
import { clip, num, xml } from './svg.ts';

const SIDE_ROW = 56;
const SYMBOL_ROW = 40;
const HEADING = 30;

export function titleLines(L: Layout, view: MapView, lang: Lang, gameName: string): [string, string] {
  const l = mapTexts[lang];
  const name = (s: Side) => sideName(L.board, s, lang);
  const first = view.kind === 'edict' ? l.edictTitle(view.turn) : l.stateTitle(view.turn);
  const parts = [`${l.game}: ${clip(gameName, 40)}`, `${l.chancellor}: ${view.chancellor ? name(view.chancellor) : l.noChancellor}`];
  if (view.electionNext) parts.push(l.electionNext);
  if (view.winners.length) parts.push(`${l.victory}: ${view.winners.map(name).join(', ')}`);
  return [first, parts.join(' · ')];
}

export function drawTitle(lines: [string, string]): string {
  return (
    `<text x="${PAD}" y="${PAD + 26}" font-size="28" font-weight="bold" fill="${COLOURS.ink}">${xml(lines[0])}</text>` +
    `<text x="${PAD}" y="${PAD + 56}" font-size="20" fill="${COLOURS.label}">${xml(lines[1])}</text>`
  );
}

/** Items laid out in two columns, filled top to bottom; returns the SVG and the height used. */
function columns(L: Layout, y: number, rowH: number, items: ((x: number, y: number) => string)[]): [string, number] {
  const colW = (L.width - 2 * PAD) / 2;
  const perCol = Math.ceil(items.length / 2);
  const out = items.map((draw, k) => draw(PAD + Math.floor(k / perCol) * colW, y + (k % perCol) * rowH));
  return [out.join('\n'), perCol * rowH];
}

function sideItems(L: Layout, view: MapView, lang: Lang): ((x: number, y: number) => string)[] {
  const l = mapTexts[lang];
  return sidesShown(L.board, view).map((s) => (x: number, y: number) => {
    const units = view.units.filter((u) => u.side === s).length;
    const facts = [l.units(units)];
    let title = sideName(L.board, s, lang);
    if (s === IMPERIAL) facts.unshift(l.imperialNote);
    else {
      const f = L.board.factions.get(s);
      if (f) facts.unshift(`${f.homeName} ${f.home}`);
      if (view.planets && s in view.planets) facts.push(l.planets(view.planets[s]!));
      if (s === view.chancellor) title += ` · ${l.chancellorMark}`;
    }
    return (
      `<g ${TOKEN_TEXT}>${token(styleOf(L, s), x + UNIT_R + 4, y + 26)}</g>` +
      `<text x="${num(x + 46)}" y="${num(y + 17)}" font-size="22" font-weight="bold" fill="${COLOURS.ink}">${xml(title)}</text>` +
      `<text x="${num(x + 46)}" y="${num(y + 41)}" font-size="17" fill="${COLOURS.label}">${xml(facts.join(' · '))}</text>`
    );
  });
}

type Icon = (cx: number, cy: number) => string;

const symbolItem = (icon: Icon, label: string) => (x: number, y: number) =>
  `${icon(x + 20, y + 16)}<text x="${num(x + 46)}" y="${num(y + 23)}" font-size="19" fill="${COLOURS.ink}">${xml(label)}</text>`;

const swatch =
  (fill: string, stroke: string, width: number): Icon =>
  (cx, cy) =>
    `<rect x="${num(cx - 15 + width / 2)}" y="${num(cy - 13 + width / 2)}" width="${num(30 - width)}" height="${num(26 - width)}" fill="${fill}" stroke="${stroke}" stroke-width="${width}"/>`;

function symbolItems(L: Layout, view: MapView, lang: Lang): ((x: number, y: number) => string)[] {
  const l = mapTexts[lang];
  const first = sideStyles(L.board).get(L.board.factionIds[0] ?? '');
  const [tint, edge] = first ? [first.tint, first.fill] : [COLOURS.space, COLOURS.ink];
  const items = [
    symbolItem(swatch(tint, edge, 4), l.home),
    symbolItem(swatch(tint, edge, 2), l.system),
    symbolItem(swatch(COLOURS.capitalTint, COLOURS.capitalEdge, 3), l.capitalCell),
  ];
  if (view.overlay) {
    const ghost = first ?? sideStyles(L.board).get(IMPERIAL)!;
    const lost = (kind: 'eliminated' | 'destroyed') => (cx: number, cy: number) =>
      `<g ${TOKEN_TEXT}>${token(ghost, cx, cy, true)}</g>${lossMark(kind, cx + 13, cy - 10)}`;
    const advancer = sideStyles(L.board).get(L.board.factionIds[1] ?? '') ?? ghost;
    const arrow = (kind: 'move' | 'jump' | 'advance', end: 'ok' | 'failed') => (cx: number, cy: number) =>
      arrowShape(kind, end, [cx - 19, cy], [cx + 19, cy], 0, 0);
    items.push(
      symbolItem(arrow('move', 'ok'), l.move),
      symbolItem(arrow('jump', 'ok'), l.jump),
      symbolItem(arrow('advance', 'ok'), l.advance),
      symbolItem(arrow('move', 'failed'), l.failed),
      symbolItem(lost('eliminated'), l.eliminated),
      // As on a cell the dead unit shares with the one that advanced (map-marks.ts, Spots).
      symbolItem(
        (cx, cy) =>
          `<g ${TOKEN_TEXT}>${token(advancer, cx + 4, cy)}${token(ghost, cx - 14, cy + 9, true, 9)}</g>${lossMark('eliminated', cx - 16, cy - 6, 6)}`,
        l.eliminatedTaken,
      ),
      symbolItem(lost('destroyed'), l.destroyed),
      symbolItem(contestFlag, l.contested),
      symbolItem(newBadge, l.newUnit),
    );
  }
  return items;
}

/**
 * The legend, starting at the layout's legendY, in two parts: the sides (which change every turn)
 * and the symbols (the same on every map of a language with the same sides shown: map-png.ts
 * draws them once). `symbolsY`: where the symbols start; `bottom`: the legend's bottom edge.
 */
export function drawLegend(
  L: Layout,
  view: MapView,
  lang: Lang,
  id: string,
): { sides: string; symbols: string; symbolsY: number; bottom: number } {
  const l = mapTexts[lang];
  let y = L.legendY;
  const heading = (text: string) =>
    `<text x="${PAD}" y="${num(y + 20)}" font-size="20" font-weight="bold" fill="${COLOURS.ink}">${xml(text)}</text>`;
  const first = [heading(l.legendSides)];
  y += HEADING;
  const [sides, h1] = columns(L, y, SIDE_ROW, sideItems(L, view, lang));
  first.push(sides);
  y += h1 + 8;
  const symbolsY = y;
  const out = [heading(l.legendSymbols)];
  y += HEADING;
  const [symbols, h2] = columns(L, y, SYMBOL_ROW, symbolItems(L, view, lang));
  out.push(symbols);
  y += h2;
  // No-man's land names whole factions: a row of its own, as wide as the map.
  const nml = noMansLandFactions(L.board, view);
  if (nml.length) {
    const names = nml.map((f) => sideName(L.board, f, lang)).join(', ');
    out.push(symbolItem(swatch(`url(#${id}-nml)`, COLOURS.noMansLand, 2), l.noMansLandOf(names))(PAD, y));
    y += SYMBOL_ROW;
  }
  return { sides: first.join('\n'), symbols: out.join('\n'), symbolsY, bottom: y + PAD };
}
