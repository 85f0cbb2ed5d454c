// A game's press settings (docs/press.md): set when the game is created, changed by its referees
// (everyone told what changed), validated here with zod like the rest of a game's input
// (src/games/input.ts), and described to players in their language. Pure.
import { z } from 'zod';
import type { Lang } from '../../adjudicator/types.ts';
import { defineTexts } from '../../text/define.ts';

const count = (what: string, min: number, max: number) =>
  z
    .number(`must be a number of ${what}`)
    .int(`must be a whole number of ${what}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const PRESS_MODES = ['off', 'signed', 'anonymous', 'both'] as const;
export const PRESS_OPEN = ['always', 'until-declaration', 'until-deadline'] as const;

/** Each setting's values, without its default: a referee's change names only what it changes. */
const fields = {
  /**
   * Which messages players may send each other: none, signed only (the writer's faction shown),
   * anonymous only, or both (signed unless the message says ANONYMOUS, D-PRESS-3). Messages to
   * the referees are always allowed and always signed (D-PRESS-4).
   */
  mode: z.enum(PRESS_MODES, 'must be off, signed, anonymous or both'),
  /** Messages to one or some factions; false: only messages to everyone. */
  private: z.boolean('must be true or false'),
  /**
   * When players may write to each other: always; until the Chancellor's declaration deadline
   * (the rulebook's order: diplomacy, then the declaration, D-PRESS-5); or until the orders
   * deadline. A closed turn's press opens again with the next turn.
   */
  open: z.enum(PRESS_OPEN, 'must be always, until-declaration or until-deadline'),
  /** What observers (and the public game page) see: the messages to everyone, or nothing. */
  observers: z.enum(['broadcasts', 'nothing'], 'must be broadcasts or nothing'),
  /** Private and group messages published to every player when the game ends, or never. */
  reveal: z.enum(['at-end', 'never'], 'must be at-end or never'),
  /** A message's text, at most, in characters (after quotes and signature are gone). */
  maxChars: count('characters', 200, 50_000),
  /** Messages a player may send in an hour (a reply counts; messages to the referees do not). */
  perHour: count('messages', 1, 1_000),
};

export const pressSettingsInput = z.object({
  mode: fields.mode.default('both'),
  private: fields.private.default(true),
  open: fields.open.default('always'),
  observers: fields.observers.default('nothing'),
  reveal: fields.reveal.default('never'),
  maxChars: fields.maxChars.default(8_000),
  perHour: fields.perHour.default(20),
});
export type PressSettingsInput = z.input<typeof pressSettingsInput>;
export type PressSettings = z.output<typeof pressSettingsInput>;

/** A referee's change: any of the settings, the others kept (no defaults here, or a change would reset them). */
export const pressSettingsPatch = z.object(fields).partial();
export type PressSettingsPatch = z.input<typeof pressSettingsPatch>;

export const DEFAULT_PRESS_SETTINGS: PressSettings = pressSettingsInput.parse({});

/** Reads stored or typed settings; a missing field takes its default (games created before press existed). */
export function pressSettingsOf(value: unknown): PressSettings {
  return pressSettingsInput.parse(value ?? {});
}

/** The settings with a referee's change applied, and which settings it changed (for the mail to every player). */
export function applyPressPatch(
  current: PressSettings,
  patch: PressSettingsPatch,
): { settings: PressSettings; changed: (keyof PressSettings)[] } {
  const parsed = pressSettingsPatch.parse(patch);
  const settings = pressSettingsInput.parse({
    ...current,
    ...Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)),
  });
  const changed = (Object.keys(settings) as (keyof PressSettings)[]).filter((k) => settings[k] !== current[k]);
  return { settings, changed };
}

export const pressSettingTexts = defineTexts({
  it: {
    title: 'Messaggi tra giocatori',
    mode: {
      label: 'Messaggi',
      off: 'nessun messaggio tra giocatori (solo agli arbitri)',
      signed: 'solo firmati: chi riceve vede la fazione che scrive',
      anonymous: 'solo anonimi: chi riceve non sa chi scrive (gli arbitri sì)',
      both: 'firmati, oppure anonimi se il messaggio dice ANONIMO',
    },
    private: { label: 'Destinatari', true: 'a una o più fazioni, oppure a tutti', false: 'solo a tutti' },
    open: {
      label: 'Quando',
      always: 'sempre',
      'until-declaration': 'fino alla scadenza della dichiarazione del Cancelliere; si riapre con il turno successivo',
      'until-deadline': 'fino alla scadenza degli ordini; si riapre con il turno successivo',
    },
    observers: { label: 'Osservatori e pagina pubblica', broadcasts: 'vedono i messaggi a tutti', nothing: 'non vedono alcun messaggio' },
    reveal: {
      label: 'A fine partita',
      'at-end': 'tutti i messaggi privati vengono resi noti a tutti i giocatori',
      never: 'i messaggi privati restano privati',
    },
    maxChars: (n: number) => `Lunghezza massima: ${n} caratteri per messaggio`,
    perHour: (n: number) => `Al massimo ${n} messaggi all'ora`,
    /** The two limits as a change names them (`label: old → new`). */
    limits: {
      maxChars: { label: 'Lunghezza massima', value: (n: number) => `${n} caratteri per messaggio` },
      perHour: { label: "Messaggi all'ora", value: (n: number) => `al massimo ${n}` },
    },
    referee: 'I messaggi agli arbitri sono sempre possibili, e sempre firmati.',
  },
  en: {
    title: 'Messages between players',
    mode: {
      label: 'Messages',
      off: 'no messages between players (only to the referees)',
      signed: 'signed only: readers see the faction that wrote',
      anonymous: 'anonymous only: readers do not know who wrote (the referees do)',
      both: 'signed, or anonymous when the message says ANONYMOUS',
    },
    private: { label: 'To whom', true: 'one or more factions, or everyone', false: 'everyone only' },
    open: {
      label: 'When',
      always: 'always',
      'until-declaration': "until the Chancellor's declaration deadline; open again with the next turn",
      'until-deadline': 'until the orders deadline; open again with the next turn',
    },
    observers: { label: 'Observers and the public page', broadcasts: 'see the messages to everyone', nothing: 'see no messages' },
    reveal: {
      label: 'When the game ends',
      'at-end': 'every private message is shown to every player',
      never: 'private messages stay private',
    },
    maxChars: (n: number) => `At most ${n} characters per message`,
    perHour: (n: number) => `At most ${n} messages an hour`,
    limits: {
      maxChars: { label: 'Length of a message', value: (n: number) => `at most ${n} characters` },
      perHour: { label: 'Messages an hour', value: (n: number) => `at most ${n}` },
    },
    referee: 'Messages to the referees are always allowed, and always signed.',
  },
});

