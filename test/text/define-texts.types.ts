// Catalogues that must not compile (test/text/define-texts.test.ts runs the compiler on this file;
// `tsc` over the project checks it too): each `@ts-expect-error` that is not an error fails both.
import { defineTexts } from '../../src/text/define.ts';

export const good = defineTexts({
  it: { title: 'Turno', turn: (n: number) => `Turno ${n}`, note: (late: boolean) => (late ? 'in ritardo' : ''), nested: { a: 'uno' } },
  en: { title: 'Turn', turn: (n) => `Turn ${n}`, note: (late) => (late ? 'late' : ''), nested: { a: 'one' } },
});

export const bad = [
  // @ts-expect-error a key missing in English
  defineTexts({ it: { a: 'x', b: 'y' }, en: { a: 'x' } }),
  // @ts-expect-error a key only in English
  defineTexts({ it: { a: 'x' }, en: { a: 'x', b: 'y' } }),
  // @ts-expect-error a nested key missing
  defineTexts({ it: { o: { a: 'x', b: 'y' } }, en: { o: { a: 'x' } } }),
  // @ts-expect-error a placeholder of another type
  defineTexts({ it: { f: (n: number) => `${n}` }, en: { f: (n: string) => n } }),
  // @ts-expect-error a placeholder the Italian text is not given
  defineTexts({ it: { f: (n: number) => `${n}` }, en: { f: (n: number, m: number) => `${n}${m}` } }),
  // @ts-expect-error a value the text is not given
  defineTexts({ it: { f: (v: { game: string }) => v.game }, en: { f: (v) => `${v.game} ${v.gameName}` } }),
  // @ts-expect-error a function where the Italian has a string
  defineTexts({ it: { a: 'x' }, en: { a: () => 'x' } }),
  // @ts-expect-error something else than a string as a text
  defineTexts({ it: { f: (n: number) => `${n}` }, en: { f: (n) => n } }),
];

// @ts-expect-error a value missing at the call site
good.en.turn();
// @ts-expect-error a value of another type at the call site
good.it.turn('3');
