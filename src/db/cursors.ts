// Where IMAP polling left off, per mailbox: UIDs only mean something under one UIDVALIDITY.
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { mailboxCursors } from './schema.ts';

/** Where an IMAP mailbox has been read up to. UIDs only mean something within one UIDVALIDITY. */
export interface MailboxCursor {
  uidValidity: string;
  lastUid: number;
}

export interface MailboxCursorStore {
  get(mailbox: string): Promise<MailboxCursor | null>;
  set(mailbox: string, cursor: MailboxCursor): Promise<void>;
}

export function mailboxCursorStore(db: Db): MailboxCursorStore {
  return {
    async get(mailbox) {
      const [row] = await db
        .select({ uidValidity: mailboxCursors.uidValidity, lastUid: mailboxCursors.lastUid })
        .from(mailboxCursors)
        .where(eq(mailboxCursors.mailbox, mailbox));
      return row ?? null;
    },
    // Under one UIDVALIDITY the cursor only moves forward: two instances polling the same mailbox
    // must not rewind each other. A new UIDVALIDITY replaces it (the server renumbered).
    async set(mailbox, c) {
      await db
        .insert(mailboxCursors)
        .values({ mailbox, uidValidity: c.uidValidity, lastUid: c.lastUid })
        .onConflictDoUpdate({
          target: mailboxCursors.mailbox,
          set: {
            lastUid: sql`case when ${mailboxCursors.uidValidity} = excluded.uid_validity
              then greatest(${mailboxCursors.lastUid}, excluded.last_uid) else excluded.last_uid end`,
            uidValidity: sql`excluded.uid_validity`,
            updatedAt: sql`now()`,
          },
        });
    },
  };
}
