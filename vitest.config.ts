import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two tiers, one command: `npm test` runs both, the unit tier first, then the integration tier.
// Unit tests need no server; integration tests (`*.int.test.ts`) talk to real PostgreSQL,
// Dovecot, SMTP and Chromium. Timeouts are hang guards only, generous enough for a busy 2-core
// machine: no test may depend on finishing within a wall-clock budget (speed is for bench/).
export default defineConfig({
  test: {
    reporters: ['default', './test/harness/slowest-files.reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.int.test.ts'],
          // Migrates one PGlite for the whole run; test files load it (test/harness/pglite.ts).
          globalSetup: ['test/harness/pglite-template.setup.ts'],
          // Vitest's default leaves one of two cores idle; unit files wait little on I/O, so two
          // workers on two cores finish sooner. Beyond that, one per core less one, as vitest does.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          exclude: ['test/reliability/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One file at a time, and only after the unit tier: servers and browsers started by
          // tests never compete with each other or with unit workers for the CPU.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // The SIGKILL and two-service runs (~5 min) mostly wait on their own pace (mail fed at a
          // rate, kills on a schedule): one at a time beside the other integration files, so the
          // whole suite stays under 10 minutes on two cores. Their checks are counts, not times.
          name: 'reliability',
          include: ['test/reliability/**/*.int.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
