import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTransport, emlFileName } from '../../src/mail/send/file-transport.ts';
import { AUTO_SUBMITTED_HEADER, SF_ORIGIN_HEADER, toMailOptions } from '../../src/mail/send/headers.ts';
import { toOutgoing } from '../../src/mail/send/outbox-sender.ts';
import type { OutgoingMail } from '../../src/mail/send/types.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sf-outbox-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const log = pino({ level: 'silent' });
const reply = (n: number): OutgoingMail => ({
  from: 'moderator@sf.example',
  to: ['p1@example.org', 'p2@example.org'],
  subject: `Re: orders ${n}`,
  text: `Orders received (${n}).`,
  html: `<p>Orders received (${n}).</p>`,
  messageId: `<reply-${n}@sf.example>`,
  inReplyTo: `order-${n}@example.org`,
  references: [`order-${n}@example.org`],
  reply: true,
});

describe('createFileTransport', () => {
  it('writes one RFC 5322 .eml per mail, named by time and Message-ID hash, into a new directory', async () => {
    const dir = join(root, 'outbox', 'nested');
    let t = Date.parse('2025-03-14T10:15:00.123Z');
    const transport = createFileTransport(dir, log, () => new Date(t++));
    expect(await transport.send(reply(1))).toEqual({ messageId: '<reply-1@sf.example>' });
    await transport.send(reply(2));

    const files = (await readdir(dir)).sort(); // exactly two: no temp file left behind
    expect(files).toEqual([
      emlFileName('<reply-1@sf.example>', new Date('2025-03-14T10:15:00.123Z')),
      emlFileName('<reply-2@sf.example>', new Date('2025-03-14T10:15:00.124Z')),
    ]);
    expect(files[0]).toMatch(/^20250314T101500123Z-[0-9a-f]{16}\.eml$/);

    const parsed = await simpleParser(await readFile(join(dir, files[0]!)));
    expect(parsed.subject).toBe('Re: orders 1');
    expect(parsed.messageId).toBe('<reply-1@sf.example>');
    expect(parsed.inReplyTo).toBe('<order-1@example.org>');
    expect(parsed.references).toBe('<order-1@example.org>');
    expect(parsed.text?.trim()).toBe('Orders received (1).');
    expect(parsed.html).toContain('<p>Orders received (1).</p>');
    expect(parsed.headers.get('x-sf-origin')).toBe('starts-foundation');
    expect(parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect(parsed.date).toBeInstanceOf(Date);
  });

  it('names files the same for `id` and `<id>` and differently for different ids', () => {
    const at = new Date('2025-01-01T00:00:00Z');
    expect(emlFileName('a@b', at)).toBe(emlFileName('<a@b>', at));
    expect(emlFileName('a@b', at)).not.toBe(emlFileName('c@b', at));
  });

  it('fails without leaving a partial file when the directory cannot be used', async () => {
    await writeFile(join(root, 'blocker'), 'x');
    const transport = createFileTransport(join(root, 'blocker', 'outbox'), log);
    await expect(transport.send(reply(1))).rejects.toThrow();
    expect(await readdir(root)).toEqual(['blocker']);
  });
});

describe('toMailOptions', () => {
  it('always carries the origin, Auto-Submitted and X-Auto-Response-Suppress headers; callers cannot override them', () => {
    const opts = toMailOptions({ ...reply(1), headers: { 'x-sf-origin': 'someone-else', 'X-Extra': '1' } });
    expect(opts.headers).toEqual({
      'X-Extra': '1',
      [SF_ORIGIN_HEADER]: 'starts-foundation',
      [AUTO_SUBMITTED_HEADER]: 'auto-replied',
      'X-Auto-Response-Suppress': 'All',
    });
  });

  it("RFC 3834: auto-replied only on an answer to the recipient's mail; edicts, notices and warnings are auto-generated", () => {
    const notice = { ...reply(1), reply: false, headers: { 'Auto-Submitted': 'auto-replied' } };
    expect(toMailOptions(notice).headers).toMatchObject({ [AUTO_SUBMITTED_HEADER]: 'auto-generated' });
    const row = (kind: string) => ({
      id: 1,
      createdAt: new Date(),
      kind,
      gameId: 'g',
      toAddress: 'p@example.org',
      replyTo: null,
      subject: 's',
      inReplyTo: null,
      references: null,
      messageId: 'm@sf.example',
      bodyText: 't',
      bodyHtml: null,
      attachments: null,
      headers: null,
      dedupeKey: kind,
      status: 'pending' as const,
      attempts: 0,
      nextAttemptAt: new Date(),
      sentAt: null,
      lastError: null,
    });
    const submitted = (kind: string) =>
      (toMailOptions(toOutgoing(row(kind), 'sf@sf.example')).headers as Record<string, string>)[AUTO_SUBMITTED_HEADER];
    for (const kind of ['ack', 'refusal', 'status', 'help', 'late', 'unreadable']) expect(submitted(kind), kind).toBe('auto-replied');
    for (const kind of ['edict', 'edict-amended', 'reminder', 'welcome', 'chancellor-sheet', 'deadline-moved', 'warning'])
      expect(submitted(kind), kind).toBe('auto-generated');
  });
});
