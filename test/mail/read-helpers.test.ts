// The small readers under src/mail/read/, on their own.
import { describe, expect, it } from 'vitest';
import { hardenDepthChanges } from '../../src/mail/read/flowed-depth.ts';
import { decodeCommonEntities, lineBreakAtBlocks, nestingCost, stripTags } from '../../src/mail/read/html-fallback.ts';
import { messageIdOrNull, visible } from '../../src/mail/read/visible.ts';

const harden = (s: string) =>
  hardenDepthChanges(Buffer.from(`Content-Type: text/plain; format=flowed\r\n\r\n${s}`))
    .toString()
    .split('\r\n\r\n')[1] ?? '';

describe('hardenDepthChanges', () => {
  it('drops the soft break (blanks or =20) only where the quote depth changes', () => {
    expect(harden('> a \r\nb \r\nc\r\n')).toBe('> a\r\nb \r\nc\r\n');
    expect(harden('a \r\n> b\r\n>> c=20\r\n> d\r\n')).toBe('a\r\n> b\r\n>> c\r\n> d\r\n');
    expect(harden('> > a \r\n>> b\r\n')).toBe('> > a \r\n>> b\r\n'); // same depth, spaced or not
  });
  it('keeps the "-- " signature line and a quoted-printable soft line break as they are', () => {
    expect(harden('-- \r\n> x\r\n')).toBe('-- \r\n> x\r\n');
    expect(harden('> a=\r\nb \r\n')).toBe('> a=\r\nb \r\n');
  });
  it('leaves mail that never says "flowed" untouched, without a copy', () => {
    const raw = Buffer.from('Content-Type: text/plain\r\n\r\n> a \r\nb\r\n');
    expect(hardenDepthChanges(raw)).toBe(raw);
  });
  it('is linear: 200 KB of alternating depths', () => {
    const out = harden('> a \r\nb \r\n'.repeat(20_000));
    // Every line is followed by one of another depth, but for the last "b " (then the empty end).
    expect(out.split('\r\n').filter((l) => l.endsWith(' '))).toEqual(['b ']);
    expect(out.split('\r\n')).toHaveLength(40_001);
  });
});

describe('the plain HTML fallback', () => {
  it('breaks lines at blocks and decodes the common entities', () => {
    expect(decodeCommonEntities(stripTags('<div>B2-C3&nbsp;</div><p>H:&#32;Sith &amp; Hutt</p><b>x</b>', lineBreakAtBlocks))).toBe(
      '\nB2-C3 \n\nH: Sith & Hutt\n x ',
    );
    expect(decodeCommonEntities('&#0; &#xD800; &bogus; &#x1F600;')).toBe('\ufffd \ufffd &bogus; 😀');
  });
  it('measures nesting as htmlparser2 pays for it: deep divs cost, siblings and self-closing tags do not', () => {
    expect(nestingCost('<div>'.repeat(1000))).toBe((999 * 1000) / 2);
    expect(nestingCost('<div></div>'.repeat(1000))).toBe(0);
    expect(nestingCost('<p>a<p>b<br><li>c'.repeat(1000))).toBe(0);
  });
});

describe('visible and messageIdOrNull', () => {
  it('escape what could hide or break text, and keep ids printable', () => {
    expect(visible('a\u200bb\u2066c\u0085d\u2028e')).toBe('a[U+200B]b[U+2066]c[U+0085]d[U+2028]e');
    expect(messageIdOrNull('<a@b>')).toBe('<a@b>');
    expect(messageIdOrNull('a b@c')).toBeNull();
    expect(messageIdOrNull('')).toBeNull();
  });
});
