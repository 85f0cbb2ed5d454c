// How each side looks on the map. Colours come from the Okabe–Ito palette, chosen to stay apart
// for the common kinds of colour blindness; colour is never the only cue: every unit also carries
// its side's two-letter code (the same codes as the text map, so players can compare) and the
// Imperial Troops have their own shape and white fill (R-SETUP-1: "Imperial Troops (white)").
// Colours follow the map's faction order, so a map file needs no colours of its own (R-BOARD-5).
import type { Board } from '../adjudicator/map.ts';
import { sideCodes } from '../adjudicator/render/board-map.ts';
import { IMPERIAL, type Side } from '../adjudicator/types.ts';

export interface SideStyle {
  code: string;
  fill: string;
  /** Text on `fill`: black or white, whichever contrasts more (WCAG ratio ≥ 4.5 for all eight). */
  ink: string;
  /** A pale version of `fill` for the side's planets. */
  tint: string;
  imperial: boolean;
}

/** Okabe & Ito (2008), in the order factions enter play (R-SETUP-1), with the ink that reads on it. */
const PALETTE: readonly (readonly [fill: string, ink: string])[] = [
  ['#E69F00', '#000000'], // orange
  ['#CC79A7', '#000000'], // reddish purple
  ['#D55E00', '#000000'], // vermillion
  ['#56B4E9', '#000000'], // sky blue
  ['#F0E442', '#000000'], // yellow
  ['#009E73', '#000000'], // bluish green
  ['#0072B2', '#FFFFFF'], // blue
  ['#000000', '#FFFFFF'], // black
];

export const COLOURS = {
  background: '#FFFFFF',
  space: '#F3F4F7',
  grid: '#C3C8D2',
  label: '#3A3F4A',
  ink: '#111111',
  failed: '#A4161A',
  capitalTint: '#FBE7A1',
  capitalEdge: '#6B4E00',
  noMansLand: '#8A8F99',
  noMansLandTint: '#E2E4E8',
  ghost: '#6A6F78',
  flag: '#F0E442',
} as const;

/** Mix a `#RRGGBB` colour with white: `share` of the colour, the rest white. */
function tint(hex: string, share: number): string {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const mixed = c.map((v) => Math.round(v * share + 255 * (1 - share)));
  return `#${mixed.map((v) => v.toString(16).padStart(2, '0').toUpperCase()).join('')}`;
}

const styleCache = new WeakMap<Board, ReadonlyMap<Side, SideStyle>>();

/** The style of every side of a board's map, the Imperial Troops included. */
export function sideStyles(board: Board): ReadonlyMap<Side, SideStyle> {
  const cached = styleCache.get(board);
  if (cached) return cached;
  const codes = sideCodes(board);
  const styles = new Map<Side, SideStyle>();
  board.factionIds.forEach((f, i) => {
    // More factions than colours: colours repeat, the codes still tell them apart.
    const [fill, ink] = PALETTE[i % PALETTE.length]!;
    // Black mixed like the others would be a dark grey: paler, so the code on a ghost still reads.
    styles.set(f, { code: codes.get(f) ?? '??', fill, ink, tint: tint(fill, fill === '#000000' ? 0.2 : 0.3), imperial: false });
  });
  styles.set(IMPERIAL, { code: codes.get(IMPERIAL) ?? 'IT', fill: '#FFFFFF', ink: '#000000', tint: '#FFFFFF', imperial: true });
  styleCache.set(board, styles);
  return styles;
}

/** The style of a side the map does not know (a corrupt position): grey, with its id cut short. */
export function unknownStyle(side: Side): SideStyle {
  const code = side.replace(/[^A-Za-z0-9]/g, '').slice(0, 2) || '??';
  return { code, fill: '#BBBBBB', ink: '#000000', tint: '#EEEEEE', imperial: false };
}
