// Every problem the sheet parser reports, in one table keyed by code (STYLE: one table of codes),
// each in Italian and English and written for the player: what was read, what it means for their
// turn, and how to write it instead. The reply quotes these with the line number first.
import type { Problem, RuleId } from './types.ts';

/** What a message needs to know about the board: its span and the letters it skips (R-BOARD-1). */
export interface BoardSpan {
  first: string;
  last: string;
  skipped: string[];
}

/** A substitution made while reading: the character found (as shown to the player) and what it became. */
export interface Substitution {
  from: string;
  to: string;
}

export interface SheetMessageArgs {
  'not-understood': { text: string; trailing: boolean };
  'text-ignored': { text: string };
  'unknown-faction': { name: string; known: { it: string[]; en: string[] }; in: 'hostility' | 'vote' };
  'vote-imperial': { name: string };
  'vote-empty': Record<string, never>;
  'vote-several': { text: string };
  'off-board': { order: string; cells: string[]; span: BoardSpan };
  'eliminate-not-cell': { text: string };
  'normalised-dash': { subs: Substitution[] };
  'normalised-symbol': { subs: Substitution[] };
  'normalised-space': { subs: Substitution[] };
  'normalised-zero-width': { subs: Substitution[] };
}
export type SheetProblemCode = keyof SheetMessageArgs;

type Text = { it: string; en: string };

/** Quote what the player wrote, cut short so that a runaway line does not flood the reply. */
function quote(text: string): string {
  // Slice before splitting into code points: a line may be megabytes long.
  const chars = Array.from(text.slice(0, 122));
  return chars.length > 60 ? `'${chars.slice(0, 60).join('')}…'` : `'${text}'`;
}

