// The map of the final situation that R-EDICT-1 asks for, as plain text for a monospace mail:
// 23 columns × 3 characters plus the row numbers on both sides is 75 characters wide.
import type { Board } from '../map.ts';
import { IMPERIAL, type FactionId, type Lang, type Side, type Unit } from '../types.ts';
import { sideName, VOCABULARY } from './vocabulary.ts';

/** The Imperial Troops' code: all capitals, so it can never clash with a faction's (`Hu`, `Ar`…). */
export const IMPERIAL_CODE = 'IT';

export interface BoardMapOptions {
  /** Language of the legend; the grid itself is the same in every language. */
  lang?: Lang;
  /** Factions in play: the planets of the others are no-man's land, drawn `x` (R-SETUP-3). */
  inPlay?: readonly FactionId[];
}

const codeCache = new WeakMap<Board, ReadonlyMap<Side, string>>();

/**
 * Two-letter codes for every side, from the map data so that nothing is hard-coded (R-BOARD-5):
 * the first letter of the English name, capitalised, then the first later letter (lower case) that
 * no earlier faction in map order took; digits if the letters run out. The English name is used in
 * both languages so that Italian and English players read the same map when they compare notes.
 */
export function sideCodes(board: Board): ReadonlyMap<Side, string> {
  const cached = codeCache.get(board);
  if (cached) return cached;
  const codes = new Map<Side, string>([[IMPERIAL, IMPERIAL_CODE]]);
  const taken = new Set<string>([IMPERIAL_CODE]);
  for (const f of board.map.factions) {
    const letters = `${f.names.en[0]}${f.id}`.replace(/[^A-Za-z]/g, '');
    const first = (letters[0] ?? 'F').toUpperCase();
    const seconds = [...letters.slice(1).toLowerCase(), ...'123456789abcdefghijklmnopqrstuvwxyz'];
    // Other initials only when 35 factions share this one: a map with that many cannot be drawn anyway.
    const firsts = [first, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
    const code = firsts.flatMap((a) => seconds.map((s) => a + s)).find((c) => !taken.has(c)) ?? '??';
    codes.set(f.id, code);
    taken.add(code);
  }
  codeCache.set(board, codes);
  return codes;
}

/** What an empty cell shows: `@` Capital, `x` no-man's land, `o` other planet, `.` space. */
function terrain(board: Board, i: number, inPlay: ReadonlySet<FactionId> | null): string {
  if (board.isCapital[i]) return '@';
  if (!board.isPlanet[i]) return '.';
  const owner = board.planetOwner[i];
  return inPlay && owner !== undefined && !inPlay.has(owner) ? 'x' : 'o';
}

/** Greedy wrap of legend items into lines of at most `width` characters. */
function packLine(items: string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && line.length + 3 + item.length > width) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line}   ${item}` : `${indent}${item}`;
  }
  if (line) lines.push(line);
  return lines;
}

export function renderBoardMap(units: readonly Unit[], board: Board, opts: BoardMapOptions = {}): string {
  const lang = opts.lang ?? 'en';
  const inPlay = opts.inPlay ? new Set(opts.inPlay) : null;
  const codes = sideCodes(board);
  const at = new Map<number, string>();
  for (const u of units) {
    const i = board.parseCell(u.at);
    // Two units on one cell cannot happen in a sound edict; show it rather than hide one.
    if (i !== null) at.set(i, at.has(i) ? '!!' : (codes.get(u.side) ?? '??'));
  }

  const header = `   ${board.map.columns.map((c) => ` ${c} `).join('')}`.trimEnd();
  const lines = [header];
  for (let r = 0; r < board.rows; r++) {
    let line = String(r + 1).padStart(2, ' ') + ' ';
    for (let c = 0; c < board.cols; c++) {
      const i = board.at(c, r)!;
      line += at.has(i) ? ` ${at.get(i)}` : ` ${terrain(board, i, inPlay)} `;
    }
    lines.push(`${line} ${r + 1}`);
  }
  lines.push(header, '');

  const v = VOCABULARY[lang];
  lines.push(inPlay ? `${v.legendTerrain}   ${v.legendNoMansLand}` : v.legendTerrain);
  // The legend names the factions in play (or all the map's) and any side that has units.
  const present = new Set(units.map((u) => u.side));
  const sides: Side[] = board.factionIds.filter((f) => (inPlay ? inPlay.has(f) : true) || present.has(f));
  sides.push(IMPERIAL);
  const items = sides.map((s) => `${codes.get(s)} ${sideName(board, s, lang)}`);
  lines.push(...packLine(items, 75, ''));
  return `${lines.join('\n')}\n`;
}
