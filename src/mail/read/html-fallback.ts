// The plain way to read HTML, for what html-to-text cannot take: tags stripped in one pass, a
// line break where a block starts or ends, the common entities decoded. It loses quote marks, so
// it is kept for HTML no mail client writes (nesting thousands deep, which costs
// htmlparser2 time in proportion to the depth at every tag).

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
// Elements htmlparser2 closes by itself when the next one opens: they do not deepen the stack.
const SELF_CLOSING = new Set(['p', 'li', 'tr', 'td', 'th', 'dt', 'dd', 'option', 'optgroup', 'tbody', 'thead', 'tfoot']);

/** The parser's stack may be this many times the length of the HTML, summed over its tags. */
export const MAX_NESTING_COST_PER_CHAR = 20;

/** The sum, over every opening tag, of the number of elements open around it (an upper bound). */
export function nestingCost(html: string): number {
  let depth = 0;
  let cost = 0;
  const name = /<(\/?)([a-zA-Z][a-zA-Z0-9]{0,15})/y;
  for (let i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) {
    name.lastIndex = i;
    const m = name.exec(html);
    if (!m) continue;
    const tag = m[2]!.toLowerCase();
    if (VOID.has(tag) || SELF_CLOSING.has(tag)) continue;
    if (m[1]) depth = Math.max(0, depth - 1);
    else cost += depth++;
  }
  return cost;
}

const BLOCK_TAG = /^<\/?(?:p|div|br|li|tr|hr|blockquote|table|ul|ol|h[1-6]|pre|center|dl|dt|dd|address)(?![a-z0-9])/;

/** For stripTags: a line break for block elements and <br>, a space for the rest. */
export const lineBreakAtBlocks = (tag: string): string => (BLOCK_TAG.test(tag) ? '\n' : ' ');

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** `&nbsp;`, `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric references. */
export function decodeCommonEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,6}));/g, (all, dec?: string, hex?: string, word?: string) => {
    if (word) return ENTITIES[word.toLowerCase()] ?? all;
    const code = dec ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/**
 * What `/<!--[\s\S]*?-->|<(script|style|head)\b[\s\S]*?<\/\1\s*>|<[^>]*>/gi` replaced (by `separator`),
 * in one pass: the expression rescanned the rest of the text at every unclosed `<` or `<!--`.
 * Once a search for a closing mark fails it fails for every later start too, so it is not redone.
 */
export function stripTags(html: string, separator: (tag: string) => string = () => ' '): string {
  // ASCII only: toLowerCase() may change the length of other characters, and so the offsets.
  const lower = html.replace(/[A-Z]+/g, (c) => c.toLowerCase());
  const unclosed = new Set<string>(); // closing marks known to be absent from here on
  const find = (mark: string, from: number): number => {
    if (unclosed.has(mark)) return -1;
    const at = lower.indexOf(mark, from);
    if (at < 0) unclosed.add(mark);
    return at;
  };
  /** End of `</name\s*>` at or after `from`, or -1. */
  const closeOf = (name: string, from: number): number => {
    for (let at = find(`</${name}`, from); at >= 0; at = find(`</${name}`, at + 1)) {
      let k = at + name.length + 2;
      while (k < lower.length && /\s/.test(lower[k]!)) k++;
      if (lower[k] === '>') return k + 1;
    }
    return -1;
  };
  let out = '';
  let from = 0;
  for (let i = lower.indexOf('<'); i >= 0; i = lower.indexOf('<', i + 1)) {
    let end = -1;
    if (lower.startsWith('<!--', i)) {
      const close = find('-->', i + 4);
      if (close >= 0) end = close + 3;
    }
    const element = end < 0 ? /^<(script|style|head)(?![\w])/.exec(lower.slice(i, i + 8)) : null;
    if (element) end = closeOf(element[1]!, i + 1);
    if (end < 0) {
      const close = find('>', i + 1);
      if (close < 0) break; // every later tag would need the same `>`: the rest is text
      end = close + 1;
    }
    out += html.slice(from, i) + separator(lower.slice(i, Math.min(end, i + 12)));
    from = end;
    i = end - 1;
  }
  return out + html.slice(from);
}
