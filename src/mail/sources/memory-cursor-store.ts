import type { MailboxCursor, MailboxCursorStore } from './types.ts';

/** MailboxCursorStore kept in memory: for tests and for a one-off run without a database. */
export function createMemoryCursorStore(
  initial: Record<string, MailboxCursor> = {},
): MailboxCursorStore & { snapshot(): Record<string, MailboxCursor> } {
  const cursors = new Map(Object.entries(initial).map(([k, v]) => [k, { ...v }]));
  return {
    async get(mailbox) {
      const c = cursors.get(mailbox);
      return c ? { ...c } : null;
    },
    async set(mailbox, cursor) {
      cursors.set(mailbox, { ...cursor });
    },
    // One process, one reader: nothing to wait for.
    async settle(mailbox, cursor, move) {
      const c = cursors.get(mailbox);
      await move(c && c.uidValidity === cursor.uidValidity ? c.lastUid : null);
      const lastUid = c && c.uidValidity === cursor.uidValidity ? Math.max(c.lastUid, cursor.lastUid) : cursor.lastUid;
      cursors.set(mailbox, { uidValidity: cursor.uidValidity, lastUid });
    },
    snapshot() {
      return Object.fromEntries([...cursors].map(([k, v]) => [k, { ...v }]));
    },
  };
}
