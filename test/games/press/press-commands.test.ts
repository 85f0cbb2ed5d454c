// MUTE / SILENZIA, UNMUTE / RIATTIVA, DIGEST / RIEPILOGO, IMMEDIATE / SUBITO (docs/press.md §1, D-PRESS-11):
// the line read, the command read in a mail's context, and when a digest is due.
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { readPressCommand } from '../../../src/games/press/press-commands.ts';
import { pressFactions } from '../../../src/games/press/read-press.ts';
import { readPlayerCommand } from '../../../src/games/player-commands.ts';
import { decidePlayerMail } from '../../../src/games/accept-sheet.ts';
import { digestSlot, lastReminderAt } from '../../../src/games/press/digest.ts';

const factions = pressFactions(classicMap().map);
const read = (line: string) => readPressCommand(line, factions);

describe('readPressCommand', () => {
  it('reads mutes of a faction or of anonymous messages, in Italian and English, any case', () => {
    expect(read('MUTE Sith')).toEqual({ kind: 'mute', targets: [{ kind: 'faction', faction: 'sith' }] });
    expect(read('silenzia Mercanti indipendenti')).toEqual({ kind: 'mute', targets: [{ kind: 'faction', faction: 'corellians' }] });
    expect(read('Silenzia anonimi.')).toEqual({ kind: 'mute', targets: [{ kind: 'anonymous' }] });
    expect(read('RIATTIVA cavalieri jedi')).toEqual({ kind: 'unmute', targets: [{ kind: 'faction', faction: 'knights' }] });
    expect(read('unmute Ewoks')).toEqual({ kind: 'unknown-target', text: 'ewoks' });
  });
  it('reads a faction named with its article, and through invisible characters a client left', () => {
    expect(read('MUTE the Sith')).toEqual({ kind: 'mute', targets: [{ kind: 'faction', faction: 'sith' }] });
    expect(read('Silenzia gli Hutt')).toEqual({ kind: 'mute', targets: [{ kind: 'faction', faction: 'hutt' }] });
    expect(read('SILENZIA gli anonimi')).toEqual({ kind: 'mute', targets: [{ kind: 'anonymous' }] });
    expect(read('\ufeffMUTE\u00a0Sith\u200b')).toEqual({ kind: 'mute', targets: [{ kind: 'faction', faction: 'sith' }] });
    expect(read('\u200bDIGEST')).toEqual({ kind: 'delivery', delivery: 'digest' });
    // What is quoted back shows no direction override.
    expect(read('MUTE Ew\u202eoks')).toEqual({ kind: 'unknown-target', text: 'ewoks' });
  });

  it('reads a list of targets as a press audience is written, each once; one unknown name refuses it all, named', () => {
    const sith = { kind: 'faction', faction: 'sith' };
    const hutt = { kind: 'faction', faction: 'hutt' };
    expect(read('MUTE Sith, Hutt')).toEqual({ kind: 'mute', targets: [sith, hutt] });
    expect(read('MUTE Sith and Hutt')).toEqual({ kind: 'mute', targets: [sith, hutt] });
    expect(read('SILENZIA i Sith, gli Hutt e i Cavalieri Jedi.')).toEqual({
      kind: 'mute',
      targets: [sith, hutt, { kind: 'faction', faction: 'knights' }],
    });
    expect(read('silenzia Mercanti indipendenti e anonimi')).toEqual({
      kind: 'mute',
      targets: [{ kind: 'faction', faction: 'corellians' }, { kind: 'anonymous' }],
    });
    expect(read('MUTE Sith, Sith; the Hutt')).toEqual({ kind: 'mute', targets: [sith, hutt] });
    expect(read('RIATTIVA Sith ed Hutt')).toEqual({ kind: 'unmute', targets: [sith, hutt] });
    expect(read('MUTE Sith, Ewoks and Hutt')).toEqual({ kind: 'unknown-target', text: 'ewoks' });
    expect(read('UNMUTE Hutt, the referees')).toEqual({ kind: 'unknown-target', text: 'referees' });
    expect(read('MUTE ,')).toEqual({ kind: 'unknown-target', text: ',' });
  });

  it('reads the delivery choice, and nothing else', () => {
    expect(read('DIGEST')).toEqual({ kind: 'delivery', delivery: 'digest' });
    expect(read('Riepilogo')).toEqual({ kind: 'delivery', delivery: 'digest' });
    expect(read('subito')).toEqual({ kind: 'delivery', delivery: 'immediate' });
    for (const line of ['MUTE', 'digest please', 'B2-C3', 'STATUS', 'x'.repeat(300)]) expect(read(line)).toBeNull();
  });
});

