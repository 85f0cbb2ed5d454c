// Golden files: the SVG of a map is compared byte for byte with test/edict/golden/<name>; with
// UPDATE_GOLDEN=1 the file is written instead (then review the diff, and look at the picture).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const dir = fileURLToPath(new URL('./golden/', import.meta.url));

export function expectGolden(name: string, actual: string): void {
  const path = join(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`no golden file ${name}: run the test with UPDATE_GOLDEN=1 and review it`);
  const expected = readFileSync(path, 'utf8');
  // A short message first: a 100 kB string diff tells little on its own.
  if (actual !== expected) {
    const a = actual.split('\n');
    const e = expected.split('\n');
    const line = a.findIndex((l, i) => l !== e[i]);
    expect.fail(`${name} differs from its golden file at line ${line + 1}:\n- ${e[line] ?? ''}\n+ ${a[line] ?? ''}`);
  }
}
