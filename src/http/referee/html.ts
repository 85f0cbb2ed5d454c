// HTML for the console, built so that nothing a user supplied can reach a page unescaped: the
// `html` tag escapes every value it is given unless that value is itself Html (made by the tag).
// Page frames come from templates/referee/*.html, filled with Html values only.
import { escapeHtml } from '../html.ts';
import { refereeTemplate } from '../../referee/mail-texts.ts';
import { render } from '../../templates.ts';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Value = Html | string | number | null | undefined | readonly Value[];

function piece(v: Value): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return (v as readonly Value[]).map(piece).join('');
  return escapeHtml(String(v as string | number));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Markup we made ourselves (the map renderer's SVG, which escapes its own text). */
export const trusted = (markup: string): Html => new Html(markup);

/** templates/referee/<name>.html with Html values: render() never expands a value, so none can inject a placeholder. */
export function fromTemplate(name: string, values: Readonly<Record<string, Html>>): Html {
  const strings = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.value]));
  return new Html(render(refereeTemplate(`${name}.html`), strings, `referee/${name}.html`));
}

export function layout(title: string, account: string | null, body: Html, csrf: string | null): string {
  const accountHtml =
    account && csrf
      ? html`<form class="inline" method="post" action="/referee/logout"><input type="hidden" name="_csrf" value="${csrf}">${account} <button type="submit">Log out</button></form>`
      : html``;
  return fromTemplate('layout', { title: html`${title}`, account: accountHtml, body }).value;
}

export const when = (d: Date | null | undefined): string => (d ? d.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : '—');
