// Global setup of the unit tier: one in-memory PGlite migrated for the whole run, dumped to a file
// that every test worker loads (test/harness/pglite.ts) instead of starting PGlite from scratch.
// From scratch runs initdb and the migrations: seconds, more on a busy machine, in every file;
// loading the dump takes a fraction of a second. Built here once, with no test or hook time-out
// to beat, in a child process (pglite-template.build.ts) that takes PGlite's memory away with it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated data directory, as a tarball. */
    pgliteTemplate: string;
  }
}

const builder = fileURLToPath(new URL('./pglite-template.build.ts', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url)); // where `--import tsx` resolves

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sf-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', builder, file], { cwd: repo });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    const { stderr } = err as { stderr?: string };
    throw new Error(`could not build the PGlite template for the unit tests${stderr ? `:\n${stderr}` : ''}`, { cause: err });
  }
  project.provide('pgliteTemplate', file);
  return () => rm(dir, { recursive: true, force: true });
}
