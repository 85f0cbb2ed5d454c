// Configuration comes from the environment, read and validated once at start-up into one frozen
// object that is passed down. No NODE_ENV switches: every behaviour has its own variable.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from './errors.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

interface ImapConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  secure: boolean;
  mailbox: string;
  processedMailbox: string;
}

/** PGlite keeps its files in a directory (`memory://` keeps them in memory, for tests). */
export type DatabaseConfig =
  | { kind: 'pglite'; dataDir: string }
  /** `connectRetryMs`: how long the service waits for a server that is not there yet (0: not at all). */
  | { kind: 'postgres'; url: string; connectRetryMs?: number };

export interface Config {
  /** Absolute. */
  dataDir: string;
  database: DatabaseConfig;
  http: { host: string; port: number; publicUrl: string; trustProxy: TrustProxy };
  mail: {
    domain: string;
    /** Private addresses are `<ordersLocalPart>+<secret>@<domain>`. */
    ordersLocalPart: string;
    from: string;
    /** Null: no IMAP polling (mail arrives through the maildir or the CLI). */
    imap: ImapConfig | null;
    /** Null: outgoing mail is written as .eml files to `outboxDir`. */
    smtpUrl: string | null;
    /** DKIM signing of outgoing SMTP mail; null: unsigned. The key is read from the file at start. */
    dkim: { domainName: string; keySelector: string; privateKeyFile: string } | null;
    outboxDir: string;
    maildir: string;
    maxBytes: number;
    replyRateLimitPerHour: number;
    /** OPERATOR_ADDRESS: who settles disputes of a game with no referee (D-PRESS-17); null: they wait for the first referee. */
    operatorAddress: string | null;
  };
  /** A turn closed more than this after its deadline is closed late (LATE_CLOSE_MARGIN_MINUTES). */
  lateCloseMarginMs: number;
  logLevel: LogLevel;
}

/**
 * Whose X-Forwarded-For to believe (Fastify's trustProxy): nobody (false), any proxy (true), so
 * many hops, or the proxies' addresses and networks. Without it every client behind a proxy is
 * the proxy's address, and login attempts of all of them are counted as one client's.
 */
export type TrustProxy = boolean | number | string[];

export class ConfigError extends AppError {
  override name = 'ConfigError';
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super('config', `configuration: ${variable} ${detail}`);
  }
}

type Env = Record<string, string | undefined>;

// Variables whose values must never be echoed in an error message.
const SECRET = new Set(['IMAP_PASSWORD', 'SMTP_URL', 'DATABASE_URL', 'DATABASE_PASSWORD']);

/**
 * Every variable loadConfig reads (a test holds this list to what it reads, and to what
 * docker-compose.yml passes through and the README documents).
 */
export const CONFIG_VARIABLES = [
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_PASSWORD',
  'DATABASE_CONNECT_RETRY_SECONDS',
  'HTTP_HOST',
  'HTTP_PORT',
  'PUBLIC_URL',
  'MAIL_DOMAIN',
  'ORDERS_LOCAL_PART',
  'MAIL_FROM',
  'IMAP_HOST',
  'IMAP_PORT',
  'IMAP_USER',
  'IMAP_PASSWORD',
  'IMAP_SECURE',
  'IMAP_MAILBOX',
  'IMAP_PROCESSED_MAILBOX',
  'SMTP_URL',
  'DKIM_DOMAIN',
  'DKIM_SELECTOR',
  'DKIM_PRIVATE_KEY_FILE',
  'MAILDIR',
  'MAX_MAIL_BYTES',
  'REPLY_RATE_LIMIT_PER_HOUR',
  'OPERATOR_ADDRESS',
  'LOG_LEVEL',
  'LATE_CLOSE_MARGIN_MINUTES',
  'TRUST_PROXY',
] as const;

/** A variable's schema and what it must be, said once for the error message. */
interface Kind<T> {
  schema: z.ZodType<T>;
  must: string;
}
const kind = <T>(schema: z.ZodType<T>, must: string): Kind<T> => ({ schema, must });

