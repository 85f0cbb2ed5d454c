// Text from players (a subject, a name) printed on an operator's terminal: control characters
// and direction overrides are shown as \uXXXX, never obeyed (an escape sequence could rewrite
// the screen; a right-to-left override could make a line read differently).
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export const printable = (s: string): string => s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** One line: newlines and tabs too are shown, so a field cannot start a line of its own. */
export const printableLine = (s: string): string => printable(s).replace(/[\t\n]/g, (c) => (c === '\t' ? '\\t' : '\\n'));
