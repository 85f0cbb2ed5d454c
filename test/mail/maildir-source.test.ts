import { mkdtemp, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureMaildir, runMaildirSource, type MaildirSourceOptions } from '../../src/mail/sources/maildir-source.ts';
import { SourceProgress } from '../../src/mail/sources/progress.ts';
import type { RawMail } from '../../src/mail/sources/types.ts';
import { eventually } from '../support/eventually.ts';

/** Maildir polling is fast here: look often. The limit only catches a hang, on however busy a machine. */
const SOON = { timeoutMs: 20_000, intervalMs: 20 };

let root: string;
let dir: string;
const running: Array<() => Promise<void>> = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sf-maildir-'));
  dir = join(root, 'Maildir');
});
afterEach(async () => {
  while (running.length) await running.pop()!();
  await rm(root, { recursive: true, force: true });
});

/** Delivers like an MDA: write into tmp/, then rename into new/ (so readers never see half a file). */
async function deliver(name: string, body: string, mtime?: Date): Promise<void> {
  await writeFile(join(dir, 'tmp', name), body);
  if (mtime) await utimes(join(dir, 'tmp', name), mtime, mtime);
  await rename(join(dir, 'tmp', name), join(dir, 'new', name));
}

function start(over: Partial<MaildirSourceOptions> = {}) {
  const controller = new AbortController();
  const delivered: RawMail[] = [];
  const done = runMaildirSource({
    dir,
    onMessage: async (m) => void delivered.push(m),
    log: pino({ level: 'silent' }),
    signal: controller.signal,
    pollIntervalMs: 50,
    backoff: { initialMs: 20, maxMs: 100 },
    random: () => 0.5,
    ...over,
  });
  const stop = async () => {
    controller.abort();
    await done;
  };
  running.push(stop);
  return { delivered, done, stop };
}

/** A logger that resolves `failed` when the source logs its first failed pass. */
function onFirstFailure() {
  let resolve!: () => void;
  const failed = new Promise<void>((r) => (resolve = r));
  const stream = new Writable({
    write(chunk, _enc, done) {
      if (String(chunk).includes('Maildir pass failed')) resolve();
      done();
    },
  });
  return { log: pino({ level: 'error' }, stream), failed };
}

describe('runMaildirSource', () => {
  it('creates new/, cur/ and tmp/ when missing', async () => {
    start();
    await eventually(async () => expect((await readdir(dir)).sort()).toEqual(['cur', 'new', 'tmp']), SOON);
  });

  it('delivers files in name order with their mtime, then moves them to cur/ as seen', async () => {
    await ensureMaildir(dir);
    const when = new Date('2025-03-01T10:00:00Z');
    await deliver('1700000002.M2P1.host', 'Subject: two\r\n\r\nB2-C3\r\n', when);
    await deliver('1700000001.M1P1.host', 'Subject: one\r\n\r\nB2-C3\r\n', when);
    await deliver('.hidden', 'not mail'); // dot files are not mail (Maildir convention)
    const src = start(); // after delivery: order is by name within one pass

    await eventually(() => expect(src.delivered).toHaveLength(2), SOON);
    expect(src.delivered.map((m) => m.sourceKey)).toEqual(['maildir:1700000001.M1P1.host', 'maildir:1700000002.M2P1.host']);
    expect(src.delivered[0]!.raw.toString()).toBe('Subject: one\r\n\r\nB2-C3\r\n');
    expect(src.delivered[0]!.receivedAt.toISOString()).toBe(when.toISOString());
    await eventually(async () => {
      expect(await readdir(join(dir, 'new'))).toEqual(['.hidden']);
      expect((await readdir(join(dir, 'cur'))).sort()).toEqual(['1700000001.M1P1.host:2,S', '1700000002.M2P1.host:2,S']);
    }, SOON);
  });

  it('uses fs.watch as a hint: a new file is picked up long before the poll interval', async () => {
    // The next poll is an hour away: only the watch can deliver within the test's time.
    const progress = new SourceProgress();
    const src = start({ pollIntervalMs: 3_600_000, progress });
    await eventually(() => expect(progress.caughtUpAsOf()).not.toBeNull(), SOON); // first pass done, now waiting
    await deliver('a', 'Subject: a\r\n\r\n');
    await eventually(() => expect(src.delivered).toHaveLength(1), SOON);
  });

  it('leaves a file whose onMessage fails in new/ and retries it, keeping order', async () => {
    let failing = true;
    let failures = 0;
    const seen: string[] = [];
    await ensureMaildir(dir);
    for (const n of ['a', 'b', 'c']) await deliver(n, `Subject: ${n}\r\n\r\n`);
    const src = start({
      onMessage: async (m) => {
        if (m.sourceKey === 'maildir:b' && failing) {
          failures++;
          throw new Error('database unavailable');
        }
        seen.push(m.sourceKey);
      },
    });
    await eventually(() => expect(failures).toBeGreaterThanOrEqual(3), SOON);
    expect(seen).toEqual(['maildir:a']);
    expect((await readdir(join(dir, 'new'))).sort()).toEqual(['b', 'c']);

    failing = false;
    await eventually(() => expect(seen).toEqual(['maildir:a', 'maildir:b', 'maildir:c']), SOON);
    await eventually(async () => expect(await readdir(join(dir, 'new'))).toEqual([]), SOON);
    await src.stop();
  });

  it('keeps an existing flag-less name and does not double the :2, suffix', async () => {
    start();
    await eventually(async () => expect(await readdir(dir)).toContain('tmp'), SOON);
    await deliver('x:2,', 'Subject: x\r\n\r\n');
    await eventually(async () => expect(await readdir(join(dir, 'cur'))).toEqual(['x:2,S']), SOON);
  });

  it('never rejects when the Maildir cannot be created, and stops on abort', async () => {
    await writeFile(join(root, 'file'), 'in the way');
    dir = join(root, 'file', 'Maildir'); // mkdir fails with ENOTDIR, again and again
    // An hour between retries: stopping within the test's time proves the abort cuts the backoff short.
    const { log, failed } = onFirstFailure();
    const src = start({ backoff: { initialMs: 3_600_000, maxMs: 3_600_000 }, log });
    await failed; // the pass failed: the source is now in its backoff
    await expect(src.stop()).resolves.toBeUndefined();
    expect((await stat(join(root, 'file'))).isFile()).toBe(true);
  });
});
