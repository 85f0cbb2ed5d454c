// planer ships no types; only what reply-readers.test.ts uses.
declare module 'planer' {
  /** The new text of a plain-text reply, quotations removed (a port of mailgun/talon). */
  export function extractFromPlain(body: string): string;
  const planer: { extractFromPlain: typeof extractFromPlain };
  export default planer;
}
