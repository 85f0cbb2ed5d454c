// The embedded default intake: a Maildir that the local MTA (or a test, or `cp`) delivers into.
// For each file in new/ (by name, i.e. roughly by arrival): deliver, then rename into cur/ with
// the Seen flag. Same at-least-once contract as the IMAP source (see MailHandler in types.ts):
// a crash between onMessage and the rename delivers that file again.
// An entry that can never be read — a directory, a FIFO or a link, a file too large to hold, a name
// that is not UTF-8 — is moved to quarantine/ beside new/ and cur/ with a log line, so that it
// does not hold up the mail behind it (one directory in new/ once stopped intake for ever; D-MAIL-25).
import { watch, type FSWatcher } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { SourceProgress } from './progress.ts';
import { backoffDelay, sleep, Wakeup } from '../../timing.ts';
import { DEFAULT_BACKOFF, type BackoffOptions, type MailHandler, type RawMail } from './types.ts';

export interface MaildirSourceOptions {
  dir: string;
  onMessage: MailHandler<RawMail>;
  log: Logger;
  signal: AbortSignal;
  /** fs.watch misses events (network filesystems, some containers): we always poll too. */
  pollIntervalMs: number;
  backoff?: BackoffOptions;
  random?: () => number;
  /** Told when a pass over new/ completes (the turn job's catch-up). */
  progress?: SourceProgress;
  /** Larger files are set aside unread (default MAX_MAILDIR_FILE_BYTES). */
  maxFileBytes?: number;
}

/**
 * Far above any mail server's size limit, and far below what one mail may be as a string (the
 * database drivers send bytes as hex text: twice the size must stay under V8's ~512 M characters).
 * Mail between MAX_MAIL_BYTES and this is stored and answered unread; beyond it, set aside.
 */
export const MAX_MAILDIR_FILE_BYTES = 64 * 1024 * 1024;

export async function ensureMaildir(dir: string): Promise<void> {
  for (const sub of ['new', 'cur', 'tmp']) await mkdir(join(dir, sub), { recursive: true });
}

/** An entry of new/: its name as text, and as the bytes the file system holds. */
export interface NewEntry {
  name: string;
  bytes: Buffer;
  /** Whether the name is valid UTF-8 (else `name` has replacement characters and names nothing). */
  validName: boolean;
}

/** Entries in new/, sorted by name; dot files are not mail (Maildir spec), e.g. editors' or rsync's temps. */
export async function listNew(dir: string): Promise<NewEntry[]> {
  const names = await readdir(join(dir, 'new'), { encoding: 'buffer' });
  return names
    .filter((b) => b[0] !== 0x2e)
    .sort(Buffer.compare)
    .map((bytes) => {
      const name = bytes.toString('utf8');
      return { name, bytes, validName: Buffer.from(name, 'utf8').equals(bytes) };
    });
}

/** Why an entry of new/ can never be read as mail. */
export type Unreadable = 'not-utf8-name' | 'not-a-file' | 'too-large' | 'unreadable';

/** Errors that are the entry's, not the moment's: retrying will not help. */
const ENTRY_ERRORS = new Set(['EISDIR', 'EACCES', 'EPERM', 'ELOOP', 'ENAMETOOLONG', 'EINVAL', 'ERR_FS_FILE_TOO_LARGE']);

/**
 * Bytes and mtime of a file in new/; null if another reader already took it; `{ unreadable }` for
 * an entry that can never be read (it goes to quarantine). Other errors throw (the pass retries).
 */
export async function readNew(
  dir: string,
  entry: NewEntry,
  maxBytes = MAX_MAILDIR_FILE_BYTES,
): Promise<{ raw: Buffer; receivedAt: Date } | { unreadable: Unreadable; detail?: string } | null> {
  if (!entry.validName) return { unreadable: 'not-utf8-name' };
  const path = join(dir, 'new', entry.name);
  try {
    // lstat: a link is not mail (it could point anywhere on this machine); a FIFO would block the read.
    const st = await lstat(path);
    if (!st.isFile()) return { unreadable: 'not-a-file' };
    if (st.size > maxBytes) return { unreadable: 'too-large', detail: `${st.size} bytes` };
    const raw = await readFile(path);
    if (raw.byteLength > maxBytes) return { unreadable: 'too-large', detail: `${raw.byteLength} bytes` };
    return { raw, receivedAt: st.mtime };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') return null;
    if (ENTRY_ERRORS.has(code)) return { unreadable: 'unreadable', detail: code };
    throw err;
  }
}

