// Shapes shared by the mail sources (IMAP, Maildir).
import type { BackoffOptions } from '../../timing.ts';

export type { BackoffOptions };

// The cursor's shape is the data layer's, which keeps it; type-only, so no source loads the database.
export type { MailboxCursor, MailboxCursorStore } from '../../db/cursors.ts';

/** One mail as it arrived, before any parsing. */
export interface RawMail {
  raw: Buffer;
  /** Where it came from: `imap:<mailbox>:<uidValidity>:<uid>` or `maildir:<filename>`. */
  sourceKey: string;
  /** When our server received it: IMAP INTERNALDATE, or the Maildir file's mtime. */
  receivedAt: Date;
}

export interface ImapRawMail extends RawMail {
  uid: number;
  uidValidity: string;
}

/**
 * Called once per mail; must store it durably (and commit) before resolving. A source marks the
 * mail done (moves it / advances the cursor) only after this resolves, so a crash in between
 * hands the same mail over again: the handler MUST be idempotent. The sourceKey alone is not
 * enough to dedupe — after an IMAP UIDVALIDITY change the same mail comes back under a new key —
 * so downstream also dedupes by Message-ID + content hash. Throwing means "not stored, try later".
 */
export type MailHandler<M extends RawMail = RawMail> = (mail: M) => Promise<void>;

/**
 * MailHandler for several mails at once (in arrival order), all stored before it resolves: one
 * IMAP fetch's worth, so that storing and processing cost a few statements a batch, not a mail.
 * Throwing means "not all of them stored, try the batch later" (so storing must be idempotent).
 */
export type BatchHandler<M extends RawMail = RawMail> = (mails: M[]) => Promise<void>;

export interface ImapSettings {
  host: string;
  port: number;
  user: string;
  pass: string;
  /** Implicit TLS (port 993). Without it imapflow still upgrades via STARTTLS when offered. */
  secure?: boolean;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 60_000 };
