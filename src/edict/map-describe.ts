// The map in words: the SVG's <desc> and the alt text of the map wherever it is shown, so that a
// player who cannot see the picture reads the same position (every unit, every loss, every flag).
import type { Board } from '../adjudicator/map.ts';
import { sideName } from '../adjudicator/render/vocabulary.ts';
import { IMPERIAL, type Edict, type GameState, type Lang, type Side } from '../adjudicator/types.ts';
import { mapTexts } from '../text/map.ts';
import { mapView, type MapArrow, type MapView } from './map-view.ts';

/** Sides in map order (R-SETUP-1), unknown ids after by id, the Imperial Troops last. */
export function sidesShown(board: Board, view: MapView): Side[] {
  const present = new Set<Side>(view.units.map((u) => u.side));
  const known = board.factionIds.filter((f) => view.factions.includes(f) || present.has(f));
  const unknown = [...present].filter((s) => s !== IMPERIAL && !board.factions.has(s)).sort();
  return [...known, ...unknown, IMPERIAL];
}

/** Factions not in play whose planets are no-man's land (R-SETUP-3). */
export function noMansLandFactions(board: Board, view: MapView): string[] {
  return board.factionIds.filter((f) => !view.factions.includes(f));
}

export function describeView(board: Board, view: MapView, lang: Lang, gameName: string): string {
  const l = mapTexts[lang];
  const name = (s: Side) => sideName(board, s, lang);
  const cellsOf = (s: Side) =>
    view.units
      .filter((u) => u.side === s)
      .map((u) => u.at)
      .sort((a, b) => (board.parseCell(a) ?? 0) - (board.parseCell(b) ?? 0));
  const out = [view.kind === 'edict' ? l.descEdict(gameName, view.turn) : l.descState(gameName, view.turn)];
  out.push(l.descChancellor(view.chancellor && name(view.chancellor)));
  if (view.electionNext) out.push(l.descElection);
  if (view.winners.length) out.push(l.descWinners(view.winners.map(name).join(', ')));
  const units = sidesShown(board, view).map((s) => {
    const cells = cellsOf(s);
    return `${name(s)} (${cells.length}): ${cells.length ? cells.join(' ') : l.descNone}`;
  });
  out.push(`${l.descUnits}: ${units.join('; ')}.`);
  if (view.planets) {
    const counts = view.factions.filter((f) => f in view.planets!).map((f) => `${name(f)} ${view.planets![f]}`);
    if (counts.length) out.push(`${l.descPlanets}: ${counts.join(', ')}.`);
  }
  const o = view.overlay;
  if (o) {
    const cell = (i: number) => board.name(i);
    const list = (label: string, items: string[]) => {
      if (items.length) out.push(`${label}: ${items.join(', ')}.`);
    };
    const arrows = (pred: (a: MapArrow) => boolean, sep: (a: MapArrow) => string) =>
      o.arrows.filter(pred).map((a) => `${cell(a.from)}${sep(a)}${cell(a.to)}`);
    list(
      l.descMoves,
      arrows(
        (a) => a.kind === 'move' && a.end === 'ok',
        () => '-',
      ),
    );
    list(
      l.descJumps,
      arrows(
        (a) => a.kind === 'jump' && a.end === 'ok',
        () => '=',
      ),
    );
    list(
      l.descFailed,
      arrows(
        (a) => a.end === 'failed',
        (a) => (a.kind === 'jump' ? '=' : '-'),
      ),
    );
    const losses = (kind: 'eliminated' | 'destroyed') =>
      o.losses.filter((x) => x.kind === kind).map((x) => `${name(x.side)} ${x.from === undefined ? '' : `${cell(x.from)}=`}${cell(x.at)}`);
    list(l.descDestroyed, losses('destroyed'));
    list(l.descEliminated, losses('eliminated'));
    const contested = new Map(o.contested.map((c) => [c.at, c.candidates]));
    list(
      l.descAdvances,
      o.arrows
        .filter((a) => a.kind === 'advance')
        .map((a) => {
          const c = contested.get(a.to);
          return `${cell(a.from)}→${cell(a.to)}${c ? ` (${l.descContested(c.join(', '))})` : ''}`;
        }),
    );
    list(l.descNew, o.newUnits.map(cell));
  }
  const nml = noMansLandFactions(board, view);
  if (nml.length) out.push(`${l.descNoMansLand} ${nml.map(name).join(', ')}.`);
  return out.join(' ');
}

/** The alt text of the map of an edict or a position (the same text as the SVG's <desc>). */
export function describeMap(board: Board, input: Edict | GameState, lang: Lang, gameName?: string): string {
  return describeView(board, mapView(board, input), lang, gameName ?? input.gameId);
}
