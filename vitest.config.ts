import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import ReliabilityFirstSequencer from './test/harness/reliability-first.sequencer.ts';

// The integration and reliability projects share one pool (same groupOrder), hence one count.
const INTEGRATION_WORKERS = 2;

// No test may use the default data directory (./data) or the developer's DATA_DIR: a service run
// from this checkout keeps its database there. Each test gives its own; one that forgets (a
// command spawned with the tests' environment, loadConfig() in process) fails at once on this
// path below a file, which nobody, root included, can create. Ports: see serviceEnv.
const env = { DATA_DIR: '/dev/null/each-test-sets-its-own-DATA_DIR' };

// Two tiers, one command: `npm test` runs both, the unit tier first, then the integration tier.
// Unit tests need no server; integration tests (`*.int.test.ts`) talk to real PostgreSQL,
// Dovecot, SMTP and Chromium. Timeouts are hang guards only, generous enough for a busy 2-core
// machine: no test may depend on finishing within a wall-clock budget (speed is for bench/).
export default defineConfig({
  test: {
    reporters: ['default', './test/harness/slowest-files.reporter.ts'],
    // Reliability files first in their group (see the sequencer for why).
    sequence: { sequencer: ReliabilityFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          env,
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
          env,
          include: ['test/**/*.int.test.ts'],
          exclude: ['test/reliability/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // After the unit tier, in one pool with the reliability files (vitest gives a group one
          // worker count): two files at a time, the reliability files first. Every server a test
          // starts has its own port, directory and database (test/harness), so files side by
          // side never share one.
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // The SIGKILL and two-service runs (~5 min together) mostly wait on their own pace (mail
          // fed at a rate, kills on a schedule): they start first, beside each other and then
          // beside the integration files, so the whole suite stays under 10 minutes on two cores.
          // Their checks are counts, not times.
          name: 'reliability',
          env,
          include: ['test/reliability/**/*.int.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
