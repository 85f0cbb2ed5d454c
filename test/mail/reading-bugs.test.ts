// Smaller reading bugs, each reproduced: odd headers, automatic mail, control characters, our
// own private address as From.
import { describe, expect, it } from 'vitest';
import { automaticReasons } from '../../src/mail/read/automatic.ts';
import { readHead } from '../../src/mail/read/extract-headers.ts';
import { extractMail } from '../../src/mail/read/extract.ts';
import { inspectMail } from '../../src/mail/read/inspect.ts';
import { visible } from '../../src/mail/read/visible.ts';
import { CORPUS_OPTIONS } from './corpus-options.ts';

const mail = (s: string) => Buffer.from(s.replace(/\n/g, '\r\n'), 'utf8');
const reasons = (headers: string) =>
  automaticReasons(readHead(mail(`From: Mario <mario.rossi@gmail.com>\nTo: orders@sf.example\n${headers}\nB2-C3\n`)));

describe('Content-Type: ; on an attachment', () => {
  const raw = mail(
    'From: mario.rossi@gmail.com\nTo: orders+k7Q2-x9Pm@sf.example\nSubject: ordini\nContent-Type: multipart/mixed; boundary=b\n\n' +
      '--b\nContent-Type: text/plain; charset=utf-8\n\nB2-C3\n--b\nContent-Type: ;\nContent-Disposition: attachment; filename=x.bin\n\nxxx\n--b--\n',
  );
  it('does not stop the text part being read, and no reason quotes an internal error', async () => {
    const got = await inspectMail(raw, CORPUS_OPTIONS);
    expect(got.orders).toEqual(['B2-C3']);
    // It was 'the message could not be parsed (a.contentType.toLowerCase is not a function)'.
    expect(got.broken).toBeNull();
  });
});

describe('automatic mail', () => {
  it.each(['Precedence: "bulk"', 'Precedence: bulk (sent by a list)', 'Precedence: "list"', 'Precedence: (x) junk'])(
    '%s is automatic',
    (h) => {
      expect(reasons(`${h}\n`)).toHaveLength(1);
    },
  );
  it.each(['Precedence: bulky', 'Precedence: "first-class"', 'Precedence: normal (bulk)'])('%s is not', (h) => {
    expect(reasons(`${h}\n`)).toEqual([]);
  });
  it.each(['MAILER-DAEMON', 'mailer-daemon (Mail Delivery System)', 'Mail Delivery Subsystem <MAILER-DAEMON>', 'postmaster'])(
    'a bare From: %s is automatic',
    (from) => {
      expect(automaticReasons(readHead(mail(`From: ${from}\nSubject: failure\n\nB2-C3\n`))).join()).toMatch(/^From: /);
    },
  );
  it('a person with no address is not a mail system', () => {
    expect(automaticReasons(readHead(mail('From: Mario Rossi\n\nB2-C3\n')))).toEqual([]);
  });
});

describe('control and direction characters from headers', () => {
  it('are escaped, visibly, in the subject and the display name', async () => {
    const got = await extractMail(
      mail(
        'From: =?UTF-8?B?TWFyaW/igK5vaWdyYWw=?= <m@x.it>\nSubject: =?UTF-8?Q?Re:_[SF_andromeda]_=E2=80=AEfdp.exe=0D=0ABcc:_x@y.z?=\nTo: orders+k7Q2-x9Pm@sf.example\n\nB2-C3\n',
      ),
      CORPUS_OPTIONS,
    );
    expect(got.subject).toBe('Re: [SF andromeda] [U+202E]fdp.exe[U+000D][U+000A]Bcc: x@y.z');
    expect(got.fromName).toBe('Mario[U+202E]oigral');
    expect(got.gameTag).toBe('andromeda');
  });
  it('a Message-ID that is not printable ASCII is not kept to be echoed in our replies', async () => {
    const got = await extractMail(mail('From: m@x.it\nMessage-ID: abc\u202edef@x\nIn-Reply-To: <a\u0007b@x>\n\nB2-C3\n'), CORPUS_OPTIONS);
    expect(got.messageId).toBeNull();
    expect(got.inReplyTo).toBeNull();
  });
  it('leave ordinary text alone, accents and right-to-left scripts included', () => {
    expect(visible('Ordini è ok — שלום مرحبا')).toBe('Ordini è ok — שלום مرحبا');
    expect(visible('a\tb')).toBe('a b');
  });
});

describe('automatic reasons quote header values escaped', () => {
  it('a control or direction character in an Auto-Submitted value is shown, not obeyed', () => {
    expect(reasons('Auto-Submitted: auto-replied\u202e\u0007\n')).toEqual(['Auto-Submitted: auto-replied[U+202E][U+0007]']);
  });
});

describe('our own private address as From', () => {
  it('is our mail (an echo or a forgery), never answered, so its owner gets no false "someone used your code"', async () => {
    const got = await extractMail(
      mail('From: <orders+k7Q2-x9Pm@SF.example>\nTo: orders+k7Q2-x9Pm@sf.example\nSubject: x\n\nB2-C3\n'),
      CORPUS_OPTIONS,
    );
    expect(got.automatic).toBe(true);
    expect(got.automaticReasons).toEqual(['From: orders+k7Q2-x9Pm@SF.example (ours)']);
  });
  it('another domain or local part is not ours', async () => {
    for (const from of ['orders+k7Q2-x9Pm@other.example', 'order+k7Q2-x9Pm@sf.example', 'mario+orders@sf.example'])
      expect((await extractMail(mail(`From: <${from}>\nTo: orders+k7Q2-x9Pm@sf.example\n\nB2-C3\n`), CORPUS_OPTIONS)).automatic).toBe(
        false,
      );
  });
});
