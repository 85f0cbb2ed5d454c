// Server-rendered HTML without a template engine: page skeletons live in templates/web/*.html and
// fragments are built with the `html` tag (src/html.ts, the one escaper). Everything interpolated is
// escaped unless it is Html, so a string a user supplied (a game name, a reason) can never become
// markup. `{{name}}` in a template is escaped text; `{{{name}}}` takes Html (or a list, whose text items are still escaped).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fragment, Html, type HtmlValue } from '../../html.ts';

export { html, Html, trusted, type HtmlValue } from '../../html.ts';

export class WebTemplateError extends Error {
  override name = 'WebTemplateError';
}

// Our own files, never attacker input: a plain scan of `{{…}}` and `{{{…}}}`.
const PLACEHOLDER = /\{\{(\{?)\s*([A-Za-z][A-Za-z0-9_]*)\s*\}?\}\}/g;
const dir = new URL('../../../templates/web/', import.meta.url);
const cache = new Map<string, string>();

function load(name: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new WebTemplateError(`bad template name ${JSON.stringify(name)}`);
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(fileURLToPath(new URL(`${name}.html`, dir)), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** templates/web/<name>.html with its placeholders filled; a missing value is an error. */
export function renderTemplate(name: string, values: Readonly<Record<string, HtmlValue>>): Html {
  const out = load(name).replace(PLACEHOLDER, (_, raw: string, key: string) => {
    if (!Object.hasOwn(values, key)) throw new WebTemplateError(`${name}.html: no value for ${key}`);
    const v = values[key]!;
    if (raw && !(v instanceof Html) && !Array.isArray(v)) throw new WebTemplateError(`${name}.html: {{{${key}}}} takes markup, not text`);
    return fragment(v);
  });
  return new Html(out);
}
