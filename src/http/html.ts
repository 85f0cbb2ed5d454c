// The frame of the few plain pages (status); escaping is src/html.ts's, the one for every page.
import { escapeHtml } from '../html.ts';

export { escapeHtml };

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(title)}</title></head><body>${body}</body></html>`
  );
}