const list = (xs: string[], and: string) => (xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} ${and} ${xs[xs.length - 1]}`);
const pairs = (subs: Substitution[], as: string) => subs.map((s) => `'${s.from}' ${as} '${s.to}'`).join(', ');
const codes = (subs: Substitution[]) => subs.map((s) => s.from).join(', ');
const HOW = {
  it: 'Gli ordini si scrivono così: B2-C3 (movimento), B2=F6 (iperspazio), N9# (politica); le ostilità con H: Sith, Hutt.',
  en: 'Orders are written like this: B2-C3 (move), B2=F6 (hyperspace), N9# (politics); hostility as H: Sith, Hutt.',
};

const MESSAGES: { [C in SheetProblemCode]: (a: SheetMessageArgs[C]) => Text } = {
  'not-understood': (a) => ({
    it:
      `${quote(a.text)} non è un ordine che capisco: ho ignorato la riga. ` +
      (a.trailing ? 'Sulla stessa riga degli ordini può esserci solo un altro ordine; i commenti vanno su una riga a parte. ' : '') +
      HOW.it,
    en:
      `${quote(a.text)} is not an order I understand: I ignored the line. ` +
      (a.trailing ? 'Only other orders may share a line with an order; put comments on a line of their own. ' : '') +
      HOW.en,
  }),
  'text-ignored': (a) => ({
    it: `${quote(a.text)}: testo ignorato, non è un ordine. Non compare nell'editto né altrove in pubblico.`,
    en: `${quote(a.text)}: text ignored, not an order. It is not shown in the edict or anywhere public.`,
  }),
  'unknown-faction': (a) =>
    a.in === 'hostility'
      ? {
          it: `non conosco la fazione ${quote(a.name)}, quindi non conta; il resto della riga vale. Le fazioni sono: ${a.known.it.join(', ')}.`,
          en: `I don't know the faction ${quote(a.name)}, so it doesn't count; the rest of the line stands. The factions are: ${a.known.en.join(', ')}.`,
        }
      : {
          it: `non conosco la fazione ${quote(a.name)}: questa riga V: non esprime nessun voto, e vale l'ultima riga V:. Le fazioni sono: ${a.known.it.join(', ')}.`,
          en: `I don't know the faction ${quote(a.name)}: this V: line casts no vote, and the last V: line is the one that counts. The factions are: ${a.known.en.join(', ')}.`,
        },
  'vote-imperial': (a) => ({
    it: `non si vota per gli Imperiali (${quote(a.name)}): questa riga V: non esprime nessun voto. Vota una fazione in gioco, per esempio V: Sith.`,
    en: `you cannot vote for the Imperial Troops (${quote(a.name)}): this V: line casts no vote. Vote for a faction in play, for example V: Sith.`,
  }),
  'vote-empty': () => ({
    it: 'la riga V: non nomina nessuna fazione: nessun voto è espresso. Scrivi per esempio V: Sith.',
    en: 'the V: line names no faction: no vote is cast. Write for example V: Sith.',
  }),
  'vote-several': (a) => ({
    it: `tutti i tuoi voti vanno a una sola fazione, qui ne nomini più di una (${quote(a.text)}): nessun voto è espresso.`,
    en: `all your votes go to one faction, and this names more than one (${quote(a.text)}): no vote is cast.`,
  }),
  'off-board': (a) => {
    const skipped = a.span.skipped;
    const it = `va da ${a.span.first} a ${a.span.last}${skipped.length ? `, senza le colonne ${list(skipped, 'e')}` : ''}`;
    const en = `it runs from ${a.span.first} to ${a.span.last}${skipped.length ? `, without columns ${list(skipped, 'and')}` : ''}`;
    const one = a.cells.length === 1;
    const where = {
      it: `${list(a.cells, 'e')} ${one ? 'non è' : 'non sono'} sulla plancia (${it})`,
      en: `${list(a.cells, 'and')} ${one ? 'is' : 'are'} not on the board (${en})`,
    };
    return a.order.startsWith('E:')
      ? {
          it: `${where.it}: la riga ${a.order} non avrà effetto.`,
          en: `${where.en}: the line ${a.order} will have no effect.`,
        }
      : {
          it: `${where.it}: l'ordine ${a.order} non è valido e l'unità resta ferma.`,
          en: `${where.en}: the order ${a.order} is invalid and the unit holds.`,
        };
  },
  'eliminate-not-cell': (a) => ({
    it: `E: vuole una casella della Capitale, per esempio E: N9, e ${quote(a.text)} non lo è: la riga non ha effetto, e vale l'ultima riga E:.`,
    en: `E: wants a Capital cell, for example E: N9, and ${quote(a.text)} is not one: the line has no effect, and the last E: line is the one that counts.`,
  }),
  'normalised-dash': (a) => ({
    it: `ho letto ${pairs(a.subs, 'come')} (qui e nel resto del foglio).`,
    en: `read ${pairs(a.subs, 'as')} (here and in the rest of the sheet).`,
  }),
  'normalised-symbol': (a) => ({
    it: `ho letto ${pairs(a.subs, 'come')} (qui e nel resto del foglio).`,
    en: `read ${pairs(a.subs, 'as')} (here and in the rest of the sheet).`,
  }),
  'normalised-space': (a) => ({
    it: `ho letto gli spazi speciali (${codes(a.subs)}) come spazi normali (qui e nel resto del foglio).`,
    en: `read special spaces (${codes(a.subs)}) as ordinary spaces (here and in the rest of the sheet).`,
  }),
  'normalised-zero-width': (a) => ({
    it: `ho tolto caratteri invisibili (${codes(a.subs)}) (qui e nel resto del foglio).`,
    en: `removed invisible characters (${codes(a.subs)}) (here and in the rest of the sheet).`,
  }),
};

/** The message for a code, with the line number in front: `Riga 4: …` / `Line 4: …`. */
function sheetMessage<C extends SheetProblemCode>(code: C, line: number, args: SheetMessageArgs[C]): Text {
  const m = MESSAGES[code](args);
  return { it: `Riga ${line}: ${m.it}`, en: `Line ${line}: ${m.en}` };
}

/** A Problem for the parsed sheet. */
export function sheetProblem<C extends SheetProblemCode>(
  code: C,
  line: number,
  args: SheetMessageArgs[C],
  extra: { rule?: RuleId; text?: string } = {},
): Problem {
  const p: Problem = { line, code, message: sheetMessage(code, line, args) };
  if (extra.rule !== undefined) p.rule = extra.rule;
  if (extra.text !== undefined) p.text = extra.text;
  return p;
}
