// The worker of hash-thread.ts: argon2 on this thread (the synchronous calls), one at a time, and
// this thread alone made the least urgent on the machine, so that hashing takes only the CPU that
// the public pages and everything else leave over.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';
import { HASH_NICE } from './hash-nice.ts';

export type HashJob = { id: number; op: 'hash'; password: string } | { id: number; op: 'verify'; stored: string; password: string };
export type HashAnswer = { id: number; value: string | boolean } | { id: number; error: string } | { ready: true; tid: number | null };

/**
 * Lowers this thread's priority (HASH_NICE). On Linux a thread has a nice of its own, set through its
 * thread id (which /proc/thread-self names); elsewhere the thread keeps the process's.
 */
function lowerThisThread(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    setPriority(tid, HASH_NICE);
    return tid;
  } catch {
    return null;
  }
}

const port = parentPort!;
const tid = lowerThisThread();
// Its thread id (null: priority not lowered), so that a test can read the nice the system gives it.
port.postMessage({ ready: true, tid } satisfies HashAnswer);
port.on('message', (m: HashJob) => {
  try {
    const value = m.op === 'hash' ? hashSync(m.password) : verifySync(m.stored, m.password);
    port.postMessage({ id: m.id, value } satisfies HashAnswer);
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies HashAnswer);
  }
});
