// Problems the engine finds in a sheet once it knows the position (the parser finds the rest).
import type { Problem } from './types.ts';

const messages = {
  'self-hostility': {
    rule: 'R-ORD-1',
    it: (n: string) => `Non puoi essere ostile alla tua stessa fazione (${n}): ignorato.`,
    en: (n: string) => `You cannot be hostile to your own faction (${n}): ignored.`,
  },
  'chancellor-imperial-hostility': {
    rule: 'R-ORD-1',
    it: () => `Il Cancelliere non può essere ostile alle Truppe Imperiali: ignorato.`,
    en: () => `The Chancellor cannot be hostile to the Imperial Troops: ignored.`,
  },
  'hostility-not-in-play': {
    rule: 'R-ORD-1',
    it: (n: string) => `${n} non è in gioco: ostilità ignorata.`,
    en: (n: string) => `${n} is not in play: hostility ignored.`,
  },
  'vote-not-election': {
    rule: 'R-ORD-3',
    it: () => `Questo non è un turno di elezioni: il voto è ignorato.`,
    en: () => `This is not an election turn: the vote is ignored.`,
  },
  'vote-not-in-play': {
    rule: 'R-ORD-3',
    it: (n: string) => `${n} non è in gioco: il voto non è espresso.`,
    en: (n: string) => `${n} is not in play: no vote is cast.`,
  },
} as const;

export type EngineProblemCode = keyof typeof messages;

export function engineProblem(code: EngineProblemCode, line: number, name = ''): Problem {
  const m = messages[code];
  return { line, code, rule: m.rule, message: { it: m.it(name), en: m.en(name) } };
}
