// Mail texts live in templates/<name>.<lang>.txt so that they can be read and corrected without
// touching code. `{{name}}` is replaced by a value, once: values are never themselves expanded,
// so text a player chose (a display name) cannot inject placeholders. A placeholder with no value
// is an error, never a silent blank in a mail to a player.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Lang } from './adjudicator/types.ts';

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

export function render(template: string, values: Readonly<Record<string, string | number>>, what = 'template'): string {
  return template.replace(PLACEHOLDER, (_, key: string) => {
    if (!Object.hasOwn(values, key)) throw new TemplateError(`${what}: no value for {{${key}}}`);
    return String(values[key]);
  });
}

const templatesDir = new URL('../templates/', import.meta.url);
const cache = new Map<string, string>();

/** The text of templates/<name>.<lang>.txt, read once. */
export function loadTemplate(name: string, lang: Lang): string {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new TemplateError(`bad template name ${JSON.stringify(name)}`);
  const file = `${name}.${lang}.txt`;
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(fileURLToPath(new URL(file, templatesDir)), 'utf8');
    cache.set(file, text);
  }
  return text;
}

export interface RenderedMail {
  subject: string;
  text: string;
}

/**
 * A mail template starts with a `Subject: …` line and a blank line; the rest is the body.
 * Both are rendered with the same values.
 */
export function renderMail(name: string, lang: Lang, values: Readonly<Record<string, string | number>>): RenderedMail {
  const what = `${name}.${lang}.txt`;
  const template = loadTemplate(name, lang);
  const m = /^Subject: ?(.*)\r?\n\r?\n/.exec(template);
  if (!m) throw new TemplateError(`${what}: must start with a "Subject:" line and a blank line`);
  const body = template.slice(m[0].length);
  return {
    subject: render(m[1]!, values, what).trim(),
    text: render(body, values, what).replace(/\r\n/g, '\n'),
  };
}
