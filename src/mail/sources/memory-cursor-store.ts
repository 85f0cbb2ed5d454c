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
    snapshot() {
      return Object.fromEntries([...cursors].map(([k, v]) => [k, { ...v }]));
    },
  };
}
