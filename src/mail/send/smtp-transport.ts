// Sends through an SMTP relay given as a URL (SMTP_URL), e.g. smtps://user:pass@mail.example:465,
// over a small pool of connections (an edict goes to every player at once), DKIM-signed when a key
// is configured.
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { toMailOptions } from './headers.ts';
import type { MailTransport } from './types.ts';

export interface DkimSettings {
  domainName: string;
  keySelector: string;
  /** PEM. */
  privateKey: string;
}

export interface SmtpOptions {
  dkim?: DkimSettings | null;
  /** Connections kept open at once. */
  maxConnections?: number;
}

/** Connections the pool keeps open by default (bench:deadline compares raw nodemailer with as many). */
export const SMTP_POOL_CONNECTIONS = 3;

export function createSmtpTransport(smtpUrl: string, log: Logger, opts: SmtpOptions = {}): MailTransport & { close(): Promise<void> } {
  const transporter = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: opts.maxConnections ?? SMTP_POOL_CONNECTIONS,
    ...(opts.dkim ? { dkim: opts.dkim } : {}),
  });
  const safeUrl = smtpUrl.replace(/\/\/[^@/]*@/, '//***@'); // never log credentials
  return {
    async send(mail) {
      const info = await transporter.sendMail(toMailOptions(mail));
      log.info({ messageId: info.messageId, to: mail.to, smtp: safeUrl, response: info.response }, 'mail sent');
      return { messageId: info.messageId };
    },
    async close() {
      transporter.close();
    },
  };
}
