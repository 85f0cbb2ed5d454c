// A throwaway Dovecot for integration tests, per /work/shared/dev/dovecot.md: its own temp dir,
// config, passwd files and loopback port; no SSL. Needs root (Dovecot serves mail as nobody) and
// the Debian package dovecot-imapd. Deviations from the recipe are commented in config().
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ImapFlow } from 'imapflow';
import type { ImapSettings } from '../../src/mail/sources/types.ts';

const NOBODY = 65534; // nobody:nogroup on Debian

export interface DovecotServer {
  host: string;
  port: number;
  dir: string;
  logPath: string;
  addUser(name: string, password: string): Promise<void>;
  /** Connection settings for a user added with addUser. */
  settings(user: string): ImapSettings;
  /** APPENDs a message; returns its UID. */
  append(user: string, mailbox: string, raw: Buffer | string, flags?: string[], date?: Date): Promise<number>;
  createMailbox(user: string, mailbox: string): Promise<void>;
  deleteMailbox(user: string, mailbox: string): Promise<void>;
  listUids(user: string, mailbox: string): Promise<number[]>;
  uidValidity(user: string, mailbox: string): Promise<string>;
  /** Kills the daemon (dropping every connection) but keeps mail, users and port. */
  stopDaemon(): Promise<void>;
  startDaemon(): Promise<void>;
  /** Kills the daemon and removes the directory. */
  stop(): Promise<void>;
}

export function findDovecot(): string | null {
  // /usr/sbin is not always on PATH for non-login shells.
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((d) => join(d, 'dovecot')).find((p) => existsSync(p)) ?? null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function config(d: string, port: number, extra: string): string {
  return `base_dir = ${d}/run
state_dir = ${d}/state
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = ${d}/dovecot.log
default_login_user = dovenull
default_internal_user = dovecot
mail_location = maildir:${d}/mail/%u
first_valid_uid = 1
# No mail_plugins needed: IDLE is built into imap, and Processed is a plain CREATEd mailbox.
mail_plugins =
namespace inbox {
  inbox = yes
}
# IDLE uses inotify; where that is unavailable, notice new mail within a second anyway.
mailbox_idle_check_interval = 1 secs
protocol imap {
  # tests open several sessions per user from 127.0.0.1 (default limit 10)
  mail_max_userip_connections = 100
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
}
# One passwd-file per user: Dovecot re-reads a changed passwd-file at most once a second, so a
# user appended to a shared file right after a lookup was "unknown" (seen in tests).
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${d}/users/%u
}
# A test with a wrong password should fail fast, not sleep.
auth_failure_delay = 0
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${d}/mail/%u
}
${extra}
`;
}

/**
 * Runs `dovecot -c conf`, which forks the master and exits. Its stderr goes to a file, not a pipe:
 * the daemon inherits the descriptors, so waiting for a pipe to close would wait forever.
 */
async function launch(bin: string, conf: string, errPath: string): Promise<void> {
  const errFile = await open(errPath, 'w');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', errFile.fd] });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`dovecot exited with ${code}: ${(await readFile(errPath, 'utf8')).trim()}`);
  } finally {
    await errFile.close();
  }
}

