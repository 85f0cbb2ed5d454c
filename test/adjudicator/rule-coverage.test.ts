// Every rule of record in RULES.md must be cited by at least one test: a test file under test/,
// a project scenario (test/scenarios) or a public one (../shared/scenarios). Citing means the id
// appears in the text (a scenario's `rules` array, a test name, a comment).
// This file itself is not scanned, so the pattern below does not count as a citation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const rulesFile = join(repo, '..', 'shared', 'rules', 'RULES.md');
const self = resolve(fileURLToPath(import.meta.url));

const ID = /R-[A-Z]+-\d+/g;

function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

function definedRules(): string[] {
  const text = readFileSync(rulesFile, 'utf8');
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*-\s+(R-[A-Z]+-\d+)\b/.exec(line);
    if (m) ids.add(m[1]!);
  }
  return [...ids].sort();
}

function citingFiles(): string[] {
  return [
    ...walk(join(repo, 'test'), (p) => p.endsWith('.ts') && resolve(p) !== self),
    ...walk(join(repo, 'test', 'scenarios'), (p) => p.endsWith('.json')),
    ...walk(join(repo, '..', 'shared', 'scenarios'), (p) => p.endsWith('.json')),
  ];
}

describe('rule coverage', () => {
  it('RULES.md defines rules', () => {
    expect(existsSync(rulesFile), `${rulesFile} is missing`).toBe(true);
    expect(definedRules().length).toBeGreaterThan(0);
  });

  it('every rule of record is cited by a test or a scenario', () => {
    const cited = new Set<string>();
    for (const file of citingFiles()) for (const m of readFileSync(file, 'utf8').matchAll(ID)) cited.add(m[0]);
    const uncited = definedRules().filter((id) => !cited.has(id));
    expect(uncited, `rules no test cites: ${uncited.join(', ')}`).toEqual([]);
  });
});
