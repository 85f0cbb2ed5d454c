// Fuzzed mail shared by fuzz-mail.test.ts and reader-differential.ts: a person's reply with a
// sheet, built from a grammar and wrapped in what clients do to it (encodings, quoted history,
// HTML, multipart), and byte-level mutations of any mail.
import fc from 'fast-check';

const COLS = 'ABCDEFGHILMNOPQRSTUVWXY';
export const order = fc
  .tuple(fc.constantFrom(...COLS), fc.integer({ min: 1, max: 18 }), fc.constantFrom(...COLS), fc.integer({ min: 1, max: 18 }))
  .map(([a, r, b, s]) => `${a}${r}-${b}${s}`);
const quoteStyle = fc.constantFrom('none', 'marked', 'outlook', 'html-blockquote', 'html-hr');
const extraHeader = fc.constantFrom(
  'Precedence: bulk',
  'Auto-Submitted: no',
  'X-Mailer: Fuzz',
  'Received: from a (b) by c; Mon, 3 Mar 2025 10:00:00 +0100 (CET)',
  'Subject: =?UTF-8?Q?Re:_[SF_andromeda]_=E2=80=AE?=',
  'From: =?UTF-8?B?TWFyaW8=?= <mario.rossi@gmail.com>',
  'In-Reply-To: <sf.1@sf.example>',
  'Content-Disposition: inline',
);

function encode(text: string, cte: string): string {
  if (cte === 'base64') return Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  if (cte === 'quoted-printable') return text.replace(/=/g, '=3D').replace(/ $/gm, '=20');
  return text;
}

/** A reply whose new orders are `m.orders` (and whose quoted history holds `m.old`), in the charsets and transfer encodings given. */
export function grammarMail(o: { charsets: readonly string[]; encodings: readonly string[] }) {
  return fc
    .record({
      orders: fc.array(order, { minLength: 1, maxLength: 6 }),
      old: fc.array(order, { maxLength: 4 }),
      charset: fc.constantFrom(...o.charsets),
      cte: fc.constantFrom(...o.encodings),
      quote: quoteStyle,
      html: fc.boolean(),
      multipart: fc.boolean(),
      flowed: fc.boolean(),
      extra: fc.array(extraHeader, { maxLength: 3 }),
    })
    .map((m) => {
      let text = m.orders.join('\n');
      let html = `<div>${m.orders.join('</div><div>')}</div>`;
      if (m.old.length) {
        if (m.quote === 'marked')
          text += `\n\nOn Mon, 3 Mar 2025, SF <orders@sf.example> wrote:\n${m.old.map((x) => `> ${x} `).join('\n')}`;
        if (m.quote === 'outlook')
          text += `\n\n-----Original Message-----\nFrom: SF <orders@sf.example>\nSent: Monday\nSubject: x\n\n${m.old.join('\n')}`;
        if (m.quote === 'html-blockquote') html += `<div>On Mon, SF wrote:</div><blockquote type="cite">${m.old.join('<br>')}</blockquote>`;
        if (m.quote === 'html-hr')
          html += `<hr><b>From:</b> SF<br><b>Sent:</b> Monday<br><b>Subject:</b> x<br><p>${m.old.join('<br>')}</p>`;
      }
      const cs = m.charset ? `; charset=${m.charset}` : '';
      const textPart = `Content-Type: text/plain${cs}${m.flowed ? '; format=flowed' : ''}\r\nContent-Transfer-Encoding: ${m.cte}\r\n\r\n${encode(text, m.cte)}`;
      const htmlPart = `Content-Type: text/html${cs}\r\nContent-Transfer-Encoding: ${m.cte}\r\n\r\n${encode(html, m.cte)}`;
      const body = m.multipart
        ? `Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\n${textPart}\r\n--b\r\n${htmlPart}\r\n--b--\r\n`
        : m.html
          ? htmlPart
          : textPart;
      const head = [
        'From: Mario <mario.rossi@gmail.com>',
        'To: orders+k7Q2-x9Pm@sf.example',
        'Subject: Re: [SF andromeda] turno',
        'MIME-Version: 1.0',
        ...m.extra,
      ].join('\r\n');
      return { raw: Buffer.from(`${head}\r\n${body.replace(/\r?\n/g, '\r\n')}`, 'utf8'), m };
    });
}

/** What a mutation may insert: the bytes that MIME, header and HTML readers treat specially. */
export const INSERTS = [
  '\r\n',
  '\r\n\r\n',
  '--',
  '=?',
  '?=',
  ';',
  ':',
  '"',
  '(',
  '<',
  '>',
  ' '.repeat(500),
  '&nbsp;'.repeat(50),
  '<br>'.repeat(50),
  'Content-Type: ;\r\n',
  'format=flowed',
  '\u202e',
  '\u0000',
  '\xff\xfe',
];

/** A byte flipped, some text inserted, the mail cut short, or a run repeated (at most `maxTimes` times). */
export function mutation(o: { inserts: readonly string[]; maxTimes: number }) {
  return fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...o.inserts) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant('repeat' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 64 }),
      times: fc.integer({ min: 2, max: o.maxTimes }),
    }),
  );
}
export type Mutation = ReturnType<typeof mutation> extends fc.Arbitrary<infer T> ? T : never;

/** The mail with the mutations applied, in order (positions taken modulo its length). */
export function mutate(raw: Buffer, mutations: readonly Mutation[]): Buffer {
  for (const mu of mutations) {
    const at = mu.at % (raw.length + 1);
    if (mu.kind === 'flip') raw = Buffer.concat([raw.subarray(0, at), Buffer.from([mu.byte]), raw.subarray(at + 1)]);
    else if (mu.kind === 'insert') raw = Buffer.concat([raw.subarray(0, at), Buffer.from(mu.text, 'latin1'), raw.subarray(at)]);
    else if (mu.kind === 'cut') raw = raw.subarray(0, at);
    else {
      const unit = raw.subarray(at, at + mu.length);
      raw = Buffer.concat([raw.subarray(0, at), Buffer.alloc(mu.length * mu.times, unit.length ? unit : ' '), raw.subarray(at)]);
    }
  }
  return raw;
}
