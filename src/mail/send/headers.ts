// Headers every outgoing mail carries, and the one place that turns an OutgoingMail into
// nodemailer's options, so the SMTP and file transports write the same message.
import type { SendMailOptions } from 'nodemailer';
import { bracketed } from '../../db/outbox.ts';
import type { OutgoingMail } from './types.ts';

export { bracketed };

/** Marks our own mail so the intake recognises and never answers it (MAIL.md: loops). */
export const SF_ORIGIN_HEADER = 'X-SF-Origin';
export const SF_ORIGIN_VALUE = 'starts-foundation';
/**
 * RFC 3834: mail no person wrote; vacation responders and well-behaved robots must not answer it.
 * `auto-replied` only on an answer to the recipient's own mail, `auto-generated` on the rest
 * (edicts, notices, reminders, broadcasts).
 */
export const AUTO_SUBMITTED_HEADER = 'Auto-Submitted';
export const AUTO_REPLIED = 'auto-replied';
export const AUTO_GENERATED = 'auto-generated';

export const OUTGOING_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  [SF_ORIGIN_HEADER]: SF_ORIGIN_VALUE,
  // Exchange and Outlook honour this instead of RFC 3834: no out-of-office replies to us.
  'X-Auto-Response-Suppress': 'All',
});

export function toMailOptions(mail: OutgoingMail): SendMailOptions {
  // Callers may add headers but never override or duplicate ours (header names are case-insensitive).
  const ours = new Set([...Object.keys(OUTGOING_HEADERS), AUTO_SUBMITTED_HEADER].map((k) => k.toLowerCase()));
  const extra = Object.entries(mail.headers ?? {}).filter(([k]) => !ours.has(k.toLowerCase()));
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    messageId: bracketed(mail.messageId),
    ...(mail.inReplyTo ? { inReplyTo: bracketed(mail.inReplyTo) } : {}),
    ...(mail.references?.length ? { references: mail.references.map(bracketed) } : {}),
    headers: { ...Object.fromEntries(extra), ...OUTGOING_HEADERS, [AUTO_SUBMITTED_HEADER]: mail.reply ? AUTO_REPLIED : AUTO_GENERATED },
    ...(mail.attachments?.length
      ? {
          attachments: mail.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
            ...(a.cid ? { cid: a.cid } : {}),
          })),
        }
      : {}),
    // Content is ours: never let a stray path or URL in a template make nodemailer read files.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
