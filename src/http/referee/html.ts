// HTML for the console, built so that nothing a user supplied can reach a page unescaped: the
// `html` tag (src/html.ts, shared with the public pages) escapes every value it is given unless
// that value is itself Html.
// Page frames come from templates/referee/*.html, filled with Html values only.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { html, Html } from '../../html.ts';

export { html, Html, trusted } from '../../html.ts';

const frames = new Map<string, string>();
const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** templates/referee/<name>.html with Html values, each inserted once: none can inject a placeholder. */
export function fromTemplate(name: 'layout' | 'login', values: Readonly<Record<string, Html>>): Html {
  let frame = frames.get(name);
  if (frame === undefined) {
    frame = readFileSync(fileURLToPath(new URL(`../../../templates/referee/${name}.html`, import.meta.url)), 'utf8');
    frames.set(name, frame);
  }
  return new Html(
    frame.replace(PLACEHOLDER, (_, key: string) => {
      if (!Object.hasOwn(values, key)) throw new Error(`referee/${name}.html: no value for {{${key}}}`);
      return values[key]!.value;
    }),
  );
}

export function layout(title: string, account: string | null, body: Html, csrf: string | null): string {
  const accountHtml =
    account && csrf
      ? html`<form class="inline" method="post" action="/referee/logout"><input type="hidden" name="_csrf" value="${csrf}">${account} <a href="/referee/password">Password</a> <button type="submit">Log out</button></form>`
      : html``;
  return fromTemplate('layout', { title: html`${title}`, account: accountHtml, body }).value;
}

export const when = (d: Date | null | undefined): string =>
  d
    ? d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d{3}Z$/, ' UTC')
    : '—';
