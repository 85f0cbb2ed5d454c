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
