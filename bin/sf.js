#!/usr/bin/env node
// The `sf` command. TypeScript sources run through tsx so that `npx sf` needs no build step.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
// A command that drew a map (sf referee amend, resend) started worker threads: end them, so that
// the command ends when it is done.
const { closeMapPool } = await import('../src/edict/png-pool.ts');
await closeMapPool();
