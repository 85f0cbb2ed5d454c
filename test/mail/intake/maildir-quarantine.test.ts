// One bad entry in new/ must not stop the Maildir source for ever. Such entries are
// moved to quarantine/ with a log line, and the mail behind them is delivered.
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureMaildir, runMaildirSource } from '../../../src/mail/sources/maildir-source.ts';
import type { RawMail } from '../../../src/mail/sources/types.ts';
import { eventually } from '../../support/eventually.ts';

const SOON = { timeoutMs: 20_000, intervalMs: 20 };
let root: string;
let dir: string;
let stop: (() => Promise<void>) | null = null;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sf-maildir-q-'));
  dir = join(root, 'Maildir');
  await ensureMaildir(dir);
});
afterEach(async () => {
  await stop?.();
  stop = null;
  await rm(root, { recursive: true, force: true });
});

function start(maxFileBytes?: number) {
  const controller = new AbortController();
  const delivered: RawMail[] = [];
  const logged: string[] = [];
  const log = pino({ level: 'error' }, new Writable({ write: (chunk, _e, done) => void (logged.push(String(chunk)), done()) }));
  const done = runMaildirSource({
    dir,
    log,
    signal: controller.signal,
    pollIntervalMs: 50,
    backoff: { initialMs: 20, maxMs: 100 },
    random: () => 0.5,
    onMessage: async (m) => void delivered.push(m),
    ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
  });
  stop = async () => {
    controller.abort();
    await done;
  };
  return { delivered, logged };
}

const mail = (s: string) => `Subject: ${s}\r\n\r\nV: Sith\r\n`;

describe('an entry of new/ that can never be read', () => {
  it('a directory, a link, a file over the size cap and a non-UTF-8 name are set aside; the mail behind them is delivered', async () => {
    await mkdir(join(dir, 'new', '1-a-directory'));
    await symlink('/etc/hostname', join(dir, 'new', '2-a-link'));
    await writeFile(join(dir, 'new', '3-too-large'), 'x'.repeat(5_000));
    const badName = Buffer.concat([Buffer.from(join(dir, 'new') + '/4-'), Buffer.from([0xff, 0xfe])]);
    await writeFile(badName, mail('bad name'));
    await writeFile(join(dir, 'new', '5-good'), mail('good'));
    const src = start(4_096);
    await eventually(() => expect(src.delivered.map((m) => m.sourceKey)).toEqual(['maildir:5-good']), SOON);
    await eventually(async () => expect(await readdir(join(dir, 'new'))).toEqual([]), SOON);
    expect((await readdir(join(dir, 'quarantine'))).sort()).toEqual(['1-a-directory', '2-a-link', '3-too-large', 'x-342dfffe']);
    const lines = src.logged.filter((l) => l.includes('quarantine'));
    expect(lines).toHaveLength(4);
    expect(lines.join('\n')).toContain('not-utf8-name');
    // And later mail still flows.
    await writeFile(join(dir, 'new', '6-later'), mail('later'));
    await eventually(() => expect(src.delivered).toHaveLength(2), SOON);
  });

  it('an entry set aside never overwrites one already in quarantine/', async () => {
    await mkdir(join(dir, 'quarantine'));
    await writeFile(join(dir, 'quarantine', 'big'), 'earlier');
    await writeFile(join(dir, 'new', 'big'), 'y'.repeat(5_000));
    start(4_096);
    await eventually(async () => expect(await readdir(join(dir, 'quarantine'))).toHaveLength(2), SOON);
  });
});
