import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes, knownCharset, repairC1 } from '../../src/mail/read/extract-charset.ts';
import { addresses, decodeWords, parseParams, readHead, receivedAt } from '../../src/mail/read/extract-headers.ts';
import { mimeProblems } from '../../src/mail/read/extract-mime.ts';
import { extractMail } from '../../src/mail/read/extract.ts';
import { CORPUS_OPTIONS } from './corpus-options.ts';

const mail = (s: string) => Buffer.from(s.replace(/\n/g, '\r\n'), 'utf8');

describe('extractMail', () => {
  it('reads envelope fields', async () => {
    const got = await extractMail(
      mail(
        'Received: from x by mx.sf.example; Mon, 3 Mar 2025 10:14:02 +0100 (CET)\nFrom: =?UTF-8?Q?Mario_Rossi_=C3=A8?= <Mario.Rossi@Gmail.com>\nReply-To: <mr@example.it>\n' +
          'To: a@example.it, Orders+k7Q2-x9Pm@sf.example\nCc: b@example.it\nMessage-ID: <abc@mail.gmail.com>\nIn-Reply-To: <sf.1@sf.example>\n' +
          'References: <sf.0@sf.example>\n <sf.1@sf.example>\nDate: Sun, 2 Mar 2025 23:59:00 +0100\nSubject: Re: [SF andromeda] ordini\n\nB2-C3\n',
      ),
      CORPUS_OPTIONS,
    );
    expect(got).toMatchObject({
      messageId: '<abc@mail.gmail.com>',
      inReplyTo: '<sf.1@sf.example>',
      references: ['<sf.0@sf.example>', '<sf.1@sf.example>'],
      from: 'mario.rossi@gmail.com',
      fromName: 'Mario Rossi è',
      replyTo: 'mr@example.it',
      recipients: ['a@example.it', 'Orders+k7Q2-x9Pm@sf.example', 'b@example.it'],
      subject: 'Re: [SF andromeda] ordini',
      gameTag: 'andromeda',
      secret: 'k7Q2-x9Pm',
      sheetText: 'B2-C3',
      sheetSource: 'text',
      receivedAt: '2025-03-03T09:14:02.000Z',
      automatic: false,
      oversized: false,
      broken: null,
    });
  });

  it('does not parse the body of oversized mail but still reads its headers', async () => {
    const raw = mail(`From: a@example.it\nTo: orders+k7Q2-x9Pm@sf.example\nMessage-ID: <big@x>\n\n${'B2-C3\n'.repeat(100)}`);
    const got = await extractMail(raw, { ...CORPUS_OPTIONS, maxBytes: 100 });
    expect(got).toMatchObject({
      oversized: true,
      from: 'a@example.it',
      messageId: '<big@x>',
      secret: 'k7Q2-x9Pm',
      sheetText: '',
      sheetSource: 'none',
    });
  });

  it('never reads automatic mail as a sheet', async () => {
    const got = await extractMail(
      mail('From: a@example.it\nAuto-Submitted: auto-replied\nSubject: [SF andromeda] x\n\nB2-C3\n'),
      CORPUS_OPTIONS,
    );
    expect(got).toMatchObject({ automatic: true, automaticReasons: ['Auto-Submitted: auto-replied'], sheetText: '', gameTag: 'andromeda' });
  });

  it('prefers text/plain, falls back to HTML when the text part is empty', async () => {
    const alt = (text: string) =>
      mail(
        `From: a@example.it\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\n${text}\n--b\nContent-Type: text/html\n\n<div>B1-C1</div>\n--b--\n`,
      );
    expect(await extractMail(alt('B2-C3'), CORPUS_OPTIONS)).toMatchObject({ sheetText: 'B2-C3', sheetSource: 'text' });
    expect(await extractMail(alt(' '), CORPUS_OPTIONS)).toMatchObject({ sheetText: 'B1-C1', sheetSource: 'html' });
  });

  it('keeps the body when both body and attachment have sheet lines', async () => {
    const raw = mail(
      'From: a@example.it\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nB2-C3\n' +
        '--b\nContent-Type: text/plain; name=o.txt\nContent-Disposition: attachment; filename=o.txt\n\nB1-C1\n--b--\n',
    );
    expect(await extractMail(raw, CORPUS_OPTIONS)).toMatchObject({ sheetText: 'B2-C3', sheetSource: 'text' });
  });

  it('does not read a forwarded message/rfc822 part, even one marked inline', async () => {
    const raw = mail(
      'From: a@example.it\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nB2-C3\n' +
        '--b\nContent-Type: message/rfc822\nContent-Disposition: inline\n\nFrom: SF <orders@sf.example>\nSubject: old\n\nB2-C9\n--b--\n',
    );
    expect(await extractMail(raw, CORPUS_OPTIONS)).toMatchObject({ sheetText: 'B2-C3', sheetSource: 'text', broken: null });
  });

  it('reads a text part Apple Mail marks inline with a file name as body text (mailparser merges it)', async () => {
    const raw = mail(
      'From: a@example.it\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nIn allegato.\n' +
        '--b\nContent-Type: text/plain; name=ordini.txt\nContent-Disposition: inline; filename=ordini.txt\n\nB2-C3\n--b--\n',
    );
    expect(await extractMail(raw, CORPUS_OPTIONS)).toMatchObject({ sheetText: 'In allegato.\nB2-C3', sheetSource: 'text' });
  });

  it('never throws, whatever it is given', async () => {
    for (const raw of [Buffer.alloc(0), Buffer.from('\r\n\r\n'), Buffer.from('garbage'), Buffer.from([0, 255, 254, 10, 10, 0])]) {
      const got = await extractMail(raw, CORPUS_OPTIONS);
      expect(typeof got.sheetText).toBe('string');
    }
  });
});

