// Sends through an SMTP relay given as a URL (SMTP_URL), e.g. smtps://user:pass@mail.example:465.
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { toMailOptions } from './headers.ts';
import type { MailTransport } from './types.ts';

export function createSmtpTransport(smtpUrl: string, log: Logger): MailTransport & { close(): Promise<void> } {
  const transporter = createTransport(smtpUrl);
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
