import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Journeys run downhill: a layer imports its own and lower layers only (scripts/check-imports.ts
// checks the whole graph, circles included; these rules say it in the editor, per boundary).
const app = {
  db: '**/db/**',
  games: '**/games/**',
  mail: '**/mail/**',
  http: '**/http/**',
  edict: '**/edict/**',
  referee: '**/referee/**',
  control: '**/control/**',
  cli: ['**/cli/**', '**/cli.ts'],
  service: ['**/service.ts', '**/turn-loop.ts'],
  config: ['**/config.ts', '**/logger.ts', '**/startup-errors.ts', '**/liveness.ts', '**/worker-spawn.ts'],
  text: '**/text/**',
};
function boundary(files, forbidden, message) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: [{ group: forbidden.flatMap((k) => app[k]), message }] }] } };
}

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'drizzle/', 'coverage/', '.tmp/', '.bench-build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The adjudicator is a pure function of (map, state, sheets): no database, mail, web, logging or
    // I/O may reach it (STYLE.md, functional core).
    files: ['src/adjudicator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // Nothing of the app; src/html.ts (the escaper, a leaf without imports) is the one exception.
            {
              group: [
                '**/db/**',
                '**/mail/**',
                '**/http/**',
                '**/games/**',
                '**/cli/**',
                '**/config*',
                '**/service*',
                '**/text/**',
                '**/edict/**',
                '**/referee/**',
                '**/control/**',
                '**/errors.ts',
                '**/timing.ts',
                '**/logger.ts',
                '**/turn-loop.ts',
                '**/startup-errors.ts',
                '**/liveness.ts',
                '**/worker-spawn.ts',
              ],
              message: 'src/adjudicator stays pure: it imports nothing of the app (src/html.ts aside).',
            },
            {
              group: ['pino', 'pino-*', 'fastify', 'drizzle-orm*', 'pg', '@electric-sql/*', 'nodemailer', 'imapflow', 'mailparser'],
              message: 'src/adjudicator stays pure: no logging, database, web or mail library.',
            },
            {
              group: [
                'node:fs',
                'node:fs/*',
                'fs',
                'fs/*',
                'node:net',
                'node:http',
                'node:https',
                'node:child_process',
                'node:worker_threads',
                'node:os',
                'node:dgram',
                'node:dns',
              ],
              message: 'src/adjudicator stays pure: no I/O.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'src/adjudicator stays pure: no I/O.' }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'src/adjudicator has no clock.' },
        { object: 'Math', property: 'random', message: 'src/adjudicator: randomness only seeded by the game (R-ELEC-4).' },
      ],
    },
  },
  boundary(
    ['src/text/**/*.ts'],
    ['db', 'games', 'mail', 'http', 'edict', 'referee', 'control', 'cli', 'service', 'config'],
    "src/text holds words only: it imports no app code (the adjudicator's types aside).",
  ),
  boundary(
    ['src/db/**/*.ts'],
    ['games', 'mail', 'http', 'edict', 'referee', 'control', 'cli', 'service'],
    'src/db is the data layer: it imports no mail, games or http.',
  ),
  boundary(['src/games/**/*.ts'], ['mail', 'http', 'control', 'cli', 'service'], 'src/games is below mail and http: it imports neither.'),
  {
    // The one script the web pages load (a same-origin file, under the CSP): browser globals.
    files: ['templates/web/static/**/*.js'],
    languageOptions: { globals: { document: 'readonly', Intl: 'readonly', window: 'readonly' } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
