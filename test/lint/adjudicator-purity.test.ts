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
    const ids = await ruleIds('src/cli/probe.ts');
    expect(ids.filter((r) => r === 'no-restricted-imports' || r === 'no-restricted-properties')).toEqual([]);
  });
});

// The other boundaries: each layer imports only its own and lower ones (scripts/check-imports.ts
// checks the whole graph; these rules say it where the import is written).
describe('the layers keep their boundaries', () => {
  const importing = (what: string[]) =>
    what.map((p, i) => `import * as m${i} from '${p}';`).join('\n') + `\nexport const all = [${what.map((_, i) => `m${i}`).join(', ')}];\n`;
  async function refused(filePath: string, imports: string[]): Promise<number> {
    const [result] = await new ESLint().lintText(importing(imports), { filePath });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
  }

  it('text imports no app code, the adjudicator aside', { timeout: 60_000 }, async () => {
    expect(await refused('src/text/probe.ts', ['../db/games.ts', '../games/pause.ts', '../mail/send/headers.ts', '../http/app.ts'])).toBe(
      4,
    );
    expect(await refused('src/text/probe.ts', ['../adjudicator/types.ts', './define.ts'])).toBe(0);
  });

  it('db imports no mail, games or http', { timeout: 60_000 }, async () => {
    expect(await refused('src/db/probe.ts', ['../mail/sources/types.ts', '../games/pause.ts', '../http/app.ts'])).toBe(3);
    expect(await refused('src/db/probe.ts', ['../adjudicator/types.ts', '../text/web.ts', '../timing.ts', './client.ts'])).toBe(0);
  });

  it('games imports no mail or http', { timeout: 60_000 }, async () => {
    expect(await refused('src/games/probe.ts', ['../mail/send/headers.ts', '../http/app.ts'])).toBe(2);
    expect(await refused('src/games/probe.ts', ['../db/games.ts', '../text/web.ts', '../edict/index.ts', './pause.ts'])).toBe(0);
  });

  it('the adjudicator imports nothing of the app but the HTML escaper', { timeout: 60_000 }, async () => {
    expect(await refused('src/adjudicator/render/probe.ts', ['../../text/replies.ts', '../../errors.ts', '../../edict/index.ts'])).toBe(3);
    expect(await refused('src/adjudicator/render/probe.ts', ['../../html.ts', '../types.ts'])).toBe(0);
  });
});
