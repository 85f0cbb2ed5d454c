// The map of a position or an edict for the pages, drawn once and kept: an edict version never
// changes, and a turn's starting position changes only with an amendment (a new edict version).
// The PNG (about 0.1 s of CPU) is keyed by the SVG's own hash, so it is drawn once per picture.
import { hash } from 'node:crypto';
import type { Board } from '../../adjudicator/map.ts';
import type { Edict, GameState, Lang } from '../../adjudicator/types.ts';
import { describeMap, renderMapPngAsync, renderMapSvg } from '../../edict/index.ts';

const MAX = 64;
const svgs = new Map<string, { svg: string; alt: string }>();
const pngs = new Map<string, Promise<Buffer>>();

function remember<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let v = cache.get(key);
  if (v === undefined) {
    v = make();
    if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, v);
  }
  return v;
}

export interface MapPicture {
  svg: string;
  /** The same position in words (R-EDICT-1), for the page's text alternative. */
  alt: string;
}

/** `idPrefix` keeps ids unique in the page; the input's content is part of the key. */
export function mapPicture(board: Board, input: Edict | GameState, lang: Lang, gameName: string): MapPicture {
  const key = hash('sha1', JSON.stringify([lang, gameName, input]), 'base64url');
  return remember(svgs, key, () => ({
    svg: renderMapSvg(board, input, { lang, gameName, idPrefix: 'sf-map' }),
    alt: describeMap(board, input, lang, gameName),
  }));
}

export function mapPng(svg: string): Promise<Buffer> {
  const key = hash('sha1', svg, 'base64url');
  const png = remember(pngs, key, () => renderMapPngAsync(svg));
  png.catch(() => pngs.delete(key));
  return png;
}
