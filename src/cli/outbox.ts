// `sf outbox list`: the mail we send — waiting, sent or failed, with the last error — the first
// thing to look at when a player says they got no answer.
import { UsageError, wholeNumber } from './args.ts';
import { out, perform, type Group, type Leaf } from './command.ts';
import { printableLine } from './terminal.ts';

interface OutboxView {
  id: number;
  kind: string;
  gameId: string | null;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  lastError: string | null;
}

const list: Leaf = {
  spec: {
    name: 'sf outbox list',
    summary: 'list outgoing mail: to whom, what, and whether it went out',
    options: {
      game: { value: '<game>', help: 'only this game’s mail' },
      status: { value: '<pending|sent|failed>', help: 'only mail in this state' },
      limit: { value: '<count>', help: 'show the newest this many', default: '50' },
      json: { help: 'print the answer as JSON' },
    },
    notes: ['Without SMTP_URL, sent mail is written as .eml files to $DATA_DIR/mail/outbox: read one with sf mail show.'],
    examples: ['sf outbox list --game test-galaxy --status failed'],
  },
  async run(p) {
    if (p.positionals.length) throw new UsageError(`sf outbox list takes no ${JSON.stringify(p.positionals[0])} (options start with --)`);
    const status = p.values.status;
    if (status !== undefined && status !== 'pending' && status !== 'sent' && status !== 'failed')
      throw new UsageError(`--status must be pending, sent or failed, not ${JSON.stringify(status)}`);
    const limit = wholeNumber('limit', 'mails', typeof p.values.limit === 'string' ? p.values.limit : undefined);
    if (limit === 0) throw new UsageError('--limit must be at least 1');
    const game = typeof p.values.game === 'string' ? p.values.game : undefined;
    const { mails, total } = (await perform('sf outbox list', 'outbox.list', { gameId: game, status, limit })) as {
      mails: OutboxView[];
      total: number;
    };
    // On stderr, so that --json stays the list itself.
    if (total > mails.length)
      process.stderr.write(`showing the newest ${mails.length} of ${total} mails: --limit ${total} shows them all\n`);
    if (p.values.json) {
      out(JSON.stringify(mails, null, 2));
      return 0;
    }
    if (mails.length === 0) {
      out('no mail');
      return 0;
    }
    out(
      mails
        .map((m) => {
          const state =
            m.status === 'sent'
              ? `sent ${m.sentAt ?? ''}`
              : m.status === 'failed'
                ? `FAILED after ${m.attempts} tries: ${m.lastError ?? ''}`
                : `pending${m.attempts ? ` (${m.attempts} tries; ${m.lastError ?? ''})` : ''}`;
          return printableLine(`#${m.id} ${m.kind.padEnd(9)} ${m.gameId ?? '-'}  to ${m.to}  "${m.subject}"  ${state}`);
        })
        .join('\n'),
    );
    return 0;
  },
};

export const group: Group = { name: 'sf outbox', summary: 'outgoing mail', subs: { list } };
