// Bytes → text for the parts of a mail that mailparser leaves to us (headers, .txt attachments),
// and the one repair that mailparser's own decoding needs. Never throws: MAIL.md says invalid
// bytes never crash anything, so every fallback ends in a decoder that cannot fail.

// Labels that say nothing reliable: "us-ascii" on 8-bit text is almost always UTF-8 typed by a
// client that never looked, and WHATWG would read it as Windows-1252.
const VAGUE = new Set(['', 'us-ascii', 'ascii', 'ansi_x3.4-1968', 'us', 'default', 'x-user-defined']);

// Charsets iconv-lite (mailparser's decoder) reads but WHATWG's TextDecoder does not: they decode
// fine in a body, so declaring them is not "broken MIME".
const ICONV_ONLY =
  /^(?:cp|ibm|x-ibm|windows-)?(?:437|737|775|850|852|855|857|858|860|861|862|863|864|865|866|869)$|^utf-?7$|^utf-?32(?:le|be)?$/i;

function clean(charset: string | null | undefined): string {
  return (charset ?? '')
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/\*.*$/, '')
    .toLowerCase();
}

/** Whether a declared charset is one that mail software can decode. */
export function knownCharset(charset: string): boolean {
  const c = clean(charset);
  if (VAGUE.has(c) || ICONV_ONLY.test(c)) return true;
  try {
    new TextDecoder(c);
    return true;
  } catch {
    return false;
  }
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const cp1252 = new TextDecoder('windows-1252');

/**
 * Decode bytes as declared. Without a (usable) declaration: UTF-8 when the bytes are valid UTF-8,
 * otherwise Windows-1252 — what Notepad and old Windows clients write. A byte order mark wins
 * over the declaration (a UTF-16 .txt from Notepad is declared as nothing, or wrongly).
 */
export function decodeBytes(bytes: Uint8Array, charset?: string | null): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const c = clean(charset);
  if (!VAGUE.has(c)) {
    try {
      return repairC1(new TextDecoder(c).decode(bytes));
    } catch {
      // unknown label: guess below
    }
  }
  try {
    return utf8Strict.decode(bytes);
  } catch {
    // repairC1 too: Node 20's TextDecoder reads "windows-1252" as plain Latin-1 (0x80–0x9F come out as C1 controls).
    return repairC1(cp1252.decode(bytes));
  }
}

// Windows-1252 meanings of 0x80–0x9F, for text that was declared ISO-8859-1 but typed on Windows
// (the en dash Outlook puts in "B2 – C3" is byte 0x96). C1 controls never belong in a sheet.
const C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** Replace C1 control characters by their Windows-1252 meaning. */
export function repairC1(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => C1[c.charCodeAt(0) - 0x80] ?? c);
}
