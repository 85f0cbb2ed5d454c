// The press settings on a command line (docs/press.md §3): `sf game create --press-mode …` and
// `sf referee press <game> --mode …` take the same settings, declared and read here once. A value
// outside a list is refused here, naming the flag; the limits (maxChars, perHour) are the settings'
// own schema's to check, and an error about them is said in flag terms by pressFlagOf.
import { OperationError } from '../control/operations.ts';
import { DEFAULT_PRESS_SETTINGS, PRESS_MODES, PRESS_OPEN, type PressSettings, type PressSettingsPatch } from '../games/index.ts';
import { str, UsageError, wholeNumber, type Parsed } from './args.ts';

type Key = keyof PressSettings;

/** Each setting's flag without its prefix, in the settings' order. */
const FLAG: Record<Key, string> = {
  mode: 'mode',
  private: 'private',
  open: 'open',
  observers: 'observers',
  reveal: 'reveal',
  maxChars: 'max-chars',
  perHour: 'per-hour',
};

const CHOICES = {
  mode: PRESS_MODES,
  open: PRESS_OPEN,
  observers: ['broadcasts', 'nothing'],
  reveal: ['at-end', 'never'],
} as const;

const HELP: Record<Key, { value: string; help: string }> = {
  mode: { value: '<off|signed|anonymous|both>', help: 'messages between players: none, signed only, anonymous only, or both' },
  private: { value: '<yes|no>', help: 'messages to some factions (yes), or to everyone only (no)' },
  open: { value: '<always|until-declaration|until-deadline>', help: 'when players may write to each other in a turn (D-PRESS-5)' },
  observers: { value: '<broadcasts|nothing>', help: 'what observers and the public page see of the messages to everyone' },
  reveal: { value: '<at-end|never>', help: 'private messages shown to every player when the game ends (D-PRESS-18)' },
  maxChars: { value: '<characters>', help: 'the longest message, 200 to 50000 characters' },
  perHour: { value: '<messages>', help: 'messages a player may send in an hour, 1 to 1000' },
};

const shownDefault = (k: Key): string => {
  const v = DEFAULT_PRESS_SETTINGS[k];
  return typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
};

/** The options of the settings, `--<prefix>mode` …; with their defaults for a new game. */
export function pressOptions(prefix: string, withDefaults: boolean): Record<string, { value: string; help: string; default?: string }> {
  return Object.fromEntries(
    (Object.keys(FLAG) as Key[]).map((k) => [`${prefix}${FLAG[k]}`, { ...HELP[k], ...(withDefaults ? { default: shownDefault(k) } : {}) }]),
  );
}

function choice<K extends keyof typeof CHOICES>(flag: string, k: K, v: string | undefined): (typeof CHOICES)[K][number] | undefined {
  if (v === undefined) return undefined;
  const t = v.trim().toLowerCase();
  const allowed: readonly string[] = CHOICES[k];
  if (!allowed.includes(t))
    throw new UsageError(`--${flag} must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, not ${JSON.stringify(v)}`);
  return t as (typeof CHOICES)[K][number];
}

function yesNo(flag: string, v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  const t = v.trim().toLowerCase();
  if (t === 'yes') return true;
  if (t === 'no') return false;
  throw new UsageError(`--${flag} must be yes or no, not ${JSON.stringify(v)}`);
}

/** The settings given on the command line; those not given are left out (the default, or unchanged). */
export function readPressFlags(p: Parsed, prefix: string): PressSettingsPatch {
  const f = (k: Key) => `${prefix}${FLAG[k]}`;
  const patch: PressSettingsPatch = {
    mode: choice(f('mode'), 'mode', str(p, f('mode'))),
    private: yesNo(f('private'), str(p, f('private'))),
    open: choice(f('open'), 'open', str(p, f('open'))),
    observers: choice(f('observers'), 'observers', str(p, f('observers'))),
    reveal: choice(f('reveal'), 'reveal', str(p, f('reveal'))),
    maxChars: wholeNumber(f('maxChars'), 'characters', str(p, f('maxChars'))),
    perHour: wholeNumber(f('perHour'), 'messages', str(p, f('perHour'))),
  };
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as PressSettingsPatch;
}

/** `press.maxChars` → `--press-max-chars` (with prefix `press-`); undefined for another field. */
export function pressFlagOf(field: string, prefix: string): string | undefined {
  const [top, sub] = field.split('.');
  return top === 'press' && sub !== undefined && Object.hasOwn(FLAG, sub) ? `--${prefix}${FLAG[sub as Key]}` : undefined;
}

/** Awaits an operation, saying an error about a setting in terms of its flag: `--max-chars: must be at least 200`. */
export async function inPressFlags<T>(answer: Promise<T>, prefix: string): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    const flag = err instanceof OperationError && err.field ? pressFlagOf(err.field, prefix) : undefined;
    if (flag && err instanceof OperationError) {
      const message = err.message.startsWith(`${err.field}: `) ? err.message.slice(err.field!.length + 2) : err.message;
      throw new OperationError(err.code, `${flag}: ${message}`, err.field);
    }
    throw err;
  }
}
