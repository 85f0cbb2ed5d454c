// Why a message's MIME is broken, in words for the reply (MAIL.md "Size and shape": broken MIME
// is read as far as it can be, and what cannot be read is answered with the reason). mailparser
// is lenient and silent — it reads a bad base64 part as garbage, an unknown charset as UTF-8, a
// cut message as complete — so this walks the structure separately, just to say what is wrong.
import { knownCharset } from './extract-charset.ts';
import { parseParams, type Head } from './extract-headers.ts';
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

class Walker {
  problems: MimeProblem[] = [];
  add(en: string, it: string): void {
    this.problems.push({ en, it });
  }
  parts = 0;

  entity(e: Entity, label: string, depth: number): void {
    if (++this.parts > MAX_PARTS || depth > MAX_DEPTH) {
      if (this.parts === MAX_PARTS + 1 || depth === MAX_DEPTH + 1)
        this.add('too many nested MIME parts; the rest was not read', 'troppe parti MIME annidate; il resto non è stato letto');
      return;
    }
    const ct = parseParams(e.contentType);
    const type = ct.value || 'text/plain';
    const where = label ? `part ${label} (${type})` : `the message (${type})`;
    const dove = label ? `la parte ${label} (${type})` : `il messaggio (${type})`;
    if (type.startsWith('multipart/')) return this.multipart(e.body, type, ct.params.boundary, label, depth);
    const encoding = (e.encoding ?? '').toLowerCase();
    if (!ENCODINGS.has(encoding))
      this.add(`${where} has an unknown transfer encoding "${e.encoding}"`, `${dove} ha una codifica di trasferimento sconosciuta "${e.encoding}"`);
    // Only text matters to a sheet: a damaged picture is not worth a complaint.
    if (!type.startsWith('text/')) return;
    if (ct.params.charset !== undefined && !knownCharset(ct.params.charset))
      this.add(
        `${where} declares an unknown charset "${ct.params.charset}"; it was read as UTF-8`,
        `${dove} dichiara un set di caratteri sconosciuto "${ct.params.charset}"; è stata letta come UTF-8`,
      );
    if (encoding === 'base64') {
      const data = e.body.replace(/[\s]+/g, '');
      if (/[^A-Za-z0-9+/=]/.test(data) || /=[^=]/.test(data) || data.length % 4 === 1)
        this.add(`${where} is not valid base64; what could be decoded was read`, `${dove} non è base64 valido; è stato letto quanto si poteva decodificare`);
    }
  }

  multipart(body: string, type: string, boundary: string | undefined, label: string, depth: number): void {
    const name = label ? `part ${label} (${type})` : `the message (${type})`;
    const nome = label ? `la parte ${label} (${type})` : `il messaggio (${type})`;
    if (!boundary) {
      this.add(`${name} has no boundary`, `${nome} non ha un separatore (boundary)`);
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
      this.add(`${name} has no parts: its boundary never appears`, `${nome} non ha parti: il suo separatore non compare mai`);
      return;
    }
    if (!closed) this.add(`${name} is not closed by its boundary: the message may be cut short`, `${nome} non è chiuso dal suo separatore: il messaggio potrebbe essere troncato`);
    bodies.forEach((b, i) => this.entity(splitEntity(b), label ? `${label}.${i + 1}` : `${i + 1}`, depth + 1));
  }
}

/** What is wrong with a message's structure, in words; empty when nothing is. */
export function mimeProblems(raw: Buffer, head: Head): MimeProblem[] {
  const w = new Walker();
  if (head.bodyOffset === null) w.add('the message ends inside its headers: there is no body', 'il messaggio finisce dentro le intestazioni: manca il corpo');
  if (head.malformed > 0) w.add(`${head.malformed} header line(s) are not headers`, `${head.malformed} righe di intestazione non sono intestazioni`);
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
