// Text laid out once, drawn many times. resvg spends most of a map's PNG laying out its ~200 short
// texts (shaping each with the font), yet nearly all of them — column letters, row numbers, side
// codes, planet names, legend words — are the same on every map. So before rendering, each plain
// <text> is replaced by its outlines, cached by everything that decides them: the same paths
// resvg would draw (it turns text into paths itself), at about half the CPU per map.
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';

/** Attributes that shape or paint a text and that it may inherit: the cache key holds them all. */
const INHERITED = new Set([
  'font-family',
  'font-size',
  'font-weight',
  'font-stretch',
  'font-style',
  'text-anchor',
  'letter-spacing',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-linejoin',
  'stroke-opacity',
  'paint-order',
]);
/** Attributes of an element that do not reach its children's text (and any `data-…`, which names a mark). */
const LOCAL = new Set([
  'x',
  'y',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'xmlns',
  'role',
  'lang',
  'id',
  'aria-labelledby',
  'aria-describedby',
  'd',
  'points',
  'cx',
  'cy',
  'r',
  'transform',
  'patternUnits',
  'patternTransform',
]);

const MAX_ENTRIES = 4000;
const cache = new Map<string, string | null>();

type Attrs = Map<string, string>;

/** `a="1" b="2"` as a map; null for anything else (single quotes, bare words…): left alone. */
function parseAttrs(text: string): Attrs | null {
  const out: Attrs = new Map();
  const attr = /\s*([a-zA-Z:-]+)="([^"]*)"/y;
  let at = 0;
  for (let m = attr.exec(text); m !== null; m = attr.exec(text)) {
    out.set(m[1]!, m[2]!);
    at = attr.lastIndex;
  }
  const rest = text.slice(at).trim();
  return rest === '' || rest === '/' ? out : null;
}

const attrText = (a: Attrs) => [...a].map(([k, v]) => ` ${k}="${v}"`).join('');

/** The outlines of one text at (0, 0), or null when resvg's output is not a plain group of paths. */
function outline(attrs: Attrs, content: string, font: ResvgRenderOptions['font']): string | null {
  const key = `${attrText(attrs)}>${content}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const mini = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="0" y="0"${attrText(attrs)}>${content}</text></svg>`;
  const flat = new Resvg(mini, { font }).toString();
  const start = flat.indexOf('<defs/>');
  const end = flat.lastIndexOf('</svg>');
  const body = start < 0 || end < 0 ? null : flat.slice(start + 7, end).trim();
  const result = body !== null && !body.includes('<text') && !body.includes('url(') ? body : null;
  // The oldest entry goes (not all of them): the texts every map shares stay, while a thousand
  // titles and legend lines each seen once pass through.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/**
 * The same SVG with every plain <text> (no children, no id, only attributes known to this module
 * on it and its groups) replaced by its outlines. Anything else is left for resvg as it was.
 */
export function textAsPaths(svg: string, font: ResvgRenderOptions['font']): string {
  const stack: Attrs[] = [];
  const out: string[] = [];
  let last = 0;
  let broken = false; // an element this module does not follow: stop inheriting, convert nothing under it
  const tags = /<(\/?)([a-zA-Z]+)([^>]*)>/g;
  for (let m = tags.exec(svg); m !== null; m = tags.exec(svg)) {
    const [, closing, name, rawAttrs] = m as unknown as [string, string, string, string];
    const selfClosing = rawAttrs.endsWith('/');
    if (name === 'svg' || name === 'g') {
      if (closing) stack.pop();
      else if (!selfClosing) {
        const attrs = parseAttrs(rawAttrs);
        const kept: Attrs = new Map();
        for (const [k, v] of attrs ?? []) if (INHERITED.has(k)) kept.set(k, v);
        if (!attrs || [...attrs.keys()].some((k) => !INHERITED.has(k) && !LOCAL.has(k) && !k.startsWith('data-'))) broken = true;
        stack.push(kept);
      }
      continue;
    }
    if (name !== 'text' || closing || selfClosing || broken) continue;
    const close = svg.indexOf('</text>', tags.lastIndex);
    const content = close < 0 ? '' : svg.slice(tags.lastIndex, close);
    const own = parseAttrs(rawAttrs);
    if (close < 0 || content.includes('<') || !own) continue;
    const x = own.get('x') ?? '0';
    const y = own.get('y') ?? '0';
    if (!/^-?[\d.]+$/.test(x) || !/^-?[\d.]+$/.test(y)) continue;
    const effective: Attrs = new Map();
    for (const level of stack) for (const [k, v] of level) effective.set(k, v);
    let plain = true;
    for (const [k, v] of own) {
      if (k === 'x' || k === 'y') continue;
      if (INHERITED.has(k)) effective.set(k, v);
      else plain = false;
    }
    const paths = plain ? outline(effective, content, font) : null;
    if (paths === null) continue;
    out.push(svg.slice(last, m.index), `<g transform="translate(${x} ${y})">${paths}</g>`);
    last = close + '</text>'.length;
    tags.lastIndex = last;
  }
  out.push(svg.slice(last));
  return out.join('');
}

/** Forget every outline (tests use it to check that a cold cache draws the same). */
export function clearTextOutlines(): void {
  cache.clear();
}
