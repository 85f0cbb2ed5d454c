// What becomes of each press block and dispute (docs/press.md, D-PRESS-3..5, 12..14): pure decisions.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { closedSince, decideDispute, decidePress, MAX_DISPUTES_PER_TURN, type PressFacts } from '../../../src/games/press/decide-press.ts';
import { pressFactions, readPress } from '../../../src/games/press/read-press.ts';
import { DEFAULT_PRESS_SETTINGS, type PressSettings } from '../../../src/games/press/settings.ts';

const factions = pressFactions(classicMap().map);
const blocks = (text: string) => {
  const r = readPress(text, { factions });
  expect(r.problems).toEqual([]);
  return r;
};
const at = (iso: string) => new Date(iso);
type Over = Omit<Partial<PressFacts>, 'settings'> & { settings?: Partial<PressSettings> };
const facts = (over: Over = {}): PressFacts => ({
  receivedAt: at('2026-03-05T12:00:00Z'),
  game: { status: 'active', pausedAt: null },
  turn: { number: 4, deadline: at('2026-03-08T19:00:00Z'), declarationDeadline: at('2026-03-07T19:00:00Z'), hasChancellor: true },
  writer: { faction: 'hutt' },
  seated: new Set(['hutt', 'sith', 'knights', 'aristocrats']),
  sentLastHour: [],
  sentToRefereesLastHour: [],
  ...over,
  settings: { ...DEFAULT_PRESS_SETTINGS, ...over.settings },
});
const decide = (text: string, over: Over = {}) => decidePress(blocks(text).press, facts(over));