describe('extractMail: property', () => {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => readFileSync(path.join(dir, f)));
  const check = (got: Awaited<ReturnType<typeof extractMail>>) => {
    expect(typeof got.sheetText).toBe('string');
    expect(typeof got.automatic).toBe('boolean');
    expect(Array.isArray(got.recipients)).toBe(true);
  };

  it('never throws on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), async (bytes) => check(await extractMail(Buffer.from(bytes), CORPUS_OPTIONS))),
      { numRuns: 300 },
    );
  }, 60_000);

  it('never throws on mutated real mail (cut, spliced, header lines duplicated or garbled)', async () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 64 }) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 200 }) }),
      fc.record({
        kind: fc.constant('header' as const),
        line: fc.constantFrom(
          'Content-Type: multipart/mixed; boundary=',
          'Content-Type: text/plain; charset="x-\u00ff"',
          'Content-Transfer-Encoding: base64',
          'Content-Type: multipart/alternative; boundary="',
          'From: <<@>>',
          'Subject: =?UTF-8?B?W1NGIGFuZHJvbWVkYV0?=',
          'Subject: =?x-unknown?Q?=FF=FE?=',
          'To: "orders+',
          'Content-Type: message/rfc822',
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fixtures), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (fixture, mutations) => {
        let raw: Buffer = fixture;
        for (const m of mutations) {
          const at = 'at' in m ? m.at % (raw.length + 1) : 0;
          if (m.kind === 'cut') raw = raw.subarray(0, at);
          else if (m.kind === 'insert') raw = Buffer.concat([raw.subarray(0, at), Buffer.from(m.bytes), raw.subarray(at)]);
          else if (m.kind === 'delete') raw = Buffer.concat([raw.subarray(0, at), raw.subarray(at + m.length)]);
          else raw = Buffer.concat([Buffer.from(`${m.line}\r\n`), raw]);
        }
        check(await extractMail(raw, CORPUS_OPTIONS));
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe('headers', () => {
  it('unfolds and keeps repeated headers apart; skips an mbox "From " line', () => {
    const head = readHead(
      Buffer.from('From mario@x Mon Mar  3 10:00:00 2025\nDelivered-To: a@x\nDelivered-To: b@x\nSubject: one\n two\n\nbody'),
    );
    expect(head.fields).toEqual([
      { name: 'delivered-to', value: 'a@x' },
      { name: 'delivered-to', value: 'b@x' },
      { name: 'subject', value: 'one two' },
    ]);
    expect(head.malformed).toBe(0);
  });

  it('finds no body when the headers never end', () => {
    expect(readHead(Buffer.from('From: a@x\r\nSubject: cut')).bodyOffset).toBeNull();
    expect(readHead(Buffer.from('\r\nbody')).bodyOffset).toBe(2);
  });

  it('decodes RFC 2047 words, joining adjacent ones and split characters', () => {
    expect(decodeWords('=?UTF-8?B?UmU6IFtTRiBhbmRyb21lZGFdIE9zdGlsaXTDoA==?=')).toBe('Re: [SF andromeda] Ostilità');
    expect(decodeWords('=?UTF-8?Q?Ostilit=C3?= =?UTF-8?Q?=A0_e_voto?=')).toBe('Ostilità e voto');
    expect(decodeWords('Re: =?iso-8859-1?q?ostilit=E0?= [SF andromeda]')).toBe('Re: ostilità [SF andromeda]');
    expect(decodeWords('=?windows-1252?Q?B2_=96_C3?=')).toBe('B2 – C3');
    expect(decodeWords('=?x-unknown?Q?abc?=')).toBe('abc');
    expect(decodeWords('plain [SF andromeda]')).toBe('plain [SF andromeda]');
  });

  it('reads raw UTF-8 and raw Latin-1 header bytes', () => {
    expect(readHead(Buffer.from('Subject: Ostilità\r\n\r\n', 'utf8')).fields[0]!.value).toBe('Ostilità');
    expect(readHead(Buffer.from('Subject: Ostilit\xe0\r\n\r\n', 'latin1')).fields[0]!.value).toBe('Ostilità');
  });

  it('parses addresses and parameters', () => {
    expect(addresses('"Rossi, Mario" <mario@x.it>, Team: a@x.it, b@x.it;')).toEqual([
      { name: 'Rossi, Mario', address: 'mario@x.it' },
      { name: '', address: 'a@x.it' },
      { name: '', address: 'b@x.it' },
    ]);
    expect(parseParams('multipart/mixed; boundary="----=_Part_1"; charset=UTF-8')).toEqual({
      value: 'multipart/mixed',
      params: { boundary: '----=_Part_1', charset: 'UTF-8' },
    });
    expect(parseParams("attachment; filename*0*=utf-8''ordini%20di; filename*1*=%20Mario.txt").params.filename).toBe('ordini di Mario.txt');
  });

  it('takes the received time from the topmost Received header', () => {
    const head = readHead(
      Buffer.from('Received: by b; Tue, 4 Mar 2025 10:00:00 +0000\r\nReceived: by a; Mon, 3 Mar 2025 10:00:00 +0000\r\n\r\n'),
    );
    expect(receivedAt(head)).toBe('2025-03-04T10:00:00.000Z');
  });
});

describe('charsets', () => {
  it('decodes by BOM, then by the declared charset, then UTF-8, then Windows-1252', () => {
    expect(decodeBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), 'latin1')).toBe('A');
    expect(decodeBytes(Buffer.from('\ufeffOstilità', 'utf16le'))).toBe('Ostilità');
    expect(decodeBytes(Buffer.from('Ostilit\xe0', 'latin1'), 'iso-8859-1')).toBe('Ostilità');
    expect(decodeBytes(Buffer.from('Ostilità', 'utf8'), 'us-ascii')).toBe('Ostilità');
    expect(decodeBytes(Buffer.from('Ostilit\xe0 \x96', 'latin1'))).toBe('Ostilità –');
    expect(decodeBytes(Buffer.from('abc'), 'no-such-charset')).toBe('abc');
  });

  it('repairs C1 controls to their Windows-1252 meaning', () => {
    expect(repairC1('B2 \u0096 C3 \u0093x\u0094')).toBe('B2 – C3 “x”');
  });

  it('knows which charsets exist', () => {
    expect(['utf-8', 'UTF8', 'iso-8859-15', 'windows-1252', 'us-ascii', 'cp850', 'ks_c_5601-1987', '"utf-8"'].every(knownCharset)).toBe(
      true,
    );
    expect(['unknown-8bit', 'x-no-such', 'utf-9'].some(knownCharset)).toBe(false);
  });
});

describe('mimeProblems', () => {
  const problems = (s: string) => {
    const raw = Buffer.from(s.replace(/\n/g, '\r\n'), 'latin1');
    return mimeProblems(raw, readHead(raw)).map((p) => p.en);
  };

  it('finds nothing wrong with sound mail', () => {
    expect(
      problems(
        'Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\nQjItQzM=\n--b--\n',
      ),
    ).toEqual([]);
  });

  it.each([
    ['a missing closing boundary', 'Content-Type: multipart/mixed; boundary=b\n\n--b\n\nB2-C3\n', 'not closed'],
    ['a boundary that never appears', 'Content-Type: multipart/mixed; boundary=b\n\nB2-C3\n', 'never appears'],
    ['a multipart without boundary', 'Content-Type: multipart/mixed\n\nB2-C3\n', 'no boundary'],
    ['bad base64', 'Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\nQjItQzM=\n*** scanned ***\n', 'not valid base64'],
    ['an unknown charset', 'Content-Type: text/plain; charset=unknown-8bit\n\nB2-C3\n', 'unknown charset "unknown-8bit"'],
    [
      'an unknown transfer encoding',
      'Content-Type: text/plain\nContent-Transfer-Encoding: x-uuencode\n\nB2-C3\n',
      'unknown transfer encoding',
    ],
    ['headers that never end', 'From: a@x\nSubject: cut', 'ends inside its headers'],
    ['garbage among the headers', 'From: a@x\nthis is not a header\n\nB2-C3', 'are not headers'],
  ])('reports %s, in both languages', (_what, raw, words) => {
    expect(problems(raw).join('\n')).toContain(words);
  });

  it('does not complain about a damaged picture', () => {
    expect(
      problems(
        'Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: image/jpeg\nContent-Transfer-Encoding: base64\n\n!!!\n--b--\n',
      ),
    ).toEqual([]);
  });
});
