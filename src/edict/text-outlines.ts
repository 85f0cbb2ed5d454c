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

/** The cache key of a text: everything that decides its outlines. */
const keyOf = (attrs: Attrs, content: string) => `${attrText(attrs)}>${content}`;

/** What resvg drew for one text, or null when it is not a plain group of paths. */
function plainPaths(body: string): string | null {
  return !body.includes('<text') && !body.includes('url(') ? body : null;
}

/**
 * The outlines of texts not yet cached, all laid out by one resvg call: each call loads the four
 * font files again (~1 ms), so a map's texts seen for the first time (its title, a new count in the
 * legend: a few on every map of a deadline) cost one load between them, not one each. Each text sits
 * in a group of its own, whose id resvg keeps.
 */
function outlineMisses(misses: Map<string, { attrs: Attrs; content: string }>, font: ResvgRenderOptions['font']): void {
  if (misses.size === 0) return;
  const texts = [...misses.values()].map(
    ({ attrs, content }, i) => `<g id="o${i}"><text x="0" y="0"${attrText(attrs)}>${content}</text></g>`,
  );
  const flat = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${texts.join('')}</svg>`, { font }).toString();
  const keys = [...misses.keys()];
  keys.forEach((key, i) => {
    const open = `<g id="o${i}">`;
    const start = flat.indexOf(open);
    // A text that draws nothing (empty) may lose its group: what follows is the next group, any.
    const after = start < 0 ? -1 : flat.indexOf('<g id="o', start + open.length);
    const next = after >= 0 ? after : flat.lastIndexOf('</svg>');
    const body = start < 0 || next < 0 ? null : flat.slice(start + open.length, next).trim();
    // The group's own closing tag ends what lies before the next group.
    const result = body !== null && body.endsWith('</g>') ? plainPaths(body.slice(0, -4).trim()) : null;
    // The oldest entry goes (not all of them): the texts every map shares stay, while a thousand
    // titles and legend lines each seen once pass through.
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, result);
  });
}

/** A plain <text> found in an SVG: where it is, what it says and every attribute it has and inherits. */
interface PlainText {
  start: number;
  end: number;
  x: string;
  y: string;
  attrs: Attrs;
  content: string;
}

/**
 * Every plain <text> of an SVG (no children, no id, only attributes known to this module on it and
 * its groups, numeric x and y), in order.
 */
function plainTexts(svg: string): PlainText[] {
  const stack: Attrs[] = [];
  const found: PlainText[] = [];
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
    const attrs: Attrs = new Map();
    for (const level of stack) for (const [k, v] of level) attrs.set(k, v);
    let plain = true;
    for (const [k, v] of own) {
      if (k === 'x' || k === 'y') continue;
      if (INHERITED.has(k)) attrs.set(k, v);
      else plain = false;
    }
    if (!plain) continue;
    const end = close + '</text>'.length;
    found.push({ start: m.index, end, x, y, attrs, content });
    tags.lastIndex = end;
  }
  return found;
}

/**
 * Lays out, in one resvg call, every text of these SVGs not yet cached: a caller about to convert
 * several documents (an edict's maps in two languages) pays one font load for all of them.
 */
export function outlineTexts(svgs: readonly string[], font: ResvgRenderOptions['font']): void {
  outlineUncached(svgs.flatMap(plainTexts), font);
}

/** The texts among these whose outlines are not cached yet, laid out by one resvg call (outlineMisses). */
function outlineUncached(texts: readonly PlainText[], font: ResvgRenderOptions['font']): void {
  const misses = new Map<string, { attrs: Attrs; content: string }>();
  for (const t of texts) {
    const key = keyOf(t.attrs, t.content);
    if (!cache.has(key)) misses.set(key, t);
  }
  outlineMisses(misses, font);
}

/**
 * The same SVG with every plain <text> (no children, no id, only attributes known to this module
 * on it and its groups) replaced by its outlines. Anything else is left for resvg as it was.
 */
export function textAsPaths(svg: string, font: ResvgRenderOptions['font']): string {
  const texts = plainTexts(svg);
  outlineUncached(texts, font);
  const out: string[] = [];
  let last = 0;
  for (const t of texts) {
    const paths = cache.get(keyOf(t.attrs, t.content));
    if (paths === null || paths === undefined) continue; // not drawable as paths, or dropped from a full cache: resvg draws it
    out.push(svg.slice(last, t.start), `<g transform="translate(${t.x} ${t.y})">${paths}</g>`);
    last = t.end;
  }
  out.push(svg.slice(last));
  return out.join('');
}

/** Forget every outline (tests use it to check that a cold cache draws the same). */
export function clearTextOutlines(): void {
  cache.clear();
}
