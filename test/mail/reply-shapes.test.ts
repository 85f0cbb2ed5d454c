// Real clients' replies read as their author meant, whichever client wrote them. Each
// case is the shape of a reply a parser's fixture suite or a client shows; the source is named.
import { describe, expect, it } from 'vitest';
import { inspectMail } from '../../src/mail/read/inspect.ts';
import { CORPUS_OPTIONS } from './corpus-options.ts';

const mail = (contentType: string, body: string, cte = '8bit') =>
  Buffer.from(
    `From: Mario <mario.rossi@gmail.com>\r\nTo: orders+k7Q2-x9Pm@sf.example\r\nSubject: Re: [SF andromeda] turno 3\r\nContent-Type: ${contentType}\r\nContent-Transfer-Encoding: ${cte}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`,
    'utf8',
  );
const read = async (raw: Buffer) => (await inspectMail(raw, CORPUS_OPTIONS)).orders;

describe('format=flowed: lines of different quote depth are never joined (RFC 3676 §4.5)', () => {
  it('a quoted line ending in a space does not swallow the new text below it (Thunderbird, K-9)', async () => {
    const body = 'Il 03/03/25 09:00, SF ha scritto:\n> Ordini ricevuti: B2-C9 \n> H: Sith \nB2-C3\nB1-C1\n';
    expect(await read(mail('text/plain; charset=utf-8; format=flowed', body))).toEqual(['B2-C3', 'B1-C1']);
    expect(await read(mail('text/plain; charset=utf-8; format=flowed; delsp=yes', body))).toEqual(['B2-C3', 'B1-C1']);
  });
  it('nor the quote below a new line ending in a space', async () => {
    expect(await read(mail('text/plain; charset=utf-8; format=flowed', 'B2-C3 \n> B2-C9\n'))).toEqual(['B2-C3']);
  });
  it('also when the space is written =20 in quoted-printable, and in a multipart mail', async () => {
    const raw = mail(
      'multipart/alternative; boundary="b"',
      '--b\nContent-Type: text/plain; charset=utf-8; format=flowed\nContent-Transfer-Encoding: quoted-printable\n\n> B2-C9=20\nB2-C3\n--b\nContent-Type: text/html\n\n<p>B2-C3</p>\n--b--\n',
    );
    expect(await read(raw)).toEqual(['B2-C3']);
  });
  it('still joins soft-broken lines of the same depth', async () => {
    expect(await read(mail('text/plain; charset=utf-8; format=flowed', 'H: Sith, \nHutt\n> B2-C9 \n> B1-C1\n'))).toEqual([]);
    expect((await inspectMail(mail('text/plain; charset=utf-8; format=flowed', 'H: Sith, \nHutt\n'), CORPUS_OPTIONS)).hostility).toEqual([
      'sith',
      'hutt',
    ]);
  });
});

const html = (body: string) => mail('text/html; charset=utf-8', `<html><body>${body}</body></html>`);

describe('HTML-only replies: history after an <hr> or a top-bordered <div> and a header block in any order', () => {
  it('Hotmail: <hr>, then Date:, Subject:, From:, To: (talon html_replies/hotmail.html)', async () => {
    const raw = html(
      '<div dir="ltr">B2-C3<div><br></div><div>Mario<br><br><div><hr id="stopSpelling">Date: Thu, 26 Jun 2014 13:53:45 +0400<br>Subject: Re: [SF andromeda] turno 3<br>From: orders@sf.example<br>To: mario.rossi@gmail.com<br><br><div dir="ltr"><div>B2-C9</div><div>B1-C1</div></div></div></div></div>',
    );
    expect(await read(raw)).toEqual(['B2-C3']);
  });
  it('Comcast/Zimbra: <hr>, then bold From:, To:, Sent:, Subject: (talon reply-separated-by-hr.html)', async () => {
    const raw = html(
      '<div>B2-C3<div>Mario<hr><b>From: </b>orders@sf.example<br><b>To: </b>mario@comcast.net<br><b>Sent: </b>Friday, July 22, 2011 6:20:01 PM<br><b>Subject: </b>Hello<br><br><p>B2-C9</p></div></div>',
    );
    expect(await read(raw)).toEqual(['B2-C3']);
  });
  it('Outlook in Italian: a top-bordered <div>, then Da:, Inviato:, A: and no Oggetto:', async () => {
    const raw = html(
      '<div class="WordSection1"><p class="MsoNormal">B2-C3<o:p></o:p></p><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>Da:</b> Starts Foundation &lt;orders@sf.example&gt;<br><b>Inviato:</b> lunedì 3 marzo 2025 09:00<br><b>A:</b> Mario Rossi<o:p></o:p></p></div><p class="MsoNormal">B2-C9</p></div>',
    );
    expect(await read(raw)).toEqual(['B2-C3']);
  });
  it('Outlook in French, Date: first after the border', async () => {
    const raw = html(
      '<p>B2-C3</p><div style="border:none;border-top:solid #B5C4DF 1.0pt"><p><b>Date :</b> lundi 3 mars 2025<br><b>De :</b> SF<br><b>À :</b> Mario</p></div><p>B2-C9</p>',
    );
    expect(await read(raw)).toEqual(['B2-C3']);
  });
});

