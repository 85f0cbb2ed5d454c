// fast-body.ts copies what mailparser and the packages it reads a body with really do. A new
// version of any of them may read differently, and fast-body.test.ts only sees the shapes it
// generates: so an upgrade stops here until the mirror is read against the new code again.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIRRORED_VERSIONS } from '../../src/mail/read/fast-body.ts';

/** The package.json of `name` as code in `from` (a file or directory) resolves it. */
function packageJsonOf(name: string, from: string): { file: string; version: string } {
  let dir = path.dirname(createRequire(path.join(from, 'noop.js')).resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (json.name === name) return { file, version: json.version };
    } catch {
      // no package.json at this level (or a bare {"type": …} one): go up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json found for ${name}`);
    dir = parent;
  }
}

describe('the packages fast-body.ts mirrors', () => {
  it('are the versions it was written against, as mailparser resolves them', () => {
    const repo = path.resolve(import.meta.dirname, '../..');
    const mailparser = packageJsonOf('mailparser', repo);
    const mailsplit = packageJsonOf('@zone-eu/mailsplit', path.dirname(mailparser.file));
    const libmime = packageJsonOf('libmime', path.dirname(mailparser.file));
    const installed = {
      mailparser: mailparser.version,
      '@zone-eu/mailsplit': mailsplit.version,
      libmime: libmime.version,
      // mailsplit's node decoders, and the charset decoders behind libmime
      libqp: packageJsonOf('libqp', path.dirname(mailsplit.file)).version,
      libbase64: packageJsonOf('libbase64', path.dirname(mailsplit.file)).version,
      'iconv-lite': packageJsonOf('iconv-lite', path.dirname(libmime.file)).version,
    };
    expect(installed, 'a package fast-body.ts mirrors was upgraded: see MIRRORED_VERSIONS').toEqual(MIRRORED_VERSIONS);
  });

  it('include the one mailsplit that base64-end.ts splits with, so both find the same parts', () => {
    const repo = path.resolve(import.meta.dirname, '../..');
    const ours = packageJsonOf('@zone-eu/mailsplit', path.join(repo, 'src/mail/read'));
    const mailparsers = packageJsonOf('@zone-eu/mailsplit', path.dirname(packageJsonOf('mailparser', repo).file));
    expect(ours.file).toBe(mailparsers.file);
  });
});
