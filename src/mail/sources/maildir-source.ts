// The embedded default intake: a Maildir that the local MTA (or a test, or `cp`) delivers into.
// For each file in new/ (by name, i.e. roughly by arrival): deliver, then rename into cur/ with
// the Seen flag. Same at-least-once contract as the IMAP source (see MailHandler in types.ts):
// a crash between onMessage and the rename delivers that file again.
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { SourceProgress } from './progress.ts';
import { backoffDelay, sleep, Wakeup } from './timing.ts';
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
}

export async function ensureMaildir(dir: string): Promise<void> {
  for (const sub of ['new', 'cur', 'tmp']) await mkdir(join(dir, sub), { recursive: true });
}

/** Names in new/, sorted; dot files are not mail (Maildir spec), e.g. editors' or rsync's temps. */
export async function listNew(dir: string): Promise<string[]> {
  const names = await readdir(join(dir, 'new'));
  return names.filter((n) => !n.startsWith('.')).sort();
}

/** Bytes and mtime of a file in new/, or null if another reader already took it. */
export async function readNew(dir: string, name: string): Promise<{ raw: Buffer; receivedAt: Date } | null> {
  const path = join(dir, 'new', name);
  try {
    const [raw, st] = await Promise.all([readFile(path), stat(path)]);
    return { raw, receivedAt: st.mtime };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** new/<name> → cur/<name>:2,S — "seen", so mail clients looking at the Maildir agree. */
export async function markSeen(dir: string, name: string): Promise<void> {
  const base = name.split(':2,')[0]!; // an MDA that already wrote flags: replace them
  await rename(join(dir, 'new', name), join(dir, 'cur', `${base}:2,S`));
}

/** Delivers everything in new/. Returns false if onMessage failed (the rest waits for a retry). */
async function drainMaildir(opts: MaildirSourceOptions, log: Logger): Promise<boolean> {
  for (const name of await listNew(opts.dir)) {
    if (opts.signal.aborted) return true;
    const file = await readNew(opts.dir, name);
    if (!file) continue;
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
