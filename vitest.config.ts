import { defineConfig } from 'vitest/config';

// Two tiers, one command: `npm test` runs both. Unit tests need no server;
// integration tests (`*.int.test.ts`) talk to real PostgreSQL, Dovecot, SMTP and Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
