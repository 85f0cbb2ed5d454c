// Creating a new PGlite data directory (initdb) takes a process to ~700 MiB, and WebAssembly
// memory never shrinks: a service that created its own database on first start kept that for
// its whole life. So a new directory is created by a short-lived child process, and the
// service only ever opens an existing one (idle ~210 MiB; bench/memory.bench.ts).
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';

// Runs as an ES module in the child: argv[1] PGlite's module URL, [2] the directory, [3] options.
const CHILD = `const { PGlite } = await import(process.argv[1]);
const db = await PGlite.create(process.argv[2], JSON.parse(process.argv[3]));
await db.close();`;

/** True once initdb has completed in `dataDir` (PostgreSQL writes PG_VERSION then). */
async function isInitialized(dataDir: string): Promise<boolean> {
  return access(path.join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/** Creates the database cluster in `dataDir` in a child process, unless it is there already. */
export async function initializeApart(dataDir: string, startParams: readonly string[]): Promise<void> {
  if (await isInitialized(dataDir)) return;
  const pglite = import.meta.resolve('@electric-sql/pglite');
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--liftoff-only', '--input-type=module', '-e', CHILD, pglite, dataDir, JSON.stringify({ startParams })],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        // PGlite's failures can print pages of minified source: keep the last line that says something.
        const said = stderr
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && l.length < 500)
          .at(-1);
        reject(new Error(`could not create the embedded database in ${dataDir}: ${said ?? err.message}`));
      },
    );
  });
}
