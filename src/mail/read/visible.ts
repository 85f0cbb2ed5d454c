// Text read from a stranger's headers (Subject, the display name) goes back out in replies and
// pages. Control characters could break a line or a header there, and right-to-left and other
// invisible formatting characters can make a reply's subject read as something it is not (a
// "Trojan Source"-style reordering). They are escaped where they are read, visibly, so the
// referee still sees that they were there.

// C0 and C1 controls and DEL; bidi embeddings, overrides, isolates and marks; the line and
// paragraph separators; zero-width characters that hide text; and the BOM.
// eslint-disable-next-line no-control-regex -- the control characters are exactly what is matched
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** The text with every control or formatting character written as `[U+XXXX]`; tabs become spaces. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => (c === '\t' ? ' ' : `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`));
}

/** A Message-ID-like token: printable ASCII, no spaces (RFC 5322 msg-id), or null. */
export function messageIdOrNull(id: string | null): string | null {
  return id !== null && /^[\x21-\x7e]{1,998}$/.test(id) ? id : null;
}
