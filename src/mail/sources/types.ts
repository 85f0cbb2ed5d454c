// Shapes shared by the mail sources (IMAP, Maildir). Free of database imports so the sources do not
// depend on the database layer: src/db/cursors.ts implements MailboxCursorStore structurally.
import type { BackoffOptions } from '../../timing.ts';

export type { BackoffOptions };

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
