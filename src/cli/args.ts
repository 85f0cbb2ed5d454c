// Reading a command line and explaining it. Every command declares its options once (name, value,
// unit, default, what it does) and gets from that its --help and one-line errors in the user's
// words. Hand-written rather than node:util parseArgs, whose messages talk about "ambiguous
// arguments" when a value starts with a dash (`--declare-lead -5`): here an option that takes a
// value always takes the next word, and the value's own check says what is wrong with it.
import { AppError } from '../errors.ts';

interface OptionSpec {
  /** What the value looks like in the help (`<minutes>`); absent for a flag. */
  value?: string;
  help: string;
  /** Shown as "default: …". */
  default?: string;
  required?: boolean;
}

export interface CommandSpec {
  /** `sf game create` */
  name: string;
  summary: string;
  /** Positional arguments in the usage line: `<game> <email>`. */
  args?: string;
  options: Record<string, OptionSpec>;
  /** More lines under the usage (rules, units, what is printed). */
  notes?: string[];
  examples: string[];
}

/** A mistake on the command line, said in one line; the caller adds where to look for help. */
export class UsageError extends AppError {
  override name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

/** Input the command cannot use (a file it cannot read): one line, no pointer to --help. */
export class InputError extends AppError {
  override name = 'InputError';
  constructor(message: string) {
    super('unreadable-input', message);
  }
}

export interface Parsed {
  values: Record<string, string | true>;
  positionals: string[];
  help: boolean;
}

export function parseCommandLine(spec: CommandSpec, args: string[]): Parsed {
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (a === '--help' || a === '-h') {
      help = true;
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(a.startsWith('--') ? 2 : 1, eq === -1 ? undefined : eq);
    const option = Object.hasOwn(spec.options, name) ? spec.options[name]! : undefined;
    if (!option || !a.startsWith('--')) throw new UsageError(`unknown option ${eq === -1 ? a : a.slice(0, eq)}`);
    if (values[name] !== undefined) throw new UsageError(`--${name} is given twice`);
    if (!option.value) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
      continue;
    }
    const value = eq !== -1 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value: ${option.value}`);
    values[name] = value;
  }
  if (!help)
    for (const [name, o] of Object.entries(spec.options))
      if (o.required && values[name] === undefined) throw new UsageError(`--${name} ${o.value ?? ''} is required`.replace('  ', ' '));
  return { values, positionals, help };
}

/** The value of a string option (flags are never passed here). */
export const str = (p: Parsed, name: string): string | undefined => {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
};

/** `a, b,,c` → [a, b, c] */
export const list = (v: string | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** A whole number, said in the option's unit: `--dispute must be a whole number of minutes, not "-5"`. */
export function wholeNumber(name: string, unit: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  if (!/^\d{1,9}$/.test(t)) throw new UsageError(`--${name} must be a whole number of ${unit} (0 or more), not ${JSON.stringify(v)}`);
  return Number(t);
}

export function helpText(spec: CommandSpec): string {
  const opts = Object.entries(spec.options);
  const required = opts.filter(([, o]) => o.required).map(([n, o]) => `--${n} ${o.value}`);
  const lines = [
    `${spec.name} — ${spec.summary}`,
    '',
    `usage: ${[spec.name, spec.args, ...required, opts.some(([, o]) => !o.required) ? '[options]' : ''].filter(Boolean).join(' ')}`,
  ];
  if (spec.notes?.length) lines.push('', ...spec.notes);
  const all: Array<[string, OptionSpec]> = [...opts, ['help', { help: 'show this help' }]];
  const heads = all.map(([n, o]) => `  --${n}${o.value ? ` ${o.value}` : ''}`);
  const width = Math.min(32, Math.max(...heads.map((h) => h.length)) + 2);
  lines.push('', 'options:');
  all.forEach(([, o], i) => {
    const head = heads[i]!;
    const text = `${o.help}${o.required ? ' (required)' : ''}${o.default !== undefined ? ` (default: ${o.default})` : ''}`;
    lines.push(head.length < width ? `${head.padEnd(width)}${text}` : `${head}\n${' '.repeat(width)}${text}`);
  });
  lines.push('', spec.examples.length > 1 ? 'examples:' : 'example:', ...spec.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}
