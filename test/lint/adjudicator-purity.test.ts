// The lint rule that keeps src/adjudicator pure: imports from the database, mail, web,
// logging or Node's I/O, a clock or unseeded randomness are errors there, and only there.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const probe = [
  "import { readFileSync } from 'node:fs';",
  "import pino from 'pino';",
  "import { openDatabase } from '../db/client.ts';",
  "import { extractMail } from '../mail/extract.ts';",
  'export const x = () => [readFileSync, pino, openDatabase, extractMail, Date.now(), Math.random()];',
  '',
].join('\n');

async function ruleIds(filePath: string): Promise<string[]> {
  const [result] = await new ESLint().lintText(probe, { filePath });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('src/adjudicator stays pure', () => {
  it('refuses I/O, logging, database and mail imports, the clock and unseeded randomness', { timeout: 60_000 }, async () => {
    const ids = await ruleIds('src/adjudicator/probe.ts');
    expect(ids.filter((r) => r === 'no-restricted-imports')).toHaveLength(4);
    expect(ids.filter((r) => r === 'no-restricted-properties')).toHaveLength(2);
  });

  it('allows the same code elsewhere', { timeout: 60_000 }, async () => {
    const ids = await ruleIds('src/games/probe.ts');
    expect(ids.filter((r) => r === 'no-restricted-imports' || r === 'no-restricted-properties')).toEqual([]);
  });
});
