import { describe, expect, it } from 'vitest';
import {
  gameTagFromSubject,
  identify,
  removeCodeLines,
  secretFromAddress,
  secretFromRecipients,
  secretFromSubject,
} from '../../src/mail/read/identify.ts';

describe('secretFromAddress', () => {
  it('reads orders+<secret>@<domain>, keeping the secret as written', () => {
    expect(secretFromAddress('orders+k7Q2-x9Pm@sf.example', 'sf.example', 'orders')).toBe('k7Q2-x9Pm');
  });

  it('compares local part and domain in any case', () => {
    expect(secretFromAddress('ORDERS+k7Q2-x9Pm@SF.Example', 'sf.example', 'orders')).toBe('k7Q2-x9Pm');
    expect(secretFromAddress('Orders+k7Q2-x9Pm@sf.example', 'SF.EXAMPLE', 'ORDERS')).toBe('k7Q2-x9Pm');
  });

  it.each([
    ['another domain', 'orders+k7Q2-x9Pm@sf.example.evil.com'],
    ['a subdomain', 'orders+k7Q2-x9Pm@mail.sf.example'],
    ['another local part', 'order+k7Q2-x9Pm@sf.example'],
    ['no plus', 'orders@sf.example'],
    ['an empty secret', 'orders+@sf.example'],
    ['characters a secret never has', 'orders+k7Q2_x9Pm@sf.example'],
    ['no @', 'orders+k7Q2-x9Pm'],
  ])('ignores %s', (_what, address) => {
    expect(secretFromAddress(address, 'sf.example', 'orders')).toBeNull();
  });
});

describe('secretFromRecipients', () => {
  it('prefers the envelope (Delivered-To, X-Original-To) to To and Cc', () => {
    const recipients = [
      { header: 'to', address: 'orders+AAAA@sf.example' },
      { header: 'cc', address: 'orders+BBBB@sf.example' },
      { header: 'x-original-to', address: 'orders+CCCC@sf.example' },
      { header: 'delivered-to', address: 'orders+DDDD@sf.example' },
    ];
    expect(secretFromRecipients(recipients, 'sf.example', 'orders')).toBe('DDDD');
    expect(secretFromRecipients(recipients.slice(0, 3), 'sf.example', 'orders')).toBe('CCCC');
    expect(secretFromRecipients(recipients.slice(0, 2), 'sf.example', 'orders')).toBe('AAAA');
    expect(secretFromRecipients(recipients.slice(1, 2), 'sf.example', 'orders')).toBe('BBBB');
  });

  it('skips a Delivered-To that is our plain mailbox', () => {
    const recipients = [
      { header: 'delivered-to', address: 'orders@sf.example' },
      { header: 'to', address: 'orders+k7Q2-x9Pm@sf.example' },
    ];
    expect(secretFromRecipients(recipients, 'sf.example', 'orders')).toBe('k7Q2-x9Pm');
  });
});

describe('subject', () => {
  it.each([
    ['[SF andromeda] ordini', 'andromeda'],
    ['Re: R: [sf Andromeda] Turno 4', 'andromeda'],
    ['Ordini turno 4 [SF  andromeda ]', 'andromeda'],
    ['[SF orion-2] orders', 'orion-2'],
    ['[SF] orders', null],
    ['SF andromeda orders', null],
    ['[SFandromeda]', null],
  ])('%s → %s', (subject, tag) => {
    expect(gameTagFromSubject(subject)).toBe(tag);
  });

  it.each([
    ['[SF andromeda] code k7Q2-x9Pm', 'k7Q2-x9Pm'],
    ['[SF andromeda] Code: k7Q2-x9Pm', 'k7Q2-x9Pm'],
    ['Re: [SF andromeda] ordini, codice k7Q2-x9Pm', 'k7Q2-x9Pm'],
    ['[SF andromeda] CODE=B2-C3x', 'B2-C3x'],
    ['code k7Q2-x9Pm [SF andromeda]', null],
    ['[SF andromeda] ordini in codice', null],
    ['[SF andromeda] barcode k7Q2', null],
    ['[SF andromeda] codename orion', null],
    ['[SF andromeda] code:k7Q2-x9Pm', 'k7Q2-x9Pm'],
  ])('secret in %s → %s', (subject, secret) => {
    expect(secretFromSubject(subject)).toBe(secret);
  });
});

describe('removeCodeLines', () => {
  it('takes every Code: line out, any case, and returns the first secret', () => {
    expect(removeCodeLines('Code: k7Q2-x9Pm\nB2-C3\n  CODE:B2-C3x\ncodice: zzzz-1111\nN9#')).toEqual({
      text: 'B2-C3\nN9#',
      secret: 'k7Q2-x9Pm',
    });
  });

  it('removes a Code: line even when what follows is not a secret', () => {
    expect(removeCodeLines('Code: ???\nB2-C3')).toEqual({ text: 'B2-C3', secret: null });
  });

  it('reads only the first word after the colon', () => {
    expect(removeCodeLines('Code: k7Q2-x9Pm (Hutt)').secret).toBe('k7Q2-x9Pm');
  });

  it('leaves lines that merely contain the word', () => {
    expect(removeCodeLines('Il codice: lo mando dopo\nmy code is k7Q2').text).toBe('Il codice: lo mando dopo\nmy code is k7Q2');
  });
});

describe('identify', () => {
  const base = { ourDomain: 'sf.example', ordersLocalPart: 'orders' };

  it('uses the private address first', () => {
    expect(
      identify({
        ...base,
        recipients: [{ header: 'to', address: 'orders+k7Q2-x9Pm@sf.example' }],
        subject: '[SF andromeda] code zzzz',
        codeLineSecret: 'yyyy',
      }),
    ).toEqual({
      gameTag: 'andromeda',
      secret: 'k7Q2-x9Pm',
      secretSource: 'address',
      pressToken: null,
    });
  });

  it('then a Code: line, then the subject, both only with a tag', () => {
    const common = [{ header: 'to', address: 'orders@sf.example' }];
    expect(identify({ ...base, recipients: common, subject: '[SF andromeda] code zzzz', codeLineSecret: 'yyyy' }).secretSource).toBe(
      'code-line',
    );
    expect(identify({ ...base, recipients: common, subject: '[SF andromeda] code zzzz', codeLineSecret: null })).toMatchObject({
      secret: 'zzzz',
      secretSource: 'subject',
    });
    expect(identify({ ...base, recipients: common, subject: 'ordini', codeLineSecret: 'yyyy' })).toEqual({
      gameTag: null,
      secret: null,
      secretSource: null,
      pressToken: null,
    });
  });

  it('a private address works without a tag', () => {
    expect(
      identify({
        ...base,
        recipients: [{ header: 'delivered-to', address: 'orders+k7Q2-x9Pm@sf.example' }],
        subject: null,
        codeLineSecret: null,
      }),
    ).toEqual({
      gameTag: null,
      secret: 'k7Q2-x9Pm',
      secretSource: 'address',
      pressToken: null,
    });
  });

  it('docs/press.md §4.5: a press reply token is read first, and never as a secret', () => {
    const token = `p-${'abcdefgh234567'.padEnd(26, 'q')}`;
    expect(
      identify({
        ...base,
        recipients: [
          { header: 'to', address: `orders+${token.toUpperCase()}@SF.example` },
          { header: 'cc', address: 'orders+k7Q2-x9Pm@sf.example' },
        ],
        subject: '[SF andromeda] code zzzz',
        codeLineSecret: 'yyyy',
      }),
    ).toEqual({ gameTag: 'andromeda', secret: null, secretSource: null, pressToken: token });
  });
});
