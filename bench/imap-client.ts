// The benches' IMAP client for setting up and filling mailboxes (not the service's source).
import { ImapFlow } from 'imapflow';
import type { ImapSettings } from '../src/mail/sources/types.ts';

/** A connected client for `fn`, logged out afterwards whatever happens. */
export async function withImap<T>(settings: ImapSettings, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
  const client = await imapClient(settings);
  try {
    return await fn(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** A client connected to the test mailbox server, quiet, with no IDLE of its own. */
export async function imapClient(settings: ImapSettings): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: false,
    auth: { user: settings.user, pass: settings.pass },
    logger: false,
    disableAutoIdle: true,
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}
