// What a player is told about an order the engine will not carry out, in both languages.
import type { OrderOutcome, Problem } from './types.ts';

type Text = (o: OrderOutcome) => string;
const table: Record<string, { it: Text; en: Text }> = {
  'off-board': {
    it: (o) => `${o.order}: una casella è fuori dalla mappa; l'unità resta ferma.`,
    en: (o) => `${o.order}: a cell is off the board; the unit holds.`,
  },
  'no-unit': {
    it: (o) => `${o.order}: non hai nessuna unità in quella casella; ordine non applicato.`,
    en: (o) => `${o.order}: you have no unit on that cell; order not applied.`,
  },
  'not-your-unit': {
    it: (o) => `${o.order}: quell'unità non è tua; ordine non applicato.`,
    en: (o) => `${o.order}: that unit is not yours; order not applied.`,
  },
  superseded: {
    it: (o) => `${o.order}: sostituito da un ordine successivo per la stessa unità (vale l'ultimo).`,
    en: (o) => `${o.order}: replaced by a later order for the same unit (the last one counts).`,
  },
  'turn-1': {
    it: (o) => `${o.order}: nel primo turno si vota soltanto; nessuna unità si muove.`,
    en: (o) => `${o.order}: turn 1 is only the election; no unit moves.`,
  },
  'not-adjacent': {
    it: (o) => `${o.order}: la casella d'arrivo non è adiacente; l'unità resta ferma.`,
    en: (o) => `${o.order}: the target cell is not adjacent; the unit holds.`,
  },
  'no-mans-land': {
    it: (o) => `${o.order}: terra di nessuno, intransitabile; l'unità resta ferma.`,
    en: (o) => `${o.order}: no-man's land cannot be entered; the unit holds.`,
  },
  'too-far': {
    it: (o) => `${o.order}: l'iperspazio arriva al massimo a 4 caselle; l'unità resta ferma.`,
    en: (o) => `${o.order}: a hyperspace jump reaches at most 4 cells; the unit holds.`,
  },
  'same-cell': {
    it: (o) => `${o.order}: un salto nell'iperspazio deve lasciare la casella; l'unità resta ferma.`,
    en: (o) => `${o.order}: a hyperspace jump must leave the cell; the unit holds.`,
  },
  'not-on-capital': {
    it: (o) => `${o.order}: la politica si fa solo dalla Capitale (N9, O9, N10, O10); l'unità resta ferma.`,
    en: (o) => `${o.order}: politics only from the Capital (N9, O9, N10, O10); the unit holds.`,
  },
};

/** The problem to report for an order that will not be carried out, or null for a good order. */
export function orderProblem(o: OrderOutcome): Problem | null {
  if (o.result !== 'invalid' && o.result !== 'ignored' && o.result !== 'superseded') return null;
  const reason = o.reason ?? 'invalid';
  const m = table[reason];
  const message = m
    ? { it: m.it(o), en: m.en(o) }
    : { it: `${o.order}: ordine non valido (${o.rule}).`, en: `${o.order}: invalid order (${o.rule}).` };
  return { line: o.line, code: `order-${reason}`, rule: o.rule, message, text: o.order };
}
