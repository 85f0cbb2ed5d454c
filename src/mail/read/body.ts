// A mail's readable body, as mailparser (extract-body.ts) or the fast path for plain mail
// (fast-body.ts) gives it: its own file, so neither reader imports the other for the type.
export interface TextAttachment {
  filename: string | null;
  text: string;
}

export interface Body {
  /** The text/plain parts, or null when the mail has none. */
  text: string | null;
  /** The text/html parts, or null. */
  html: string | null;
  /** `.txt` and other text/plain attachments, decoded, in order. */
  attachments: TextAttachment[];
  /** How many attachments of any kind the mail carried (text ones included), when it carried any. */
  attached?: number;
}