/** The settings as players read them (welcome, HELP, the game page): one line each, in order. */
export function describePressSettings(s: PressSettings, lang: Lang): string[] {
  const t = pressSettingTexts[lang];
  if (s.mode === 'off') return [`${t.mode.label}: ${t.mode.off}`, t.referee];
  return [
    `${t.mode.label}: ${t.mode[s.mode]}`,
    `${t.private.label}: ${s.private ? t.private.true : t.private.false}`,
    `${t.open.label}: ${t.open[s.open]}`,
    `${t.observers.label}: ${t.observers[s.observers]}`,
    `${t.reveal.label}: ${t.reveal[s.reveal]}`,
    t.maxChars(s.maxChars),
    t.perHour(s.perHour),
    t.referee,
  ];
}

/** One setting as a change names it: its label and its value, in the words of describePressSettings. */
function settingWords(key: keyof PressSettings, s: PressSettings, lang: Lang): { label: string; value: string } {
  const t = pressSettingTexts[lang];
  switch (key) {
    case 'mode':
      return { label: t.mode.label, value: t.mode[s.mode] };
    case 'private':
      return { label: t.private.label, value: s.private ? t.private.true : t.private.false };
    case 'open':
      return { label: t.open.label, value: t.open[s.open] };
    case 'observers':
      return { label: t.observers.label, value: t.observers[s.observers] };
    case 'reveal':
      return { label: t.reveal.label, value: t.reveal[s.reveal] };
    case 'maxChars':
      return { label: t.limits.maxChars.label, value: t.limits.maxChars.value(s.maxChars) };
    case 'perHour':
      return { label: t.limits.perHour.label, value: t.limits.perHour.value(s.perHour) };
  }
}

/** What a referee's change changed, one line a setting: `Messages: old → new` (the mail to every player). */
export function describePressChange(
  from: PressSettings,
  to: PressSettings,
  changed: readonly (keyof PressSettings)[],
  lang: Lang,
): string[] {
  return changed.map((k) => {
    const a = settingWords(k, from, lang);
    return `${a.label}: ${a.value} → ${settingWords(k, to, lang).value}`;
  });
}
