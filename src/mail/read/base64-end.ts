// Base64 ends at its padding (RFC 2045 §6.8; D-MAIL-36). Mail clients write a base64 part as one
// stream, padded once at its very end; letters after the padding were added on the way — a mail
// filter's notice, a list footer — and are not the player's. libbase64 (from 1.4, under mailparser
// 3.14) decodes every padded run as a fresh segment, so such a notice came out as a line of
// binary garbage under the orders. Before mailparser (or fast-body.ts) reads a mail, the base64
// letters after a part's first padding are cut out of it, so both read only what was written.
// The structure is found by mailsplit itself, the splitter mailparser runs, so the cut is made in
// exactly the bytes mailparser would decode as that part. extract-mime.ts still reports the
// damage to the player; the stored raw mail keeps every byte.
import mailsplit from '@zone-eu/mailsplit';
import { plainPart, withoutEnvelope } from './fast-body.ts';
import { shortenBlankRuns } from './linear.ts';

const EQUALS = 0x3d;

/** Whether `buf[from, to)` holds a base64 letter (what libbase64 decodes; the rest it skips). */
function hasLetter(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i]!;
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2b || b === 0x2f) return true;
  }
  return false;
}

/** The cut of a single-part mail whose base64 body starts at `body`: none, or one range. */
function afterPaddingIn(input: Buffer, body: number): Array<[number, number]> {
  let i = input.indexOf(EQUALS, body);
  if (i < 0) return [];
  while (input[i] === EQUALS) i++;
  return hasLetter(input, i, input.length) ? [[i, input.length]] : [];
}

/** Whether "base64", in any case, is anywhere in the mail: a cheap test that spares the split. */
function mentionsBase64(raw: Buffer): boolean {
  for (let i = raw.indexOf('64', 4); i >= 0; i = raw.indexOf('64', i + 2))
    if ((raw[i - 4]! | 0x20) === 0x62 && (raw[i - 3]! | 0x20) === 0x61 && (raw[i - 2]! | 0x20) === 0x73 && (raw[i - 1]! | 0x20) === 0x65)
      return true;
  return false;
}

/**
 * The ranges [from, to) of `raw` that are base64 letters after a part's first padding: from the
 * end of that padding to the end of the part, when a letter lies in there. Null when mailsplit
 * refuses the mail (mailparser then fails the same way) or its pieces do not add up to the input.
 */
async function afterPadding(raw: Buffer): Promise<Array<[number, number]> | null> {
  // Same splitter options as mailparser gets from extract-body.ts (ignoreEmbedded).
  const splitter = new mailsplit.Splitter({ ignoreEmbedded: true });
  splitter.end(raw);
  const cuts: Array<[number, number]> = [];
  let pos = 0;
  // The base64 part being read, and where its padding ended (-1 until one is seen).
  let part: unknown = null;
  let from = -1;
  let to = -1;
  const close = () => {
    if (from >= 0 && to > from && hasLetter(raw, from, to)) cuts.push([from, to]);
    part = null;
    from = to = -1;
  };
  try {
    for await (const chunk of splitter as AsyncIterable<mailsplit.MimeNode | mailsplit.MessageChunk>) {
      if (chunk.type === 'node') {
        close();
        pos += chunk.getHeaders().length;
        continue;
      }
      const start = pos;
      pos += chunk.value.length;
      if (chunk.type !== 'body' || chunk.node.encoding !== 'base64') {
        close();
        continue;
      }
      if (chunk.node !== part) {
        close();
        part = chunk.node;
      }
      if (from < 0) {
        let i = chunk.value.indexOf(EQUALS);
        if (i < 0) continue;
        while (chunk.value[i] === EQUALS) i++;
        from = start + i;
      }
      to = pos;
    }
  } catch {
    return null;
  }
  close();
  return pos === raw.length ? cuts : null;
}

/**
 * The mail to hand to the body readers: `raw` itself, or — when a base64 part goes on after its
 * padding — a copy without the letters that follow the padding of each such part.
 */
export async function endBase64AtPadding(raw: Buffer): Promise<Buffer> {
  const body = withoutEnvelope(raw);
  if (!mentionsBase64(body)) return raw;
  // The bytes mailparser is given (extract-body.ts), so that the split is the one it makes.
  const input = shortenBlankRuns(body);
  // A mail that is one text/plain part, as fast-body.ts reads it, needs no split (nor its wait
  // for the event loop): its body runs from the end of its headers to the end of the mail.
  const plain = plainPart(input);
  const cuts = plain ? (plain.cte === 'base64' ? afterPaddingIn(input, plain.body) : []) : await afterPadding(input);
  if (!cuts?.length) return raw;
  const pieces = [raw.subarray(0, raw.length - body.length)];
  let at = 0;
  for (const [from, to] of cuts) {
    pieces.push(input.subarray(at, from));
    at = to;
  }
  pieces.push(input.subarray(at));
  return Buffer.concat(pieces);
}
