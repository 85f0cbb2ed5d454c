// Writes the unit tier's PGlite template (see pglite-template.setup.ts) to the file named by the
// first argument: one in-memory PGlite migrated exactly as the service does it (openDatabase),
// its data directory dumped as an uncompressed tarball (loads faster than gzip). Run in a child
// process, so that the test runner does not keep PGlite's memory for the whole run.
import { writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/client.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: pglite-template.build.ts <file.tar>');
const database = await openDatabase({ database: { kind: 'pglite', dataDir: 'memory://' } });
try {
  // Drizzle keeps the driver's client on the handle; the Database type does not say so.
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) throw new Error('openDatabase on memory:// no longer hands back a PGlite client');
  const tarball = await client.dumpDataDir('none');
  await writeFile(file, new Uint8Array(await tarball.arrayBuffer()));
} finally {
  await database.close();
}
