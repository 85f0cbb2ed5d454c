// The one HTML escaper and the one `html` tag, for pages, the console and HTML mail alike: an Html
// made anywhere is markup everywhere, never escaped twice. Every string a user supplied goes
// through escapeHtml before it reaches markup. A leaf with no imports, so that the pure edict
// renderer may use it too.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Direction overrides and isolates (U+202A–202E, U+2066–2069) are dropped too: one left open in a
 * name would turn the rest of the line around it, and make a name show as another (D-INPUT-1).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\u202A-\u202E\u2066-\u2069]/g, (c) => ENTITIES[c] ?? '');
}

/** Markup built by the `html` tag or vouched for with `trusted`; anything else is text. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

/** One value as markup: Html as it is, a list item by item, anything else escaped as text. */
export function fragment(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return (v as readonly HtmlValue[]).map(fragment).join('');
  return escapeHtml(String(v as string | number));
}

/** Tagged template: literal parts are markup, interpolations are escaped text (or Html). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += fragment(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup produced by a trusted renderer (the map SVG, which escapes its own text). */
export function trusted(markup: string): Html {
  return new Html(markup);
}
