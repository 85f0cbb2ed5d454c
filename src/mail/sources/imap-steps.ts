// The IMAP steps the source is made of: each one small, taking the connection and a logger.
// The loop that strings them together lives in imap-source.ts.
import { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { MailboxCursor, MailboxCursorStore, ImapSettings } from './types.ts';

/** imapflow is chatty at info/debug; only its warnings are worth our log, unless we are quieter. */
function imapflowLogger(log: Logger): Logger {
  const quietest = log.levelVal >= log.levels.values.warn! ? log.level : 'warn';
  return log.child({ component: 'imapflow' }, { level: quietest });
}

export async function connectImap(settings: ImapSettings, log: Logger): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure ?? false,
    auth: { user: settings.user, pass: settings.pass },
    logger: imapflowLogger(log),
    // We decide when to IDLE (after each pass); auto-IDLE would race our own commands.
    disableAutoIdle: true,
    connectionTimeout: 30_000,
  });
  // An EventEmitter 'error' without a listener would crash the process; the session notices
  // the dead connection through `usable`/'close' and reconnects.
  client.on('error', (err: Error) => log.warn({ err }, 'IMAP connection error'));
  try {
    await client.connect();
  } catch (err) {
    client.close();
    throw err;
  }
  return client;
}

/** Logs out politely, but never waits on a dead server for long. */
export async function disconnectImap(client: ImapFlow, log: Logger): Promise<void> {
  if (client.usable) {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 3_000)));
    await Promise.race([client.logout().catch((err) => log.debug({ err }, 'logout failed')), giveUp]);
    clearTimeout(timer);
  }
  client.close();
}

/** A command answered `false` can mean "server said NO" or "connection gone"; tell them apart. */
export function assertUsable(client: ImapFlow): void {
  if (!client.usable) throw new Error('IMAP connection lost');
}

/** Selects the mailbox and returns its UIDVALIDITY as a string (it is a bigint on the wire). */
export async function openMailbox(client: ImapFlow, mailbox: string): Promise<string> {
  const box = await client.mailboxOpen(mailbox);
  return String(box.uidValidity);
}

export function currentUidValidity(client: ImapFlow): string | null {
  return client.mailbox ? String(client.mailbox.uidValidity) : null;
}

export async function ensureMailbox(client: ImapFlow, path: string, log: Logger): Promise<void> {
  const res = await client.mailboxCreate(path); // ALREADYEXISTS comes back as created: false
  if (res.created) log.info({ created: path }, 'created mailbox');
}

/**
 * The cursor to read from. A different UIDVALIDITY means every UID we remember is meaningless,
 * so we start from scratch; that is safe because the store dedupes by Message-ID + content hash.
 */
export async function resolveCursor(store: MailboxCursorStore, mailbox: string, uidValidity: string, log: Logger): Promise<MailboxCursor> {
  const stored = await store.get(mailbox);
  if (stored && stored.uidValidity === uidValidity) return stored;
  if (stored) {
    log.warn(
      { mailbox, was: stored.uidValidity, now: uidValidity },
      'UIDVALIDITY changed: re-reading the whole mailbox (downstream dedupes)',
    );
  }
  const fresh = { uidValidity, lastUid: 0 };
  await store.set(mailbox, fresh);
  return fresh;
}

/** A message waiting in the mailbox: its UID and RFC822.SIZE (to size fetch batches). */
export interface WaitingMessage {
  uid: number;
  size: number;
}

/**
 * A message of at most this many bytes is taken to be this large when batches are cut: only the
 * few larger ones have their size asked for. 500 of them still fit DEFAULT_BATCH's 16 MiB.
 */
export const SMALL_MAIL_BYTES = 32 * 1024;

/**
 * Messages above `lastUid`, ascending by UID, with their sizes (SMALL_MAIL_BYTES for a small one).
 * Two SEARCHes, each answered by one line of numbers, then the sizes of the large ones: a FETCH
 * of every message's size cost imapflow as much as fetching half the messages.
 */