/** Moves an entry of new/ to quarantine/ (created on demand), never over another one. Returns its new name. */
export async function quarantine(dir: string, entry: NewEntry): Promise<string> {
  const qdir = join(dir, 'quarantine');
  await mkdir(qdir, { recursive: true });
  const base = entry.validName ? entry.name : `x-${entry.bytes.toString('hex')}`;
  const taken = await lstat(join(qdir, base)).then(
    () => true,
    () => false,
  );
  const target = taken ? `${base}.${Date.now()}` : base;
  await rename(Buffer.concat([Buffer.from(join(dir, 'new') + '/'), entry.bytes]), join(qdir, target));
  return target;
}

/** new/<name> → cur/<name>:2,S — "seen", so mail clients looking at the Maildir agree. */
export async function markSeen(dir: string, name: string): Promise<void> {
  const base = name.split(':2,')[0]!; // an MDA that already wrote flags: replace them
  await rename(join(dir, 'new', name), join(dir, 'cur', `${base}:2,S`));
}

/** Delivers everything in new/. Returns false if onMessage failed (the rest waits for a retry). */
async function drainMaildir(opts: MaildirSourceOptions, log: Logger): Promise<boolean> {
  for (const entry of await listNew(opts.dir)) {
    if (opts.signal.aborted) return true;
    const name = entry.name;
    const file = await readNew(opts.dir, entry, opts.maxFileBytes);
    if (!file) continue;
    if ('unreadable' in file) {
      const movedTo = await quarantine(opts.dir, entry);
      log.error(
        {
          entry: entry.validName ? name : entry.bytes.toString('hex'),
          reason: file.unreadable,
          detail: file.detail,
          movedTo: `quarantine/${movedTo}`,
        },
        'an entry of new/ cannot be read as mail: set aside in quarantine/ for the referee',
      );
      continue;
    }
    const sourceKey = `maildir:${name}`;
    try {
      await opts.onMessage({ ...file, sourceKey });
    } catch (err) {
      log.error({ err, sourceKey }, 'onMessage failed; leaving the file in new/ to retry');
      return false;
    }
    await markSeen(opts.dir, name);
    log.debug({ sourceKey }, 'message delivered');
  }
  return true;
}

/** fs.watch only as a hint to poll sooner; if it cannot watch we just poll. */
function watchHint(dir: string, wakeup: Wakeup, log: Logger): FSWatcher | null {
  try {
    const watcher = watch(join(dir, 'new'), { persistent: false }, () => wakeup.notify());
    watcher.on('error', (err) => {
      log.debug({ err }, 'fs.watch failed; polling only');
      watcher.close();
    });
    return watcher;
  } catch (err) {
    log.debug({ err }, 'fs.watch unavailable; polling only');
    return null;
  }
}

/** Runs until `signal` aborts. Never rejects: failures are logged and retried with backoff. */
export async function runMaildirSource(opts: MaildirSourceOptions): Promise<void> {
  const log = opts.log.child({ source: 'maildir', dir: opts.dir });
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  const random = opts.random ?? Math.random;
  const wakeup = new Wakeup();
  let watcher: FSWatcher | null = null;
  let failures = 0;
  while (!opts.signal.aborted) {
    let ok: boolean;
    wakeup.clear();
    const started = opts.progress?.drainStarting() ?? 0;
    try {
      await ensureMaildir(opts.dir); // again each pass: someone may have removed it
      watcher ??= watchHint(opts.dir, wakeup, log);
      ok = await drainMaildir(opts, log);
      if (ok) opts.progress?.drained(started);
    } catch (err) {
      log.error({ err }, 'Maildir pass failed');
      watcher?.close(); // the directory may have been replaced; watch the new one
      watcher = null;
      ok = false;
    }
    if (opts.signal.aborted) break;
    if (ok) {
      failures = 0;
      await wakeup.wait(opts.pollIntervalMs, opts.signal);
    } else {
      await sleep(backoffDelay(failures++, backoff, random), opts.signal);
    }
  }
  watcher?.close();
  log.info('Maildir source stopped');
}
