// `sf serve` as the command line sees it: its help. Starting and stopping is serve.ts.
import { UsageError } from './args.ts';
import type { Leaf } from './command.ts';

export const serve: Leaf = {
  spec: {
    name: 'sf serve',
    summary: 'run the service (mail intake, outbox, turn job, web page) until SIGINT or SIGTERM',
    options: {},
    notes: [
      'Everything is set by environment variables (see the README, "Configuration"): DATA_DIR, DATABASE_URL,',
      'HTTP_HOST, HTTP_PORT, MAIL_DOMAIN, IMAP_*, SMTP_URL, …',
      'On the embedded database (no DATABASE_URL) one service owns $DATA_DIR: a second one refuses to start,',
      'and other sf commands go through this one (the socket $DATA_DIR/sf.sock).',
    ],
    examples: ['DATA_DIR=./data HTTP_PORT=8080 sf serve'],
  },
  async run(p) {
    if (p.positionals.length)
      throw new UsageError(`sf serve takes no ${JSON.stringify(p.positionals[0])}: it is set by environment variables`);
    const { run } = await import('./serve.ts');
    return run(p.positionals);
  },
};
