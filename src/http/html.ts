// Pages: every string a user supplied goes through escapeHtml before it reaches one.
import { escapeHtml } from '../text/escape.ts';

export { escapeHtml };

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}
