// Why a message's MIME is broken, in words for the reply (MAIL.md "Size and shape": broken MIME
// is read as far as it can be, and what cannot be read is answered with the reason). mailparser
// is lenient and silent — it reads a bad base64 part as garbage, an unknown charset as UTF-8, a
// cut message as complete — so this walks the structure separately, just to say what is wrong.
import { knownCharset } from './extract-charset.ts';
import { parseParams, type Head } from './extract-headers.ts';
import { inBoth } from '../../text/define.ts';
import { mailDamageTexts } from '../../text/mail-damage.ts';
import { trimEndBlanks } from './linear.ts';

const MAX_DEPTH = 20;
const MAX_PARTS = 1000;
const ENCODINGS = new Set(['', '7bit', '8bit', 'binary', 'quoted-printable', 'base64']);

interface Entity {
  contentType: string | null;
  encoding: string | null;
  body: string;
}

/** Headers and body of a MIME part (the body as a latin1 string: only its shape matters). */
function splitEntity(text: string): Entity {
  const m = /\r?\n\r?\n/.exec(text);
  const headText = m ? text.slice(0, m.index) : text;
  const body = m ? text.slice(m.index + m[0].length) : '';
  const fields = headText.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  const get = (name: string) => {
    const re = new RegExp(`^${name}\\s*:\\s*(.*)$`, 'i');
    for (const f of fields) {
      const v = re.exec(f);
      if (v) return v[1]!.trim();
    }
    return null;
  };
  return { contentType: get('content-type'), encoding: get('content-transfer-encoding'), body };
}

/** A reason in both languages of the reply. */
export interface MimeProblem {
  en: string;
  it: string;
}

type Words = (typeof mailDamageTexts)['en'];

class Walker {
  problems: MimeProblem[] = [];
  add(say: (t: Words) => string): void {
    const { en, it } = inBoth(mailDamageTexts, say);
    this.problems.push({ en, it });
  }
  parts = 0;

  entity(e: Entity, label: string, depth: number): void {
    if (++this.parts > MAX_PARTS || depth > MAX_DEPTH) {
      if (this.parts === MAX_PARTS + 1 || depth === MAX_DEPTH + 1) this.add((t) => t.tooDeep);
      return;
    }
    const ct = parseParams(e.contentType);
    const type = ct.value || 'text/plain';
    if (type.startsWith('multipart/')) return this.multipart(e.body, type, ct.params.boundary, label, depth);
    const encoding = (e.encoding ?? '').toLowerCase();
    if (!ENCODINGS.has(encoding)) this.add((t) => t.unknownEncoding(t.where(label, type), e.encoding));
    // Only text matters to a sheet: a damaged picture is not worth a complaint.
    if (!type.startsWith('text/')) return;
    const charset = ct.params.charset;
    if (charset !== undefined && !knownCharset(charset)) this.add((t) => t.unknownCharset(t.where(label, type), charset));
    if (encoding === 'base64') {
      const data = e.body.replace(/[\s]+/g, '');
      if (/[^A-Za-z0-9+/=]/.test(data) || /=[^=]/.test(data) || data.length % 4 === 1) this.add((t) => t.badBase64(t.where(label, type)));
    }
  }

  multipart(body: string, type: string, boundary: string | undefined, label: string, depth: number): void {
    if (!boundary) {
      this.add((t) => t.noBoundary(t.where(label, type)));
      return;
    }
    const open = `--${boundary}`;
    const close = `--${boundary}--`;
    const bodies: string[] = [];
    let closed = false;
    let current: string[] | null = null;
    for (const line of body.split('\n')) {
      const t = trimEndBlanks(line, true);
      if (t === close) {
        if (current) bodies.push(current.join('\n'));
        current = null;
        closed = true;
        break;
      }
      if (t === open) {
        if (current) bodies.push(current.join('\n'));
        current = [];
      } else current?.push(line);
    }
    if (current) bodies.push(current.join('\n'));
    if (bodies.length === 0) {
      this.add((t) => t.noParts(t.where(label, type)));
      return;
    }
    if (!closed) this.add((t) => t.notClosed(t.where(label, type)));
    bodies.forEach((b, i) => this.entity(splitEntity(b), label ? `${label}.${i + 1}` : `${i + 1}`, depth + 1));
  }
}

/** What is wrong with a message's structure, in words; empty when nothing is. */
export function mimeProblems(raw: Buffer, head: Head): MimeProblem[] {
  const w = new Walker();
  if (head.bodyOffset === null) w.add((t) => t.endsInHeaders);
  if (head.malformed > 0) w.add((t) => t.malformedHeaders(head.malformed));
  const get = (name: string) => head.fields.find((f) => f.name === name)?.value ?? null;
  // Without a body there is no structure to judge: "ends inside its headers" says it all.
  if (head.bodyOffset !== null)
    w.entity(
      { contentType: get('content-type'), encoding: get('content-transfer-encoding'), body: raw.toString('latin1', head.bodyOffset) },
      '',
      0,
    );
  return w.problems;
}