const port = kind(z.coerce.number().int().min(1).max(65535), 'must be a port number from 1 to 65535');
const positiveInt = kind(z.coerce.number().int().min(1), 'must be a whole number of at least 1');
const seconds = kind(z.coerce.number().int().min(0).max(86_400), 'must be a whole number of seconds from 0 to 86400');
const hostName = kind(z.string().regex(/^[A-Za-z0-9.-]+$/), 'must be a host name');
const anyText = kind(z.string(), 'must be text');
const bool = kind(z.stringbool(), 'must be true or false');

/** An address, or a network as address/prefix, or one of proxy-addr's names for the private ranges. */
function isProxyAddress(s: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(s)) return true;
  const [ip, prefix, extra] = s.split('/');
  const family = isIP(ip ?? '');
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}
const trustProxy = kind<TrustProxy>(
  z.union([
    z.enum(['true', 'false']).transform((v) => v === 'true'),
    z
      .string()
      .regex(/^\d{1,2}$/)
      .transform(Number),
    z
      .string()
      .transform((v) => v.split(',').map((a) => a.trim()))
      .refine((list) => list.every(isProxyAddress)),
  ]),
  'must be true, false, a number of proxies, or a comma-separated list of proxy addresses or networks (10.0.0.0/8, loopback)',
);

/** DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE together (DKIM_DOMAIN defaults to MAIL_DOMAIN), or neither. */
function readDkim(env: Env, mailDomain: string): Config['mail']['dkim'] {
  const selector = read(env, 'DKIM_SELECTOR', kind(z.string().regex(/^[A-Za-z0-9._-]+$/), 'must be a DNS label like "sf2026"'));
  const file = read(env, 'DKIM_PRIVATE_KEY_FILE', anyText);
  const domainName = read(env, 'DKIM_DOMAIN', hostName, mailDomain);
  if (selector === undefined && file === undefined) return null;
  if (selector === undefined || file === undefined)
    throw new ConfigError(
      selector === undefined ? 'DKIM_SELECTOR' : 'DKIM_PRIVATE_KEY_FILE',
      'must be set too: DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE go together (both to sign outgoing mail, or neither)',
    );
  return { domainName, keySelector: selector, privateKeyFile: path.resolve(file) };
}

/** Reads one variable; an empty string counts as unset, as `FOO=` in an env file means. */
function read<T>(env: Env, name: string, k: Kind<T>, fallback: T): T;
function read<T>(env: Env, name: string, k: Kind<T>): T | undefined;
function read<T>(env: Env, name: string, k: Kind<T>, fallback?: T): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const result = k.schema.safeParse(raw.trim());
  if (result.success) return result.data;
  const shown = SECRET.has(name) ? '' : ` (got ${JSON.stringify(raw)})`;
  throw new ConfigError(name, `${k.must}${shown}`);
}

