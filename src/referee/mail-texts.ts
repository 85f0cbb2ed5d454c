// Mail the referee's actions send, from templates/referee/<name>.<lang>.txt (the same format as
// the other mail templates: a Subject line, a blank line, the body; see src/templates.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Lang } from '../adjudicator/types.ts';
import { render, TemplateError, type RenderedMail } from '../templates.ts';

const dir = new URL('../../templates/referee/', import.meta.url);
const cache = new Map<string, string>();

export function refereeTemplate(file: string): string {
  if (!/^[a-z][a-z0-9-]*\.[a-z]+(\.[a-z]+)?$/.test(file)) throw new TemplateError(`bad template name ${JSON.stringify(file)}`);
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(fileURLToPath(new URL(file, dir)), 'utf8');
    cache.set(file, text);
  }
  return text;
}

export function refereeMail(name: string, lang: Lang, values: Readonly<Record<string, string | number>>): RenderedMail {
  const what = `referee/${name}.${lang}.txt`;
  const template = refereeTemplate(`${name}.${lang}.txt`);
  const m = /^Subject: ?(.*)\r?\n\r?\n/.exec(template);
  if (!m) throw new TemplateError(`${what}: must start with a "Subject:" line and a blank line`);
  return { subject: render(m[1]!, values, what).trim(), text: render(template.slice(m[0].length), values, what).replace(/\r\n/g, '\n') };
}
