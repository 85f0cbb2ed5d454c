// One mechanism for every text a player reads, in mail and on the web: a catalogue per area,
// `defineTexts({ it: {…}, en: {…} })`. The Italian texts set the shape and the English ones must
// match it exactly: a missing or extra key, or a value of another type than its twin takes, is a
// compile error (test/text/define-texts.types.ts). Texts are functions of typed values, so a
// missing value is a compile error too, and a value is inserted as data: text a player chose (a
// display name) is never read for placeholders. The engine's own words (the edict's vocabulary,
// order and sheet messages) stay in src/adjudicator, which must stay pure and self-contained.
import type { Lang } from '../adjudicator/types.ts';

export type Texts<T> = Readonly<Record<Lang, T>>;

/** The Italian texts' shape with their words forgotten: `'Turno'` is a string, not the type `'Turno'`. */
export type Shape<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends (...args: infer A) => infer R
      ? (...args: A) => Shape<R>
      : T extends object
        ? { [K in keyof T]: Shape<T[K]> }
        : T;

export function defineTexts<T extends object>(texts: { readonly it: T; readonly en: NoInfer<Shape<T>> }): Texts<Shape<T>> {
  return texts as Texts<Shape<T>>;
}

/** One text in both languages at once, for what is stored before its reader is known (a problem). */
export function inBoth<T, R>(texts: Texts<T>, pick: (t: T, lang: Lang) => R): Record<Lang, R> {
  return { it: pick(texts.it, 'it'), en: pick(texts.en, 'en') };
}

/** A mail as a catalogue writes it. */
export interface MailText {
  subject: string;
  text: string;
}

/**
 * `body` is written from the line after its opening backtick, as the mail reads: that first line
 * break is not part of the mail. Mail bodies end lines with LF, whatever a value carried (a
 * reason typed in a form's textarea arrives with CRLF).
 */
export function mail(subject: string, body: string): MailText {
  return { subject: subject.trim(), text: body.replace(/^\n/, '').replace(/\r\n/g, '\n') };
}