function readImap(env: Env): ImapConfig | null {
  const names = ['IMAP_HOST', 'IMAP_USER', 'IMAP_PASSWORD'] as const;
  const given = names.filter((n) => (env[n] ?? '').trim() !== '');
  if (given.length === 0) return null;
  // IMAP is optional as a group: half a configuration is a mistake, not "no IMAP".
  const missing = names.find((n) => !given.includes(n));
  if (missing) throw new ConfigError(missing, `is required when ${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set`);
  const secure = read(env, 'IMAP_SECURE', bool, true);
  return {
    host: read(env, 'IMAP_HOST', hostName)!,
    port: read(env, 'IMAP_PORT', port, secure ? 993 : 143),
    user: read(env, 'IMAP_USER', anyText)!,
    password: read(env, 'IMAP_PASSWORD', anyText)!,
    secure,
    mailbox: read(env, 'IMAP_MAILBOX', anyText, 'INBOX'),
    processedMailbox: read(env, 'IMAP_PROCESSED_MAILBOX', anyText, 'Processed'),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The password kept apart from the URL (a Docker secret, a .env line) is put into it here,
 * percent-encoded: `@ : / # ? %` in a password would otherwise break the URL or be misread.
 */
function withPassword(url: string, password: string | undefined): string {
  if (password === undefined) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL', 'must be a valid URL (put the password in DATABASE_PASSWORD, not in the URL)');
  }
  if (parsed.password !== '') throw new ConfigError('DATABASE_PASSWORD', 'is set but DATABASE_URL already has a password: keep only one');
  if (parsed.username === '') throw new ConfigError('DATABASE_URL', 'must name a user when DATABASE_PASSWORD is set');
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** Validates the environment once; throws ConfigError with a one-line message naming the variable. */
/** The bare address in MAIL_FROM (`Name <a@b>` → a@b), lower-cased: mail from it is ours. */
export function mailFromAddress(mail: Pick<Config['mail'], 'from'>): string {
  return (/<([^<>]+)>\s*$/.exec(mail.from)?.[1] ?? mail.from).trim().toLowerCase();
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(read(env, 'DATA_DIR', anyText, './data'));
  const databaseUrl = read(
    env,
    'DATABASE_URL',
    kind(z.string().regex(/^postgres(ql)?:\/\/./), 'must be a postgres:// or postgresql:// URL'),
  );
  const host = read(env, 'HTTP_HOST', hostName, '127.0.0.1');
  const httpPort = read(env, 'HTTP_PORT', port, 8080);
  const domain = read(env, 'MAIL_DOMAIN', hostName, 'localhost');
  const ordersLocalPart = read(
    env,
    'ORDERS_LOCAL_PART',
    // No `+`: it separates the local part from the secret.
    kind(z.string().regex(/^[A-Za-z0-9._-]+$/), 'must be letters, digits, dots, dashes or underscores'),
    'orders',
  );
  const config: Config = {
    dataDir,
    database: databaseUrl
      ? {
          kind: 'postgres',
          url: withPassword(databaseUrl, read(env, 'DATABASE_PASSWORD', anyText)),
          connectRetryMs: read(env, 'DATABASE_CONNECT_RETRY_SECONDS', seconds, 60) * 1000,
        }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'db') },
    http: {
      host,
      port: httpPort,
      publicUrl: read(
        env,
        'PUBLIC_URL',
        kind(z.url({ protocol: /^https?$/ }), 'must be an http:// or https:// URL'),
        `http://${host}:${httpPort}`,
      ).replace(/\/+$/, ''),
      trustProxy: read(env, 'TRUST_PROXY', trustProxy, false),
    },
    mail: {
      domain,
      ordersLocalPart,
      from: read(
        env,
        'MAIL_FROM',
        kind(z.string().regex(/@[^@\s>]+>?$/), 'must end with an address'),
        `Starts Foundation <${ordersLocalPart}@${domain}>`,
      ),
      imap: readImap(env),
      smtpUrl: read(env, 'SMTP_URL', kind(z.string().regex(/^smtps?:\/\/[^/]/), 'must be an smtp:// or smtps:// URL')) ?? null,
      dkim: readDkim(env, domain),
      outboxDir: path.join(dataDir, 'mail', 'outbox'),
      maildir: path.resolve(read(env, 'MAILDIR', anyText, path.join(dataDir, 'mail', 'inbox'))),
      maxBytes: read(env, 'MAX_MAIL_BYTES', positiveInt, 10 * 1024 * 1024),
      replyRateLimitPerHour: read(env, 'REPLY_RATE_LIMIT_PER_HOUR', positiveInt, 20),
      operatorAddress:
        read(
          env,
          'OPERATOR_ADDRESS',
          kind(z.string().regex(/^[^@\s<>]+@[^@\s<>]+$/), 'must be an address like ops@example.org'),
        )?.toLowerCase() ?? null,
    },
    // A turn closed more than this after its deadline (the service was down) is said to be late.
    lateCloseMarginMs: read(env, 'LATE_CLOSE_MARGIN_MINUTES', positiveInt, 15) * 60_000,
    logLevel: read(env, 'LOG_LEVEL', kind(z.enum(LOG_LEVELS), `must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  };
  return deepFreeze(config);
}
