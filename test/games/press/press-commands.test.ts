// MUTE / SILENZIA, UNMUTE / RIATTIVA, DIGEST / RIEPILOGO, IMMEDIATE / SUBITO (docs/press.md §1, D-PRESS-11).
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { readPressCommand } from '../../../src/games/press/press-commands.ts';
import { pressFactions } from '../../../src/games/press/read-press.ts';

const factions = pressFactions(classicMap().map);
const read = (line: string) => readPressCommand(line, factions);

describe('readPressCommand', () => {
  it('reads mutes of a faction or of anonymous messages, in Italian and English, any case', () => {
    expect(read('MUTE Sith')).toEqual({ kind: 'mute', target: { kind: 'faction', faction: 'sith' } });
    expect(read('silenzia Mercanti indipendenti')).toEqual({ kind: 'mute', target: { kind: 'faction', faction: 'corellians' } });
    expect(read('Silenzia anonimi.')).toEqual({ kind: 'mute', target: { kind: 'anonymous' } });
    expect(read('RIATTIVA cavalieri jedi')).toEqual({ kind: 'unmute', target: { kind: 'faction', faction: 'knights' } });
    expect(read('unmute Ewoks')).toEqual({ kind: 'unknown-target', text: 'ewoks' });
  });
  it('reads the delivery choice, and nothing else', () => {
    expect(read('DIGEST')).toEqual({ kind: 'delivery', delivery: 'digest' });
    expect(read('Riepilogo')).toEqual({ kind: 'delivery', delivery: 'digest' });
    expect(read('subito')).toEqual({ kind: 'delivery', delivery: 'immediate' });
    for (const line of ['MUTE', 'digest please', 'B2-C3', 'STATUS', 'x'.repeat(300)]) expect(read(line)).toBeNull();
  });
});