/** Resolves once the port answers with an IMAP greeting; rejects after `timeoutMs`. */
async function waitForGreeting(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = tcpConnect(port, '127.0.0.1');
      let buf = '';
      const done = (v: boolean) => (sock.destroy(), resolve(v));
      sock.setTimeout(1_000, () => done(false));
      sock.on('error', () => done(false));
      sock.on('data', (d) => {
        buf += d.toString('latin1');
        if (buf.includes('\n')) done(buf.startsWith('* OK'));
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`Dovecot did not answer on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Is any process of this process group still running? Read from /proc rather than `kill -0`,
 * because zombies count for kill and a container's PID 1 may take seconds to reap the master.
 */
async function groupAlive(pgid: number): Promise<boolean> {
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid pgrp ...": comm may contain spaces, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

export interface DovecotOptions {
  users?: Record<string, string>;
  /** Appended to dovecot.conf, e.g. `imap_capability = IMAP4rev1 MOVE` to hide IDLE. */
  extraConfig?: string;
}

export async function startDovecot(opts: DovecotOptions = {}): Promise<DovecotServer> {
  const bin = findDovecot();
  if (!bin) {
    throw new Error(
      'dovecot is not installed: run `apt-get update && apt-get install -y dovecot-imapd` ' +
        '(see /work/shared/dev/dovecot.md; .ci/run does this in CI)',
    );
  }
  if (process.getuid?.() !== 0) {
    throw new Error('the Dovecot test harness needs root: it serves mail as nobody:nogroup (see dovecot.md)');
  }
  const dir = await mkdtemp(join(tmpdir(), 'sf-dovecot-'));
  await chmod(dir, 0o755); // Dovecot's auth process runs as `dovecot` and must read the users file
  await mkdir(join(dir, 'mail'));
  await chown(join(dir, 'mail'), NOBODY, NOBODY); // Dovecot refuses to serve mail as uid 0
  await mkdir(join(dir, 'users'), { mode: 0o755 });
  let port = 0;
  const conf = join(dir, 'dovecot.conf');
  const logPath = join(dir, 'dovecot.log');
  const passwords = new Map<string, string>();

  const logTail = async () => (await readFile(logPath, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
  const masterPid = async () => Number((await readFile(join(dir, 'run', 'master.pid'), 'utf8')).trim());

  async function startDaemon(): Promise<void> {
    try {
      await launch(bin!, conf, join(dir, 'start.err'));
      await waitForGreeting(port, 10_000);
    } catch (err) {
      throw new Error(`Dovecot failed to start (${dir}): ${(err as Error).message}\n${await logTail()}`);
    }
  }

  /**
   * The daemonized master leads its own process group. Signalling only the master leaves logged-in
   * imap processes serving their clients (seen: a session survived a restart), so the whole group
   * is stopped: every client connection drops, as in a real server outage.
   */
  async function stopDaemon(): Promise<void> {
    const pgid = await masterPid().catch(() => NaN);
    if (!pgid || !(await groupAlive(pgid))) return;
    process.kill(-pgid, 'SIGTERM');
    for (let i = 0; i < 200 && (await groupAlive(pgid)); i++) await new Promise((r) => setTimeout(r, 25));
    if (await groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    for (let i = 0; i < 100 && (await groupAlive(pgid)); i++) await new Promise((r) => setTimeout(r, 20));
  }

  /** One short session per call, so tests never share connection state with the code under test. */
  async function withClient<T>(user: string, what: string, fn: (c: ImapFlow) => Promise<T>): Promise<T> {
    const c = new ImapFlow({ ...imapOptions(user), logger: false, disableAutoIdle: true });
    c.on('error', () => {}); // failures surface through the awaited command
    try {
      await c.connect();
      return await fn(c);
    } catch (err) {
      // imapflow's "Command failed" says nothing; the server's reason is in responseText.
      const e = err as Error & { responseText?: string };
      throw new Error(`Dovecot test ${what} as ${user} failed: ${e.message} ${e.responseText ?? ''}`.trim(), {
        cause: err,
      });
    } finally {
      await c.logout().catch(() => c.close());
    }
  }

  function imapOptions(user: string) {
    const pass = passwords.get(user);
    if (pass === undefined) throw new Error(`unknown Dovecot test user ${user}: call addUser first`);
    return { host: '127.0.0.1', port, secure: false, auth: { user, pass } };
  }

  // freePort() can race with another process grabbing the port before Dovecot binds it: retry.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    await writeFile(conf, config(dir, port, opts.extraConfig ?? ''));
    try {
      await startDaemon();
      break;
    } catch (err) {
      await stopDaemon();
      if (attempt >= 3 || !/in use/i.test((err as Error).message)) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const server: DovecotServer = {
    host: '127.0.0.1',
    port,
    dir,
    logPath,
    async addUser(name, password) {
      // The name becomes a file name and a passwd-file line: keep both unambiguous.
      if (!/^[\w.+-]+$/.test(name) || passwords.has(name) || /[:\n]/.test(password)) {
        throw new Error(`bad or duplicate test user ${name}`);
      }
      passwords.set(name, password);
      await writeFile(join(dir, 'users', name), `${name}:{PLAIN}${password}\n`, { mode: 0o644 });
    },
    settings(user) {
      const { host, auth } = imapOptions(user);
      return { host, port, user: auth.user, pass: auth.pass };
    },
    append: (user, mailbox, raw, flags, date) =>
      withClient(user, `APPEND ${mailbox}`, async (c) => {
        const res = await c.append(mailbox, typeof raw === 'string' ? Buffer.from(raw) : raw, flags, date);
        if (!res || res.uid === undefined) throw new Error(`APPEND to ${mailbox} failed`);
        return res.uid;
      }),
    createMailbox: (user, mailbox) => withClient(user, `CREATE ${mailbox}`, async (c) => void (await c.mailboxCreate(mailbox))),
    deleteMailbox: (user, mailbox) => withClient(user, `DELETE ${mailbox}`, async (c) => void (await c.mailboxDelete(mailbox))),
    listUids: (user, mailbox) =>
      withClient(user, `listUids ${mailbox}`, async (c) => {
        await c.mailboxOpen(mailbox, { readOnly: true });
        const uids = await c.search({ all: true }, { uid: true });
        return (uids || []).sort((a, b) => a - b);
      }),
    uidValidity: (user, mailbox) =>
      withClient(user, `uidValidity ${mailbox}`, async (c) => String((await c.mailboxOpen(mailbox, { readOnly: true })).uidValidity)),
    stopDaemon,
    startDaemon,
    async stop() {
      await stopDaemon();
      await rm(dir, { recursive: true, force: true });
    },
  };
  for (const [name, pass] of Object.entries(opts.users ?? {})) await server.addUser(name, pass);
  return server;
}