export async function listNewMessages(client: ImapFlow, lastUid: number): Promise<WaitingMessage[]> {
  // No shortcut on `mailbox.exists === 0`: when polling, this command is what makes the server
  // tell us about new mail in the first place.
  const range = `${lastUid + 1}:*`;
  const all = await client.search({ uid: range }, { uid: true });
  const large = await client.search({ uid: range, larger: SMALL_MAIL_BYTES }, { uid: true });
  if (!Array.isArray(all) || !Array.isArray(large)) throw new Error(`SEARCH UID ${range} failed`);
  // `n:*` always matches the highest UID, even when it is below n (RFC 3501 §6.4.8): filter.
  const bigOnes = large.filter((uid) => uid > lastUid);
  const sizes = new Map<number, number>();
  if (bigOnes.length) {
    for (const m of await client.fetchAll(uidSet(bigOnes), { uid: true, size: true }, { uid: true })) sizes.set(m.uid, m.size ?? 0);
  }
  // A message that came between the two SEARCHes is listed next time; one gone meanwhile is not fetched.
  return all
    .filter((uid) => uid > lastUid)
    .sort((a, b) => a - b)
    .map((uid) => ({ uid, size: sizes.get(uid) ?? SMALL_MAIL_BYTES }));
}

export interface BatchLimits {
  /** At most this many messages per FETCH. */
  maxMessages: number;
  /** At most about this many bytes per FETCH; a larger message is fetched on its own. */
  maxBytes: number;
}

/** Cuts the waiting messages into consecutive batches within the limits. */
export function batchesOf(waiting: WaitingMessage[], limits: BatchLimits): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const m of waiting) {
    if (current.length && (current.length >= limits.maxMessages || bytes + m.size > limits.maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(m.uid);
    bytes += m.size;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** `1:3,7,9:10`: a UID set for one command. */
export function uidSet(uids: number[]): string {
  const sorted = [...uids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}:${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

const asFetched = (msg: { source?: Buffer; internalDate?: Date | string }): { raw: Buffer; receivedAt: Date } => {
  const date = msg.internalDate ? new Date(msg.internalDate) : new Date(NaN);
  return { raw: msg.source!, receivedAt: Number.isNaN(date.getTime()) ? new Date() : date };
};

/**
 * Several messages in one FETCH: the raw bytes (BODY.PEEK[], so \Seen is untouched) and
 * INTERNALDATE. A message missing from the result was expunged by someone else between listing
 * and fetching.
 */
export async function fetchMessages(client: ImapFlow, uids: number[]): Promise<Map<number, { raw: Buffer; receivedAt: Date }>> {
  const msgs = await client.fetchAll(uidSet(uids), { uid: true, source: true, internalDate: true }, { uid: true });
  assertUsable(client); // a dropped connection can look like an empty answer
  const wanted = new Set(uids);
  return new Map(msgs.filter((m) => wanted.has(m.uid) && m.source).map((m) => [m.uid, asFetched(m)]));
}

/**
 * Moves messages out of the way, in one command. Those another reader of the mailbox (a second
 * instance) moved first are done with; if the target mailbox vanished we create it and retry
 * once. Returns false when the server keeps refusing: the mail is stored anyway, so the caller
 * only logs.
 */
export async function moveToProcessed(client: ImapFlow, uids: number | number[], processedMailbox: string, log: Logger): Promise<boolean> {
  const all = Array.isArray(uids) ? uids : [uids];
  if (await moveAll(client, all, processedMailbox)) return true;
  // Not all moved. Dovecot refuses the whole MOVE (NO [EXPUNGEISSUED]) when another reader took
  // some of them first, and imapflow may still answer as if it had moved them: what is left is
  // asked, so that none stays in the mailbox behind the cursor.
  const left = await stillIn(client, all);
  if (left.length === 0) return true;
  await ensureMailbox(client, processedMailbox, log);
  if (await moveAll(client, left, processedMailbox)) return true;
  return (await stillIn(client, left)).length === 0;
}

/** True when the server says it moved every one (UIDPLUS's COPYUID names each). */
async function moveAll(client: ImapFlow, uids: number[], processedMailbox: string): Promise<boolean> {
  const moved = await client.messageMove(uidSet(uids), processedMailbox, { uid: true });
  assertUsable(client);
  return Boolean(moved && moved.uidMap && moved.uidMap.size === uids.length);
}

/** Which of these UIDs are still in the open mailbox. */
async function stillIn(client: ImapFlow, uids: number[]): Promise<number[]> {
  const found = await client.search({ uid: uidSet(uids) }, { uid: true });
  assertUsable(client);
  if (!Array.isArray(found)) throw new Error('SEARCH after MOVE failed');
  const asked = new Set(uids);
  return found.filter((uid) => asked.has(uid));
}
