// Where IMAP polling left off, per mailbox: UIDs only mean something under one UIDVALIDITY.
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import type { MailboxCursor, MailboxCursorStore } from '../mail/sources/types.ts';
import { mailboxCursors } from './schema.ts';

// The store the IMAP source asks for (its shape is the source's, in mail/sources/types.ts).

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
