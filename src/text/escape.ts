// Every string a user supplied goes through escapeHtml before it reaches a page or an HTML mail.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Direction overrides and isolates (U+202A–202E, U+2066–2069) are dropped too: one left open in a
 * name would turn the rest of the line around it, and make a name show as another (D-INPUT-1).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\u202A-\u202E\u2066-\u2069]/g, (c) => ENTITIES[c] ?? '');
}
