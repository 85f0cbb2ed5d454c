// The input rule for typed text (D-INPUT-1): names refused with the character named, longer texts
// cleaned, and writers' last steps leaving nothing a reader refuses.
import { describe, expect, it } from 'vitest';
import { createGameInput, joinGameInput, parseInput } from '../../src/games/input.ts';
import { cleanText, icalText, lineProblem, xmlText } from '../../src/text/typed-text.ts';

const game = (name: string) => ({
  name,
  timeZone: 'Europe/Rome',
  weeklyDeadline: 'sun 20:00',
  players: ['a', 'b', 'c', 'd'].map((x) => ({ email: `${x}@example.com` })),
});

describe('typed text', () => {
  it('a one-line name holding a control, a line break, a non-character or a direction control is refused, saying which and where', () => {
    expect(lineProblem('Andròmeda 2025 — “Orione” 🚀')).toBeNull();
    expect(lineProblem('ab\ncd')).toBe('holds a line break (U+000A) at character 3: type it again without it');
    expect(lineProblem('🚀\u0000')).toMatch(/a control character \(U\+0000\) at character 2/);
    expect(lineProblem('x\uFFFE')).toMatch(/not text \(U\+FFFE\)/);
    expect(lineProblem('x\u{10FFFF}')).toMatch(/not text \(U\+10FFFF\)/);
    expect(lineProblem('x\uD800y')).toMatch(/not text \(U\+D800\)/);
    expect(lineProblem('Anna \u202Eessor')).toMatch(/a text-direction control \(U\+202E\)/);
    expect(lineProblem('a\u2069')).toMatch(/U\+2069/);
    expect(lineProblem('a\u0085')).toMatch(/control character \(U\+0085\)/);
  });

  it('game and player names are refused at the door with the field named', () => {
    expect(() => parseInput(createGameInput, game('Orione\r\nBEGIN:VEVENT'))).toThrow('name: holds a line break (U+000D) at character 7');
    expect(() => parseInput(createGameInput, game('Ori\uFFFEone'))).toThrow(/^name: holds a character that is not text \(U\+FFFE\)/);
    expect(() => parseInput(joinGameInput, { gameId: 'g', email: 'e@example.com', name: 'Bob\u202E' })).toThrow(
      /^name: holds a text-direction control/,
    );
    expect(parseInput(createGameInput, game('  Orione & co  ')).name).toBe('Orione & co');
  });

  it('a longer text keeps its lines and tabs and loses every other forbidden character', () => {
    expect(cleanText('H: Sith\r\nB2-C3\t\u0000\u0007x\u202E\uFFFF\u{1FFFE}\uFDD0\ry')).toBe('H: Sith\nB2-C3\tx\ny');
    expect(xmlText('a\u0001<b>\u0008')).toBe('a<b>');
    expect(icalText('a\r\nBEGIN:VEVENT\tx')).toBe('a BEGIN:VEVENT x');
    expect(icalText('a\r\nb', { multiline: true })).toBe('a\nb');
  });
});

describe('escapeHtml', () => {
  it('drops direction controls from text it puts on a page (old stored names included)', async () => {
    const { escapeHtml } = await import('../../src/html.ts');
    expect(escapeHtml('Anna\u202E <b>\u2066x\u2069')).toBe('Anna &lt;b&gt;x');
  });
});
