// Reply-To tokens of relayed messages (docs/press.md §4.5, D-PRESS-9/10): shape, parsing, conversation keys.
import { describe, expect, it } from 'vitest';
import { secretFromAddress } from '../../../src/mail/read/identify.ts';
import {
  anonymousDelayMs,
  ANONYMOUS_DELAY_MS,
  conversationKey,
  isPressToken,
  newPressToken,
  pressReplyAddress,
  pressTokenFromAddress,
  pressTokenFromRecipients,
} from '../../../src/games/press/press-token.ts';

const mail = { ordersLocalPart: 'orders', domain: 'sf.example' };

describe('press tokens', () => {
  it('are p- and 26 lower-case base32 characters, different each time, encoding their bytes', () => {
    const a = newPressToken();
    expect(a).toMatch(/^p-[a-z2-7]{26}$/);
    expect(newPressToken()).not.toBe(a);
    expect(newPressToken(new Uint8Array(17))).toBe(`p-${'a'.repeat(26)}`);
    expect(newPressToken(new Uint8Array(17).fill(255))).toBe(`p-${'7'.repeat(26)}`);
    // RFC 4648's test vector "foobar" → MZXW6YTBOI.
    expect(newPressToken(new Uint8Array([...Buffer.from('foobar'), ...new Uint8Array(11)])).slice(2, 12)).toBe('mzxw6ytboi');
  });

  it('are read back from our address in any case, and only from ours', () => {
    const t = newPressToken();
    const address = pressReplyAddress(mail, t);
    expect(pressTokenFromAddress(address.toUpperCase(), 'sf.example', 'orders')).toBe(t);
    expect(pressTokenFromAddress(address, 'other.example', 'orders')).toBeNull();
    expect(pressTokenFromAddress('orders+k7Q2-x9Pm@sf.example', 'sf.example', 'orders')).toBeNull();
    expect(isPressToken('p-abc')).toBe(false);
    // The secret reader would take a token for a (wrong) secret: intake must look for a token first.
    expect(secretFromAddress(address, 'sf.example', 'orders')).toBe(t);
    expect(
      pressTokenFromRecipients(
        [
          { header: 'to', address: 'someone@else.example' },
          { header: 'delivered-to', address },
        ],
        'sf.example',
        'orders',
      ),
    ).toBe(t);
  });

  it('key a signed conversation by its participants, whatever their order', () => {
    expect(conversationKey(['sith', 'hutt', 'sith'])).toBe('hutt,sith');
    expect(conversationKey(['hutt', 'sith'])).toBe(conversationKey(['sith', 'hutt']));
  });

  it('delay anonymous relays within the range', () => {
    expect(anonymousDelayMs(0)).toBe(ANONYMOUS_DELAY_MS.min);
    expect(anonymousDelayMs(0.9999999)).toBeLessThan(ANONYMOUS_DELAY_MS.max);
    expect(anonymousDelayMs(0.5)).toBe(11 * 60_000);
  });
});
