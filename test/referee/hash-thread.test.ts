// Argon2 on a thread of its own at a low OS priority (nice 10), so that a flood of logins
// takes only the CPU the public pages leave over; the idle thread never keeps a process alive.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { HashThread } from '../../src/referee/hash-thread.ts';
import { HASH_NICE } from '../../src/referee/hash-nice.ts';
import { hashPassword, verifyPassword } from '../../src/referee/passwords.ts';

const thread = new HashThread();
afterAll(() => thread.close());

/** A thread's nice, from /proc (field 19 of its stat line). */
const niceOf = (tid: number) => Number(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

describe('the hashing thread', () => {
  it('hashes and verifies argon2id at OWASP’s minimum costs (19 MiB, 2 passes, 1 lane)', async () => {
    const stored = await thread.hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await thread.verify(stored, 'correct horse battery')).toBe(true);
    expect(await thread.verify(stored, 'wrong horse battery')).toBe(false);
    await expect(thread.verify('not a hash', 'x')).rejects.toThrow();
    // The module's own functions go through the shared thread; a malformed hash logs no one in.
    expect(await verifyPassword(await hashPassword('another password'), 'another password')).toBe(true);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });

  it.runIf(process.platform === 'linux')('runs at nice 10 while the process keeps its own priority', async () => {
    const own = niceOf(process.pid);
    const tid = await thread.threadId();
    expect(tid).toBeTypeOf('number');
    // A process already run at a lower priority (nice 15) keeps it for the thread: only root may raise one.
    expect(niceOf(tid!)).toBe(Math.max(HASH_NICE, own));
    expect(niceOf(process.pid)).toBe(own);
  });

  it('fails what it had when closed, and starts again on the next hash', async () => {
    const t = new HashThread();
    const failed = expect(t.hash('closed before done')).rejects.toThrow(/closed/);
    await t.close();
    await failed;
    expect(await t.verify(await t.hash('after the close'), 'after the close')).toBe(true);
    await t.close();
  });

  it('never keeps a process alive once its hashes are done', async () => {
    const script = `import('./src/referee/passwords.ts').then(async (m) => { await m.hashPassword('a password of some length'); console.log('hashed'); })`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('hashed');
  }, 30_000);
});