describe('readPlayerCommand with the game’s factions: a press command is a mail’s only line', () => {
  const cmd = (text: string, subject: string | null = null) => readPlayerCommand(text, subject, () => '2026-03-02', factions);
  it('reads MUTE and DIGEST alone in a mail (a Code: line aside), in either language', () => {
    expect(cmd('Code: k7Q2\nSILENZIA Sith\n')).toEqual({
      kind: 'press',
      command: { kind: 'mute', targets: [{ kind: 'faction', faction: 'sith' }] },
    });
    expect(cmd('riepilogo')).toEqual({ kind: 'press', command: { kind: 'delivery', delivery: 'digest' } });
    expect(cmd('MUTE Ewoks')).toEqual({ kind: 'press', command: { kind: 'unknown-target', text: 'ewoks' } });
  });
  it('not among orders, nor without the factions, nor as a subject: then the mail is what it was before', () => {
    expect(cmd('MUTE Sith\nB2-C3')).toBeNull();
    expect(readPlayerCommand('MUTE Sith', null, () => '2026-03-02')).toBeNull();
    expect(cmd('', 'DIGEST')).toBeNull();
    expect(cmd('STATUS')).toEqual({ kind: 'status' });
  });
  it('decidePlayerMail gives the command, before any sheet decision', () => {
    const board = classicMap();
    const d = decidePlayerMail({
      game: { status: 'active', graceMinutes: 0, timeZone: 'Europe/Rome' },
      player: { faction: 'hutt', joinedTurn: 1 },
      turn: null,
      standing: null,
      mail: { inboundId: 1, receivedAt: new Date('2026-03-02T10:00:00Z'), text: 'SUBITO', subject: null },
      board,
    });
    expect(d).toEqual({ kind: 'press', command: { kind: 'delivery', delivery: 'immediate' } });
  });
});

describe('digestSlot (D-PRESS-11): 07:00 on the reader’s clocks, or the deadline’s last reminder', () => {
  const now = new Date('2026-03-02T10:00:00Z');
  it('is today’s 07:00 in the zone once it has come, else yesterday’s', () => {
    expect(digestSlot(now, 'Europe/Rome', null).toISOString()).toBe('2026-03-02T06:00:00.000Z');
    expect(digestSlot(now, 'America/New_York', null).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(digestSlot(now, 'Asia/Tokyo', null).toISOString()).toBe('2026-03-01T22:00:00.000Z');
  });
  it('is the last reminder when it came after 07:00, and not before it comes', () => {
    const turn = { deadline: new Date('2026-03-02T19:00:00Z'), status: 'open' as const };
    const reminder = lastReminderAt({ reminderMinutes: [1440, 600, 0] }, turn);
    expect(reminder?.toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect(digestSlot(now, 'Europe/Rome', reminder).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect(digestSlot(new Date('2026-03-02T08:00:00Z'), 'Europe/Rome', reminder).toISOString()).toBe('2026-03-02T06:00:00.000Z');
    expect(lastReminderAt({ reminderMinutes: [] }, turn)).toBeNull();
    expect(lastReminderAt({ reminderMinutes: [60] }, { ...turn, status: 'adjudicated' as const })).toBeNull();
  });
});