const plain = (body: string) => mail('text/plain; charset=utf-8', body);

describe('attribution lines and forwards', () => {
  it.each([
    [
      'Italian "In data" (email-reply-parser email_italian)',
      'In data 11 ottobre 2017 21:11:31 "Starts Foundation" <orders@sf.example> ha scritto:',
    ],
    ['Italian "Alle … ha scritto"', 'Alle 09:00 di lunedì 3 marzo 2025, Starts Foundation ha scritto:'],
    ['Italian "Il giorno … scrive"', 'Il giorno 3 mar 2025, alle ore 09:00, Starts Foundation <orders@sf.example> scrive:'],
    ['German "Am … schrieb …:" (email_german)', 'Am 13.12.2017 21:11 schrieb "Starts Foundation <orders@sf.example>:'],
    ['French "Le … a écrit :"', 'Le lun. 3 mars 2025 à 09:00, Starts Foundation <orders@sf.example> a écrit :'],
    ['Spanish "El … escribió:"', 'El lun, 3 mar 2025 a las 9:00, Starts Foundation (<orders@sf.example>) escribió:'],
    [
      'Portuguese "Em … escreveu:" wrapped (email_portuguese)',
      'Em 10 de julho de 2017 às 16:32:35, Starts Foundation (\norders@sf.example) escreveu:',
    ],
    [
      'Gmail German, name first, wrapped in the date (email_gmail_split_datetime)',
      'Starts Foundation <orders@sf.example> schrieb am So., 23.\nJuni 2024, 21:08:',
    ],
  ])('%s, unmarked history below', async (_name, attribution) => {
    expect(await read(plain(`B2-C3\n\n${attribution}\n\nB2-C9\nB1-C1\n`))).toEqual(['B2-C3']);
  });
  it.each([
    ['Zoho "---- On … wrote ----" (email-reply-parser email_zoho)', '---- On Wed, 24 Feb 2021 14:02:50 +0530 orders@sf.example wrote ----'],
    ['Zoho in Italian', '---- Il lun, 03 mar 2025 09:00:00 +0100 orders@sf.example ha scritto ----'],
  ])('%s', async (_name, separator) => {
    expect(await read(plain(`B2-C3\n\n${separator}\n\nB2-C9\n`))).toEqual(['B2-C3']);
  });
  it('a date and an address alone before a marked quote (older Gmail)', async () => {
    expect(await read(plain('B2-C3\n\n2025-03-03 9:00 GMT+01:00 Starts Foundation <orders@sf.example>:\n> B2-C9\n\nB1-C1\n'))).toEqual([
      'B2-C3',
      'B1-C1',
    ]);
  });
  it('a forward whose header block sits on one line', async () => {
    expect(
      await read(
        plain(
          'B2-C3\n\nFrom: Starts Foundation <orders@sf.example> Sent: Monday, 3 March 2025 09:00 To: Mario Subject: [SF andromeda] turno 3\nB2-C9\n',
        ),
      ),
    ).toEqual(['B2-C3']);
    expect(
      await read(plain('B2-C3\n\nDa: Starts Foundation <orders@sf.example> Data: lunedì 3 marzo 2025 A: Mario Oggetto: turno 3\nB2-C9\n')),
    ).toEqual(['B2-C3']);
  });
  it('still reads a sheet line that mentions an address and ends in a colon, with no quote after', async () => {
    expect(await read(plain('B2-C3\nVoto dopo: scrivimi a mario@x.it 3 volte:\nB1-C1\n'))).toEqual(['B2-C3', 'B1-C1']);
  });
});
