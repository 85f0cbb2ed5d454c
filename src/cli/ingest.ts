// `sf ingest <file.eml>`: feeds one mail to intake by hand, as if it had just arrived, and prints
// what became of it. Replies go to the outbox like any other.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createLogger } from '../logger.ts';
import { receiveMail } from '../mail/intake/receive.ts';
import { intakeDeps } from '../service.ts';

export async function run(args: string[]): Promise<number> {
  if (args.length !== 1) {
    process.stderr.write('usage: sf ingest <file.eml>\n');
    return 2;
  }
  let raw: Buffer;
  let config;
  try {
    raw = await readFile(args[0]!);
    config = loadConfig();
  } catch (e) {
    process.stderr.write(`${e instanceof ConfigError ? e.message : `cannot read ${args[0]}: ${(e as Error).message}`}\n`);
    return 2;
  }
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config);
  try {
    const sourceKey = `cli:${createHash('sha256').update(raw).digest('hex')}`;
    const r = await receiveMail(intakeDeps(config, database, log), { raw, source: 'cli', sourceKey, receivedAt: new Date() });
    process.stdout.write(`${JSON.stringify({ inbound: r.id, duplicate: r.duplicate, ...(r.result ?? { status: 'pending' }) })}\n`);
    return 0;
  } finally {
    await database.close();
  }
}
