// `sf mail inspect` as a user runs it: a real process, JSON on stdout.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string) => path.join(root, 'test/mail/fixtures', name);

async function sf(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/sf.js', ...args], {
      cwd: root,
      // The configuration must not come from the developer's shell.
      env: { PATH: process.env.PATH ?? '' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('sf mail inspect', () => {
  it('prints what intake would extract, as JSON', async () => {
    const { code, stdout } = await sf('mail', 'inspect', fixture('01-gmail-web-reply-it.eml'), '--domain', 'sf.example');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      automatic: false,
      gameTag: 'andromeda',
      secret: 'k7Q2-x9Pm',
      orders: ['B2-C3', 'B1-C1', 'N9#'],
      hostility: ['sith', 'knights'],
      vote: null,
    });
    expect(Object.keys(out).slice(0, 8)).toEqual([
      'automatic',
      'gameTag',
      'secret',
      'sheetText',
      'orders',
      'hostility',
      'vote',
      'eliminate',
    ]);
    // The greeting and the name are text, not problems (D-PARSE-16).
    expect(out.problems).toEqual([]);
    expect((out.ignored as { code: string; line: number }[]).map((p) => [p.line, p.code])).toEqual([
      [1, 'text-ignored'],
      [7, 'text-ignored'],
    ]);
  }, 60_000);

  it('takes the cap from --max-bytes and exits 0 for mail it will not read', async () => {
    const { code, stdout } = await sf(
      'mail',
      'inspect',
      fixture('02-gmail-android-reply-en.eml'),
      '--domain',
      'sf.example',
      '--max-bytes',
      '100',
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ oversized: true, orders: [], secret: 'W5nc-J8eu' });
  }, 60_000);

  it('exits 2 with one line when the file cannot be read', async () => {
    const { code, stdout, stderr } = await sf('mail', 'inspect', fixture('no-such-mail.eml'));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('ENOENT');
  }, 60_000);

  it('exits 2 with usage on bad arguments', async () => {
    for (const args of [
      ['mail'],
      ['mail', 'inspect'],
      ['mail', 'inspect', 'a.eml', '--frobnicate', 'x'],
      ['mail', 'inspect', 'a.eml', '--max-bytes', 'ten'],
    ]) {
      const { code, stderr } = await sf(...args);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});

describe('sf mail inspect reads commands as intake does', () => {
  it('STATUS (and STATO as the subject of an empty mail) is a command, not "not an order I understand"', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(path.join(tmpdir(), 'sf-inspect-'));
    const mail = (subject: string, body: string) =>
      `From: Anna <anna@example.com>\r\nTo: orders+k7Q2-x9Pm@sf.example\r\nSubject: ${subject}\r\nMessage-ID: <s1@example.com>\r\nDate: Thu, 26 Nov 2026 10:00:00 +0000\r\n\r\n${body}\r\n`;
    const cases = [
      ['status.eml', mail('[SF andromeda]', 'STATUS'), 'status'],
      ['stato.eml', mail('Re: [SF andromeda] stato', ''), 'status'],
      ['help.eml', mail('[SF andromeda]', 'aiuto'), 'help'],
      ['sheet.eml', mail('[SF andromeda]', 'B2-C3'), null],
    ] as const;
    for (const [name, text, command] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const { code, stdout } = await sf('mail', 'inspect', file, '--domain', 'sf.example');
      expect(code).toBe(0);
      const out = JSON.parse(stdout) as { command: string | null; problems: { code: string }[] };
      expect(out.command, name).toBe(command);
      if (command) expect(out.problems, name).toEqual([]);
    }
  }, 120_000);
});
