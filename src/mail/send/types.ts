/** A reply or notice the moderator sends. Addresses are RFC 5322 strings ("Name <a@b>" or "a@b"). */
export interface OutgoingMail {
  from: string;
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Chosen by the caller (stored before sending, so a retry reuses it): `<id@domain>`. */
  messageId: string;
  /** It answers the recipient's own mail (`Auto-Submitted: auto-replied`); otherwise `auto-generated`. */
  reply?: boolean;
  /** Message-ID of the player's mail we answer, so clients thread the reply. */
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  attachments?: OutgoingAttachment[];
}

export interface OutgoingAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Content-ID for a file shown inline by the HTML part. */
  cid?: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close?(): Promise<void>;
}
