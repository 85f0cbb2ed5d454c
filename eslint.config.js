import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
            { group: ['**/db/**', '**/mail/**', '**/http/**', '**/games/**', '**/cli/**', '**/config*', '**/service*'], message: 'src/adjudicator stays pure: no imports from db, mail, http, games, cli or the service.' },
            { group: ['pino', 'pino-*', 'fastify', 'drizzle-orm*', 'pg', '@electric-sql/*', 'nodemailer', 'imapflow', 'mailparser'], message: 'src/adjudicator stays pure: no logging, database, web or mail library.' },
            { group: ['node:fs', 'node:fs/*', 'fs', 'fs/*', 'node:net', 'node:http', 'node:https', 'node:child_process', 'node:worker_threads', 'node:os', 'node:dgram', 'node:dns'], message: 'src/adjudicator stays pure: no I/O.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'src/adjudicator stays pure: no I/O.' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'src/adjudicator has no clock.' }, { object: 'Math', property: 'random', message: 'src/adjudicator: randomness only seeded by the game (R-ELEC-4).' }],
    },
  },
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