describe('decidePress', () => {
  it('relays to the factions named, to every seated faction but the writer, or to the referees', () => {
    expect(decide('PRESS TO Sith, Hutt, Jedi\nx\nFINE\nBROADCAST\ny\nFINE\nPRESS TO REFEREE\nz')).toEqual([
      { kind: 'relay', to: { kind: 'factions', factions: ['sith', 'knights'], everyone: false }, sign: 'signed', signedAnyway: false },
      {
        kind: 'relay',
        to: { kind: 'factions', factions: ['sith', 'knights', 'aristocrats'], everyone: true },
        sign: 'signed',
        signedAnyway: false,
      },
      { kind: 'relay', to: { kind: 'referees' }, sign: 'signed', signedAnyway: false },
    ]);
  });

  it('signs as the game says, refusing what it does not allow rather than changing it (D-PRESS-3)', () => {
    const text = 'PRESS TO Sith\na\nFINE\nPRESS ANONYMOUS TO Sith\nb\nFINE\nPRESS SIGNED TO Sith\nc';
    const signs = (mode: PressSettings['mode']) =>
      decide(text, { settings: { mode } }).map((d) => (d.kind === 'relay' ? d.sign : d.reason));
    expect(signs('both')).toEqual(['signed', 'anonymous', 'signed']);
    expect(signs('signed')).toEqual(['signed', 'anonymous-not-allowed', 'signed']);
    expect(signs('anonymous')).toEqual(['anonymous', 'anonymous', 'signed-not-allowed']);
    expect(signs('off')).toEqual(['press-off', 'press-off', 'press-off']);
  });

  it('always lets a player write to the referees, signed (D-PRESS-4)', () => {
    const over = {
      settings: { mode: 'off' as const, open: 'until-deadline' as const },
      game: { status: 'finished' as const, pausedAt: null },
      receivedAt: at('2026-03-09T00:00:00Z'),
    };
    expect(decide("STAMPA ANONIMA ALL'ARBITRO\naiuto", over)).toEqual([
      { kind: 'relay', to: { kind: 'referees' }, sign: 'signed', signedAnyway: true },
    ]);
    expect(decide('PRESS TO Sith\nx', over)).toEqual([{ kind: 'refused', reason: 'game-over' }]);
  });

  it('refuses private messages in a broadcast-only game, and groups naming a faction with nobody seated, or only the writer', () => {
    expect(decide('PRESS TO Sith\nx', { settings: { private: false } })).toEqual([{ kind: 'refused', reason: 'private-not-allowed' }]);
    expect(decide('PRESS TO Sith, Federals, Founders\nx')).toEqual([
      { kind: 'refused', reason: 'not-in-play', factions: ['federals', 'founders'] },
    ]);
    expect(decide('PRESS TO Hutt\nx')).toEqual([{ kind: 'refused', reason: 'only-yourself' }]);
    expect(decide('BROADCAST\nx', { seated: new Set(['hutt']) })).toEqual([{ kind: 'refused', reason: 'only-yourself' }]);
  });

  it('closes press at the declaration or the orders deadline, judging a paused game at its pause (D-PRESS-5)', () => {
    const after = at('2026-03-07T19:00:00Z');
    expect(decide('PRESS TO Sith\nx', { receivedAt: after, settings: { open: 'until-declaration' } })).toEqual([
      { kind: 'refused', reason: 'press-closed', since: after, reopensWith: 5 },
    ]);
    expect(decide('PRESS TO Sith\nx', { receivedAt: after, settings: { open: 'until-deadline' } })[0]!.kind).toBe('relay');
    const f = facts({ receivedAt: at('2026-03-20T00:00:00Z'), settings: { open: 'until-deadline' } });
    expect(closedSince(f)).toEqual(at('2026-03-08T19:00:00Z'));
    expect(closedSince({ ...f, game: { status: 'paused', pausedAt: at('2026-03-06T00:00:00Z') } })).toBeNull();
    // Turn 1 has no Chancellor: the orders deadline closes it.
    expect(
      closedSince({
        ...f,
        receivedAt: after,
        settings: { ...f.settings, open: 'until-declaration' },
        turn: { ...f.turn!, hasChancellor: false },
      }),
    ).toBeNull();
  });

  it('refuses a message over the size whole, and counts the hourly cap across a mail’s blocks (D-PRESS-12)', () => {
    const long = decide(`PRESS TO Sith\n${'é'.repeat(201)}`, { settings: { maxChars: 200 } });
    expect(long).toEqual([{ kind: 'refused', reason: 'too-long', chars: 201, max: 200 }]);
    // Astral characters count once.
    expect(decide(`PRESS TO Sith\n${'🙂'.repeat(200)}`, { settings: { maxChars: 200 } })[0]!.kind).toBe('relay');
    const now = at('2026-03-05T12:00:00Z');
    const sent = [at('2026-03-05T11:10:00Z'), at('2026-03-05T10:00:00Z'), at('2026-03-05T11:30:00Z')];
    const d = decide('PRESS TO Sith\na\nFINE\nPRESS TO Sith\nb\nFINE\nPRESS TO REFEREE\nc', {
      receivedAt: now,
      sentLastHour: sent,
      settings: { perHour: 3 },
    });
    expect(d.map((x) => x.kind)).toEqual(['relay', 'refused', 'relay']);
    // 11:10, 11:30 and now make three: the fourth is possible when 11:10 is an hour old.
    expect(d[1]).toEqual({ kind: 'refused', reason: 'too-many', max: 3, nextAt: at('2026-03-05T12:10:00Z') });
  });
});

describe('decideDispute', () => {
  const part = readPress('CONTESTA: I8 doveva avanzare', { factions }).disputes[0]!;
  const f = {
    receivedAt: at('2026-03-09T10:00:00Z'),
    latestEdict: { turn: 4, version: 1, publishedAt: at('2026-03-08T19:05:00Z') },
    disputeWindowMinutes: 1440,
    nextTurnOpen: true,
    earlier: 0,
    maxChars: 8000,
  };
  it('takes a dispute of the latest edict within its window, and refuses one after it, naming when it ended', () => {
    expect(decideDispute(part, f)).toEqual({ kind: 'taken', turn: 4, version: 1 });
    expect(decideDispute(part, { ...f, receivedAt: at('2026-03-09T19:06:00Z') })).toEqual({
      kind: 'refused',
      reason: 'window-closed',
      turn: 4,
      endedAt: at('2026-03-09T19:05:00Z'),
    });
    expect(decideDispute(part, { ...f, latestEdict: null })).toEqual({ kind: 'refused', reason: 'no-edict' });
    expect(decideDispute(part, { ...f, nextTurnOpen: false })).toEqual({ kind: 'refused', reason: 'edict-final', turn: 4 });
    expect(decideDispute(part, { ...f, earlier: MAX_DISPUTES_PER_TURN })).toMatchObject({ reason: 'too-many-disputes' });
    expect(decideDispute(part, { ...f, maxChars: 10 })).toMatchObject({ reason: 'too-long', chars: 18 });
  });
});
