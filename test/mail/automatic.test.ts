import { describe, expect, it } from 'vitest';
import { automaticReasons, SF_ORIGIN, SF_ORIGIN_HEADER } from '../../src/mail/read/automatic.ts';
import { readHead } from '../../src/mail/read/extract-headers.ts';

const reasons = (headers: string, ours: string[] = []) =>
  automaticReasons(readHead(Buffer.from(`From: Mario <mario.rossi@gmail.com>\r\nTo: orders@sf.example\r\n${headers}\r\nB2-C3\r\n`)), ours);

describe('automaticReasons', () => {
  it('says nothing about mail a person wrote', () => {
    expect(reasons('Subject: ordini\r\nAuto-Submitted: no\r\nPrecedence: normal\r\nX-Auto-Response-Suppress: None\r\n')).toEqual([]);
  });

  it.each([
    ['Auto-Submitted: auto-replied', 'Auto-Submitted: auto-replied'],
    ['Auto-Submitted: auto-generated', 'Auto-Submitted: auto-generated'],
    ['auto-submitted: Auto-Replied; owner-email="mario@x.it"', 'Auto-Submitted'],
    ['X-Autoreply: yes', 'X-Autoreply: yes'],
    ['X-Autorespond: Vacation', 'X-Autorespond: Vacation'],
    ['X-Auto-Response-Suppress: All', 'X-Auto-Response-Suppress: All'],
    ['X-Auto-Response-Suppress: DR, RN, NRN, OOF, AutoReply', 'X-Auto-Response-Suppress'],
    ['Precedence: bulk', 'Precedence: bulk'],
    ['Precedence: List', 'Precedence: List'],
    ['Precedence: junk', 'Precedence: junk'],
    ['Precedence: auto_reply', 'Precedence: auto_reply'],
    ['List-Id: <sf-andromeda.googlegroups.com>', 'List-Id'],
    ['List-Unsubscribe: <mailto:unsubscribe@lists.example>', 'List-Unsubscribe'],
    ['Content-Type: multipart/report; report-type=delivery-status; boundary="x"', 'Content-Type: multipart/report'],
    ['Content-Type: multipart/report; report-type=disposition-notification; boundary="x"', 'Content-Type: multipart/report'],
    ['Return-Path: <>', 'Return-Path: <>'],
    ['Return-Path: < >', 'Return-Path: <>'],
    [`${SF_ORIGIN_HEADER}: ${SF_ORIGIN}`, 'X-SF-Origin: starts-foundation'],
    ['x-sf-origin: Starts-Foundation', 'X-SF-Origin'],
  ])('%s', (header, reason) => {
    const got = reasons(`${header}\r\n`);
    expect(got.join('\n')).toContain(reason);
  });

  it.each(['MAILER-DAEMON@mx.libero.it', 'mailer-daemon@googlemail.com', 'Postmaster@outlook.com', 'POSTMASTER@libero.it'])(
    'recognises the system sender %s',
    (sender) => {
      const head = readHead(Buffer.from(`From: Mail Delivery System <${sender}>\r\n\r\nbody`));
      expect(automaticReasons(head)).toEqual([`From: ${sender}`]);
    },
  );

  it('looks at Sender too', () => {
    expect(reasons('Sender: MAILER-DAEMON@mx.example\r\n')).toEqual(['Sender: MAILER-DAEMON@mx.example']);
  });

  it('recognises mail From one of our own addresses, in any case', () => {
    const head = readHead(Buffer.from('From: Starts Foundation <Orders@SF.example>\r\n\r\nbody'));
    expect(automaticReasons(head, ['orders@sf.example'])).toEqual(['From: Orders@SF.example (ours)']);
  });

  it('does not take "postmaster" in the display name or the domain for a system sender', () => {
    expect(reasons('Sender: "postmaster" <luca@postmaster.example>\r\n')).toEqual([]);
  });

  it('a Return-Path with an address is not a bounce; only the topmost counts', () => {
    expect(reasons('Return-Path: <mario.rossi@gmail.com>\r\nReturn-Path: <>\r\n')).toEqual([]);
  });

  it('lists every reason found', () => {
    expect(reasons('Auto-Submitted: auto-replied\r\nPrecedence: bulk\r\nList-Id: <x.example>\r\n')).toHaveLength(3);
  });
});

// D-MAIL-37: auto-responders that mark nothing but their subject, or name themselves in X-Mailer.
describe('automaticReasons: auto-replies without a marking header', () => {
  it.each([
    'Automatic reply: [SF andromeda] Sith → you',
    'Risposta automatica: [SF andromeda] Sith → te',
    'Réponse automatique : [SF andromeda] Sith → you',
    'Automatische Antwort: [SF andromeda] Sith → you',
    'Abwesenheitsnotiz: [SF andromeda] Sith → you',
    'Respuesta automática: Re: ordini',
    'Auto: [SF andromeda] Sith → you',
    'Auto-Reply: ordini',
    'AutoReply',
    'Auto Response',
    'Out of Office AutoReply: [SF andromeda] Sith → you',
    'Vacation reply',
    'Out of Office: [SF andromeda] Sith → you',
    'Fuori sede: [SF andromeda] Sith → te',
    'Absence: Re: [SF andromeda] Turno 3',
    'Abwesenheit: [SF andromeda] Sith → you',
    'Vacation: [SF andromeda] Sith → you',
    '=?UTF-8?Q?R=C3=A9ponse_automatique=C2=A0:_[SF_andromeda]?=',
    '  risposta   AUTOMATICA: x',
  ])('the subject %s', (subject) => {
    expect(reasons(`Subject: ${subject}\r\n`).join('\n')).toMatch(/^Subject: /);
  });

  it.each([
    'Re: the absence of the fleet',
    'Re: [SF andromeda] Sith → you — Automatic reply?',
    'Absence',
    'Absence: 1/4 to 10/4',
    'Absence: [SF andromeda] code k7Q2-x9Pm',
    'Vacation plans for the Hutt',
    'Vacation',
    'Fuori sede fino al 10',
    'Out of office next week, orders below',
    'Automobili e astronavi',
    'Autoreplying is for robots',
    'Re: Automatic reply: [SF andromeda] Sith → you',
    'Autorità: [SF andromeda]',
  ])('a person’s subject %s is not one', (subject) => {
    expect(reasons(`Subject: ${subject}\r\n`)).toEqual([]);
  });

  it.each([
    ['X-Autogenerated: Reply', 'X-Autogenerated: Reply'],
    ['X-AutoReply-From: mario.rossi@gmail.com', 'X-Autoreply-From'],
    ['X-Mail-Autoreply: yes', 'X-Mail-Autoreply'],
    ['X-FC-MachineGenerated: true', 'X-FC-MachineGenerated'],
    ['X-Mailer: vacation 1.2.7', 'X-Mailer: vacation 1.2.7'],
    ['X-Mailer: cPanel Autoresponder', 'X-Mailer'],
    ['X-Mailer: Auto-Reply Engine', 'X-Mailer'],
  ])('%s', (header, reason) => {
    expect(reasons(`Subject: ordini\r\n${header}\r\n`).join('\n')).toContain(reason);
  });

  it.each([
    'X-Mailer: Microsoft Outlook 16.0',
    'X-Mailer: Apple Mail (2.3774)',
    'X-Mailer: Vacationland Mailer',
    'X-FC-MachineGenerated: false',
  ])('a mail client’s %s is not one', (header) => {
    expect(reasons(`Subject: ordini\r\n${header}\r\n`)).toEqual([]);
  });
});
