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
  /**
   * Moves a stored batch out of the mailbox and then sets the cursor past it, one reader of the
   * mailbox at a time. `move` is told how far the cursor already stands under this UIDVALIDITY
   * (null: nowhere): another instance has moved what lies at or below it, and moving a message
   * twice at once makes two copies of it in the processed mailbox (Dovecot copies, then expunges).
   */
  settle(mailbox: string, cursor: MailboxCursor, move: (settledUpTo: number | null) => Promise<void>): Promise<void>;
}

/**
 * `shared`: other service instances may read the same mailbox (PostgreSQL). Settling a batch then
 * holds the cursor's row for the length of the MOVE, so that two instances never move one message
 * at once. An embedded database has one process, and a transaction held across an IMAP command
 * would hold up every other query of it: there it is not taken.
 */
export function mailboxCursorStore(db: Db, opts: { shared: boolean } = { shared: true }): MailboxCursorStore {
  const get = async (q: Db, mailbox: string, lock: boolean): Promise<MailboxCursor | null> => {
    const rows = q
      .select({ uidValidity: mailboxCursors.uidValidity, lastUid: mailboxCursors.lastUid })
      .from(mailboxCursors)
      .where(eq(mailboxCursors.mailbox, mailbox));
    const [row] = lock ? await rows.for('update') : await rows;
    return row ?? null;
  };
  return {
    get: (mailbox) => get(db, mailbox, false),
    set: (mailbox, c) => setCursor(db, mailbox, c),
    async settle(mailbox, c, move) {
      const settle = async (q: Db, lock: boolean) => {
        if (lock) await q.insert(mailboxCursors).values({ mailbox, uidValidity: c.uidValidity, lastUid: 0 }).onConflictDoNothing();
        const now = await get(q, mailbox, lock);
        await move(now && now.uidValidity === c.uidValidity ? now.lastUid : null);
        await setCursor(q, mailbox, c);
      };
      if (opts.shared) await db.transaction((tx) => settle(tx, true));
      else await settle(db, false);
    },
  };
}

// Under one UIDVALIDITY the cursor only moves forward: two instances polling the same mailbox
// must not rewind each other. A new UIDVALIDITY replaces it (the server renumbered).
async function setCursor(db: Db, mailbox: string, c: MailboxCursor): Promise<void> {
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
}
