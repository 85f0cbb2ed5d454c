// The body through mailparser: transfer encodings, charsets, format=flowed. We take its text and
// HTML as they are and do the rest (HTML → text, quotes, the sheet) ourselves.
import { simpleParser, type SimpleParserOptions } from 'mailparser';
import { endBase64AtPadding } from './base64-end.ts';
import type { Body, TextAttachment } from './body.ts';
import { decodeBytes, repairC1 } from './extract-charset.ts';
import { fastBody, withoutEnvelope } from './fast-body.ts';
import { hardenDepthChanges } from './flowed-depth.ts';
import { shortenBlankRuns } from './linear.ts';

const OPTIONS: SimpleParserOptions = {
  // The HTML is converted by html-text.ts, which keeps quotes recognisable; mailparser's own
  // conversion, links, text-as-HTML and inlined images are work we would throw away.
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  keepCidLinks: true,
  // A forwarded message marked inline is history, not new text: keep it out of `text`
  // (mailsplit's option; base64-end.ts splits with it too).
  ignoreEmbedded: true,
};

const BOM = /^\ufeff/;

// mailparser's typings promise strings, but `Content-Type: ;` gives a contentType that is not one
// (it once threw here, and a mail with a valid text part was answered "could not be parsed").
function isTextAttachment(a: { filename?: unknown; contentType?: unknown }): boolean {
  return (
    (typeof a.filename === 'string' && /\.txt$/i.test(a.filename)) ||
    (typeof a.contentType === 'string' && a.contentType.toLowerCase() === 'text/plain')
  );
}

function charsetOf(headers: Map<string, unknown>): string | null {
  const ct = headers.get('content-type') as { params?: Record<string, string> } | undefined;
  return ct?.params?.charset ?? null;
}

/** Parse the body. Rejects only when mailparser does; the caller reports that as broken MIME. */
export async function parseBody(raw: Buffer): Promise<Body> {
  // Most mail is one text/plain part, which fast-body.ts reads as mailparser would, 15–40× faster.
  // hardenDepthChanges: flowed lines of different quote depth are never joined (RFC 3676 §4.5).
  // endBase64AtPadding: a base64 part ends at its padding (D-MAIL-36).
  const input = await endBase64AtPadding(hardenDepthChanges(raw));
  return fastBody(input) ?? parseBodyWithMailparser(input);
}

/** parseBody through mailparser, for every mail; exported so tests can hold the fast path to it. */
export async function parseBodyWithMailparser(raw: Buffer): Promise<Body> {
  // shortenBlankRuns: mailparser's quoted-printable decoder is quadratic in a run of blanks.
  const mail = await simpleParser(shortenBlankRuns(withoutEnvelope(raw)), OPTIONS);
  const attachments: TextAttachment[] = [];
  for (const a of mail.attachments) {
    if (!isTextAttachment(a) || !Buffer.isBuffer(a.content)) continue;
    const text = decodeBytes(a.content, charsetOf(a.headers)).replace(BOM, '').replace(/\r\n?/g, '\n');
    attachments.push({ filename: typeof a.filename === 'string' ? a.filename : null, text });
  }
  // C1 repair: labels like ISO-8859-15 decode 0x80–0x9F as C1 controls, but Windows wrote those
  // bytes (mailparser itself already reads "ISO-8859-1" as windows-1252).
  const text = mail.text === undefined ? null : repairC1(mail.text).replace(BOM, '').replace(/\r\n?/g, '\n');
  const html = mail.html === false || mail.html === undefined ? null : repairC1(mail.html);
  return { text, html, attachments, ...(mail.attachments.length ? { attached: mail.attachments.length } : {}) };
}
