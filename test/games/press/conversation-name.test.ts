// How a conversation is named to its owner (the warning of a forged reply, D-PRESS-9): in Italian
// each faction with its article, as "conversazione con gli Hutt e i Cavalieri" reads.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { conversationName } from '../../../src/games/press/conversation-name.ts';

const board = classicMap();
const thread = (participants: string[], anonymous = false) => ({
  kind: 'factions' as const,
  participants,
  anonymous,
  hiddenWriterPlayerId: anonymous ? 9 : null,
});

describe('conversationName', () => {
  it('Italian: the other participants with their articles, the owner left out', () => {
    const owner = { id: 1, faction: 'sith', lang: 'it' as const };
    expect(conversationName(thread(['hutt', 'sith', 'knights']), owner, board)).toBe('gli Hutt e i Cavalieri');
    expect(conversationName(thread(['sith', 'knights'], true), owner, board)).toBe('anonimo e i Cavalieri');
  });

  it('English: the bare names', () => {
    const owner = { id: 1, faction: 'sith', lang: 'en' as const };
    expect(conversationName(thread(['hutt', 'sith', 'knights']), owner, board)).toBe('Hutt and Knights');
  });
});
