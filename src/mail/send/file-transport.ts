// Writes each outgoing mail as an RFC 5322 .eml file instead of sending it: the default when no
// SMTP relay is configured, and what tests and the referee can read. Atomic: a reader of the
// directory never sees half a file (write to a dot-file, fsync, rename).
import { hash as digest, randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Logger } from 'pino';
import { bracketed, toMailOptions } from './headers.ts';
import type { MailTransport, OutgoingMail } from './types.ts';

export async function composeMail(mail: OutgoingMail): Promise<Buffer> {
  return new MailComposer(toMailOptions(mail)).compile().build();
}

/** `20250314T101500123Z-<16 hex of sha256(Message-ID)>.eml`: sorts by time, unique per mail. */
export function emlFileName(messageId: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  const hash = digest('sha256', bracketed(messageId), 'hex').slice(0, 16);
  return `${stamp}-${hash}.eml`;
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export function createFileTransport(dir: string, log: Logger, now: () => Date = () => new Date()): MailTransport {
  return {
    async send(mail) {
      const raw = await composeMail(mail);
      await mkdir(dir, { recursive: true });
      const name = emlFileName(mail.messageId, now());
      // Dot-prefixed, so readers of the directory skip it; random, so concurrent sends never clash.
      const tmp = join(dir, `.${name}.${randomUUID()}.tmp`);
      try {
        const fh = await open(tmp, 'wx');
        try {
          await fh.writeFile(raw);
          await fh.sync(); // the rename must not publish a file whose bytes are not on disk yet
        } finally {
          await fh.close();
        }
        await rename(tmp, join(dir, name));
        await syncDir(dir); // make the rename itself survive a power cut
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      const messageId = bracketed(mail.messageId);
      log.info({ messageId, to: mail.to, file: name }, 'mail written');
      return { messageId };
    },
  };
}
