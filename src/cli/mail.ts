// `sf mail inspect <file.eml>`: what the intake would extract from one mail, as JSON, without
// touching a game. Exit 0 whatever the mail says; exit 2 with one line when the file or the
// arguments cannot be used. Defaults come from the configuration (MAIL_DOMAIN, …).
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { inspectMail } from '../mail/inspect.ts';

const USAGE =
  'usage: sf mail inspect <file.eml> [--domain <domain>] [--local-part <orders>] [--max-bytes <n>] [--our-address <addr>]…\n';

function fail(message: string): number {
  process.stderr.write(`${message.replace(/\s+/g, ' ').trim()}\n`);
  return 2;
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'inspect') {
    process.stderr.write(USAGE);
    return 2;
  }
  const files: string[] = [];
  const flags: Record<string, string[]> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) {
      files.push(a);
      continue;
    }
    const value = rest[++i];
    if (!['--domain', '--local-part', '--max-bytes', '--our-address'].includes(a) || value === undefined) {
      process.stderr.write(USAGE);
      return 2;
    }
    (flags[a] ??= []).push(value);
  }
  if (files.length !== 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const maxBytesFlag = flags['--max-bytes']?.[0];
  if (maxBytesFlag !== undefined && !/^[1-9]\d*$/.test(maxBytesFlag)) return fail(`--max-bytes must be a whole number of bytes (got ${maxBytesFlag})`);

  let config;
  try {
    config = loadConfig();
  } catch (e) {
    return fail((e as Error).message);
  }
  let raw: Buffer;
  try {
    raw = await readFile(files[0]!);
  } catch (e) {
    return fail(`cannot read ${files[0]}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const fromAddress = /<([^<>]+)>\s*$/.exec(config.mail.from)?.[1] ?? config.mail.from.trim();
  const result = await inspectMail(raw, {
    maxBytes: maxBytesFlag !== undefined ? Number(maxBytesFlag) : config.mail.maxBytes,
    ourDomain: flags['--domain']?.[0] ?? config.mail.domain,
    ordersLocalPart: flags['--local-part']?.[0] ?? config.mail.ordersLocalPart,
    ourAddresses: flags['--our-address'] ?? [fromAddress],
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}
