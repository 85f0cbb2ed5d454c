// D-MAIL-36: a base64 part ends at its padding. What follows it in the same part (a mail filter's
// notice, a list footer) is not read — neither by mailparser, which since libbase64 1.4 would
// decode it as a further segment, nor by the fast path.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endBase64AtPadding } from '../../src/mail/read/base64-end.ts';
import { parseBody, parseBodyWithMailparser } from '../../src/mail/read/extract-body.ts';
import { extractMail } from '../../src/mail/read/extract.ts';
import { CORPUS_OPTIONS } from './corpus-options.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const b64 = (s: string | Buffer) => (Buffer.isBuffer(s) ? s : Buffer.from(s)).toString('base64').replace(/.{76}/g, '$&\r\n');
const NOTICE = '*** Attachment stripped by MailScanner: see https://scan.example/4711 ***';

describe('endBase64AtPadding', () => {
  it('reads fixture 32 (a filter notice after the padding) as the player wrote it, and still calls it damaged', async () => {
    const raw = readFileSync(`${FIXTURES}32-broken-bad-base64.eml`);
    const cut = await endBase64AtPadding(raw);
    expect(cut.toString('latin1')).toBe(raw.toString('latin1').replace(`\r\n${NOTICE}\r\n`, ''));
    expect((await parseBody(raw)).text).toBe('H: Hutt\nT12-T11\n');
    const mail = await extractMail(raw, CORPUS_OPTIONS);
    expect(mail.sheetText).toBe('H: Hutt\nT12-T11');
    expect(mail.broken).toMatch(/base64/);
  });

  it('leaves every other fixture as it is (the same buffer)', async () => {
    for (const f of readdirSync(FIXTURES).filter((f) => f.endsWith('.eml') && !f.startsWith('32-'))) {
      const raw = readFileSync(FIXTURES + f);
      expect(await endBase64AtPadding(raw), f).toBe(raw);
    }
  });

  it('cuts only inside the base64 part: boundaries, other parts and quoted-printable "=" stay', async () => {
    const raw = Buffer.from(
      [
        'From: a@example.org',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: base64',
        '',
        b64('V: Hutt\nA1-B2\n'),
        NOTICE,
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Disposition: attachment; filename="orders.txt"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'x=3Dy =E2=82=AC QQ=3D=3D after',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Disposition: attachment; filename="more.txt"',
        'Content-Transfer-Encoding: base64',
        '',
        b64('E: Sith'),
        '--b--',
        '',
      ].join('\r\n'),
    );
    const cut = await endBase64AtPadding(raw);
    expect(cut.toString()).toBe(raw.toString().replace(`\r\n${NOTICE}`, ''));
    const body = await parseBody(raw);
    expect(body).toEqual({
      text: 'V: Hutt\nA1-B2\n',
      html: null,
      attachments: [
        { filename: 'orders.txt', text: 'x=y € QQ== after' },
        { filename: 'more.txt', text: 'E: Sith' },
      ],
      attached: 2,
    });
  });

  it('reads per-line padded base64 up to its first padding only', async () => {
    const raw = Buffer.from(
      `Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n${b64('V: Hutt\n')}\r\n${b64('A3-B4\n')}\r\n`,
    );
    expect(await parseBodyWithMailparser(raw)).toMatchObject({ text: 'V: Hutt\nA3-B4\n' }); // libbase64 reads on
    expect(await parseBody(raw)).toMatchObject({ text: 'V: Hutt\n' });
  });

  it('keeps an mbox envelope line, and leaves mail without base64 or without padding alone', async () => {
    const mbox = Buffer.from(
      `From a@example.org Mon Mar  3 10:00:00 2025\nContent-Transfer-Encoding: BASE64\n\n${b64('A1-B2')}\n${NOTICE}\n`,
    );
    expect((await endBase64AtPadding(mbox)).toString()).toBe(mbox.toString().replace(`\n${NOTICE}\n`, ''));
    expect(await parseBody(mbox)).toMatchObject({ text: 'A1-B2' });
    const qp = Buffer.from('Content-Transfer-Encoding: quoted-printable\n\nA1-B2 =3D=3D more\n');
    expect(await endBase64AtPadding(qp)).toBe(qp);
    const unpadded = Buffer.from(`Content-Transfer-Encoding: base64\n\n${b64('A1-B2.')}\nQUJD\n`);
    expect(await endBase64AtPadding(unpadded)).toBe(unpadded);
  });

  // Any mail of base64 and quoted-printable parts, with or without something appended after the
  // padding of its base64 parts: read as the same mail without the appendix, on either path.
  it('reads generated mail as if nothing had been appended after any padding', async () => {
    const text = fc
      .string({ unit: fc.constantFrom(...'A1-B2 é€\n\r=V:H'), minLength: 1, maxLength: 40 })
      .filter((s) => Buffer.byteLength(s) % 3 !== 0);
    const appendix = fc.constantFrom('', '', NOTICE, 'QUJD', '=QUJD', ' \r\nQUJDRA==', '\r\n-- \r\nlist footer');
    const part = fc.record({
      text,
      cte: fc.constantFrom('base64', 'base64', 'Base64', 'quoted-printable'),
      type: fc.constantFrom('text/plain', 'text/html', 'text/plain; format=flowed'),
      attached: fc.boolean(),
      appendix,
      eol: fc.constantFrom('\r\n', '\n'),
    });
    const build = (parts: Array<typeof part extends fc.Arbitrary<infer T> ? T : never>, single: boolean, withAppendix: boolean) => {
      const one = (p: (typeof parts)[number]) => {
        const encoded =
          p.cte === 'quoted-printable'
            ? Buffer.from(p.text)
                .toString('latin1')
                .replace(/[=\x80-\xff]/g, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase()}`)
            : b64(p.text);
        const extra = withAppendix && p.cte !== 'quoted-printable' ? p.appendix : '';
        const head = [
          `Content-Type: ${p.type}; charset=utf-8`,
          `Content-Transfer-Encoding: ${p.cte}`,
          ...(p.attached ? ['Content-Disposition: attachment; filename="s.txt"'] : []),
        ];
        return `${head.join(p.eol)}${p.eol}${p.eol}${encoded}${extra ? p.eol + extra : ''}`;
      };
      if (single) return Buffer.from(`From: a@example.org\r\n${one(parts[0]!)}\r\n`);
      return Buffer.from(
        `From: a@example.org\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n${parts.map((p) => `--z\r\n${one(p)}\r\n`).join('')}--z--\r\n`,
      );
    };
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 3 }), fc.boolean(), async (parts, single) => {
        const clean = build(parts, single, false);
        const appended = build(parts, single, true);
        const expected = await parseBodyWithMailparser(clean);
        expect(await parseBody(appended)).toEqual(expected);
        expect(await parseBody(clean)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
