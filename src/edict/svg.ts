// Small helpers for writing SVG by hand: escaping and number formatting. The map is a pure
// function of its input (R-EDICT-2 spirit), so numbers are written with a fixed precision and
// never depend on the host's locale.

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for an element or an attribute value. Characters XML 1.0 forbids (C0 controls other than
 * tab, newline and carriage return, lone surrogates, U+FFFE/U+FFFF) become U+FFFD, so that a
 * hostile game name can never make the document ill-formed.
 */
export function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!).replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}

/** A coordinate with at most two decimals, no trailing zeros, never `-0`. */
export function num(x: number): string {
  const r = Math.round(x * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

/** `x1,y1 x2,y2 …` for polygon points. */
export function points(pts: readonly (readonly [number, number])[]): string {
  return pts.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');
}

/** At most `max` characters (code points), an ellipsis marking the cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** Identifiers in `id=` must stay identifiers whatever the caller passes. */
export function safeId(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_-]/g, '');
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `m${cleaned}`;
}
