// Focused tests of the resolution rules that are easy to get wrong. Positions come from
// position.ts: every faction's 3 starting units are on the board unless a test says otherwise,
// far from the cells the tests play with (M–P, rows 3–10).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shuffled } from './arbitraries.ts';
import { awayFromHome, play, pos } from './position.ts';

/** Several candidates, none ordered into the cell: the first in board order (R-ADV-2, applied by the R-ADV-4 passes). */
const BOARD_ORDER_PICK = expect.stringMatching(/^R-ADV-[24]$/);

describe('normal moves (R-MOVE-2..5)', () => {
  it('R-MOVE-2: a chain moves when its head moves into an empty cell', () => {
    const r = play(pos({ hutt: ['M4', 'M5'] }), { hutt: 'M4-M5\nM5-M6' });
    expect(awayFromHome(r.edict)).toEqual({ M5: 'hutt', M6: 'hutt' });
    expect(r.outcome('M4-M5')).toMatchObject({ result: 'moved', rule: 'R-MOVE-2' });
    expect(r.outcome('M5-M6')).toMatchObject({ result: 'moved', rule: 'R-MOVE-2' });
  });

  it('R-MOVE-2, R-MOVE-5: a chain whose head is blocked by a unit that stays stalls all the way back', () => {
    const r = play(pos({ hutt: ['M4', 'M5'], aristocrats: ['M6'] }), { hutt: 'M4-M5\nM5-M6' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M5: 'hutt', M6: 'aristocrats' });
    expect(r.outcome('M5-M6')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-5', reason: 'occupied', with: ['M6'] });
    expect(r.outcome('M4-M5')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-5', with: ['M5'] });
  });

  it('R-MOVE-4: a ring of three turns, whatever the factions', () => {
    const r = play(pos({ hutt: ['M4'], aristocrats: ['M5'], sith: ['N5'] }), {
      hutt: 'M4-M5',
      aristocrats: 'M5-N5',
      sith: 'N5-M4',
    });
    expect(awayFromHome(r.edict)).toEqual({ M5: 'hutt', N5: 'aristocrats', M4: 'sith' });
    for (const o of ['M4-M5', 'M5-N5', 'N5-M4']) expect(r.outcome(o)).toMatchObject({ result: 'moved', rule: 'R-MOVE-2' });
  });

  it('R-MOVE-4: a ring of four turns', () => {
    const r = play(pos({ hutt: ['M4', 'M5', 'N5', 'N4'] }), { hutt: 'M4-M5, M5-N5, N5-N4, N4-M4' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M5: 'hutt', N5: 'hutt', N4: 'hutt' });
    for (const o of ['M4-M5', 'M5-N5', 'N5-N4', 'N4-M4']) expect(r.outcome(o).result).toBe('moved');
  });

  it('R-MOVE-4: two units swapping cells both stall', () => {
    const r = play(pos({ hutt: ['M4'], aristocrats: ['M5'] }), { hutt: 'M4-M5', aristocrats: 'M5-M4' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M5: 'aristocrats' });
    expect(r.outcome('M4-M5')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-4', reason: 'swap' });
    expect(r.outcome('M5-M4')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-4', reason: 'swap' });
  });

  it('R-MOVE-4, R-MOVE-5: hostile swap partners stay and are recorded as attackers; a friendly one just stalls', () => {
    const both = play(pos({ hutt: ['M4'], aristocrats: ['M5'] }), { hutt: 'H: Aristocratici\nM4-M5', aristocrats: 'H: Hutt\nM5-M4' });
    expect(awayFromHome(both.edict)).toEqual({ M4: 'hutt', M5: 'aristocrats' });
    expect(both.outcome('M4-M5')).toMatchObject({ result: 'attacked', rule: 'R-MOVE-5', reason: 'swap', with: ['M5'] });
    expect(both.outcome('M5-M4')).toMatchObject({ result: 'attacked', rule: 'R-MOVE-5', reason: 'swap', with: ['M4'] });

    const one = play(pos({ hutt: ['M4'], aristocrats: ['M5'] }), { hutt: 'H: Aristocrats\nM4-M5', aristocrats: 'M5-M4' });
    expect(one.outcome('M4-M5')).toMatchObject({ result: 'attacked', rule: 'R-MOVE-5' });
    expect(one.outcome('M5-M4')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-4', reason: 'swap' });
  });

  it('R-MOVE-3, R-MOVE-4: a ring broken by a third unit moving into one of its cells: standoff, every ring member stalls', () => {
    const r = play(pos({ hutt: ['M4', 'M5', 'N5'], aristocrats: ['L5'] }), { hutt: 'M4-M5\nM5-N5\nN5-M4', aristocrats: 'L5-M5' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M5: 'hutt', N5: 'hutt', L5: 'aristocrats' });
    expect(r.outcome('M4-M5')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-3', reason: 'standoff', with: ['L5'] });
    expect(r.outcome('L5-M5')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-3', reason: 'standoff', with: ['M4'] });
    expect(r.outcome('M5-N5')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-5' });
    expect(r.outcome('N5-M4')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-5' });
  });

  it('R-MOVE-3: three units moving into one empty cell all stall, each told the two rivals', () => {
    const r = play(pos({ hutt: ['M4'], aristocrats: ['O4'], sith: ['N3'] }), { hutt: 'M4-N4', aristocrats: 'O4-N4', sith: 'N3-N4' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', O4: 'aristocrats', N3: 'sith' });
    for (const [o, rivals] of [
      ['M4-N4', ['N3', 'O4']],
      ['O4-N4', ['M4', 'N3']],
      ['N3-N4', ['M4', 'O4']],
    ] as const) {
      const out = r.outcome(o);
      expect(out).toMatchObject({ result: 'stalled', rule: 'R-MOVE-3', reason: 'standoff' });
      expect([...out.with!].sort()).toEqual([...rivals]);
    }
  });

  // BUG (reported): moves.ts lists standoff rivals in the order of state.units, so two equal
  // positions whose unit lists differ only in order give different edicts.
  it('R-EDICT-2: a three-way standoff gives the same edict whatever the order of state.units (rivals in board order)', () => {
    const state = pos({ hutt: ['M4'], aristocrats: ['O4'], sith: ['N3'] });
    const sheets = { hutt: 'M4-N4', aristocrats: 'O4-N4', sith: 'N3-N4' };
    const a = play(state, sheets);
    const b = play({ ...state, units: [...state.units].reverse() }, sheets);
    const c = play({ ...state, units: shuffled(state.units, 3) }, sheets);
    expect(a.outcome('M4-N4').with).toEqual(['N3', 'O4']); // board order: column N before O
    expect(JSON.stringify(b.edict)).toBe(JSON.stringify(a.edict));
    expect(JSON.stringify(c.edict)).toBe(JSON.stringify(a.edict));
  });

  it('R-MOVE-5: a move into the cell of a unit that jumps away stalls (or attacks, when hostile): the jumper is still there', () => {
    const friendly = play(pos({ hutt: ['M4'], aristocrats: ['M5'] }), { hutt: 'M4-M5', aristocrats: 'M5=M9' });
    expect(awayFromHome(friendly.edict)).toEqual({ M4: 'hutt', M9: 'aristocrats' });
    expect(friendly.outcome('M4-M5')).toMatchObject({ result: 'stalled', rule: 'R-MOVE-5', reason: 'jumper-still-there', with: ['M5'] });
    expect(friendly.outcome('M5=M9')).toMatchObject({ result: 'jumped', rule: 'R-HYP-2' });

    const hostile = play(pos({ hutt: ['M4'], aristocrats: ['M5'] }), { hutt: 'H: Aristocrats\nM4-M5', aristocrats: 'M5=M9' });
    expect(awayFromHome(hostile.edict)).toEqual({ M4: 'hutt', M9: 'aristocrats' });
    expect(hostile.outcome('M4-M5')).toMatchObject({ result: 'attacked', rule: 'R-MOVE-5' });
  });

  it('R-BOARD-2, R-MOVE-1: I and L are neighbours (I5-L5 moves), I6-M6 is not adjacent', () => {
    const r = play(pos({ hutt: ['I5', 'I6', 'I8'] }), { hutt: 'I5-L5\nI6-M6\nI8=N8' });
    expect(awayFromHome(r.edict)).toEqual({ L5: 'hutt', I6: 'hutt', N8: 'hutt' });
    expect(r.outcome('I5-L5')).toMatchObject({ result: 'moved', rule: 'R-MOVE-2' });
    expect(r.outcome('I6-M6')).toMatchObject({ result: 'invalid', rule: 'R-MOVE-1', reason: 'not-adjacent' });
    expect(r.outcome('I8=N8')).toMatchObject({ result: 'jumped' }); // I→L→M→N: distance 3
  });

  it("R-SETUP-3, R-ORD-7: a normal move into no-man's land is invalid and the unit holds", () => {
    const r = play(pos({ hutt: ['S12'] }), { hutt: 'S12-T12' });
    expect(r.at.get('S12')).toBe('hutt');
    expect(r.outcome('S12-T12')).toMatchObject({ result: 'invalid', rule: 'R-SETUP-3', reason: 'no-mans-land' });
  });

  it("R-ORD-5: the last order for a unit wins even when invalid; orders for others' units or empty cells are ignored", () => {
    const r = play(pos({ hutt: ['M4'], aristocrats: ['O4'] }), { hutt: 'M4-M5\nO4-O5\nP9-P10\nM4-M7' });
    expect(r.at.get('M4')).toBe('hutt');
    expect(r.outcome('M4-M5')).toMatchObject({ result: 'superseded', rule: 'R-ORD-5' });
    expect(r.outcome('M4-M7')).toMatchObject({ result: 'invalid', rule: 'R-MOVE-1' });
    expect(r.outcome('O4-O5')).toMatchObject({ result: 'ignored', rule: 'R-ORD-5', reason: 'not-your-unit', side: 'aristocrats' });
    expect(r.outcome('P9-P10')).toMatchObject({ result: 'ignored', rule: 'R-ORD-5', reason: 'no-unit', side: null });
  });
});

describe('hyperspace (R-HYP-1..5)', () => {
  it('R-HYP-4: a jumper landing on a cell vacated by a normal move lands (occupied means AFTER the move step)', () => {
    const r = play(pos({ aristocrats: ['P4'], sith: ['P8'] }), { aristocrats: 'P4-P5', sith: 'P8=P4' });
    expect(awayFromHome(r.edict)).toEqual({ P5: 'aristocrats', P4: 'sith' });
    expect(r.outcome('P8=P4')).toMatchObject({ result: 'jumped', rule: 'R-HYP-2' });
    expect(r.edict.destructions).toEqual([]);
  });

  it('R-HYP-4: a jump onto a cell a normal mover just entered destroys the jumper; the mover is unharmed', () => {
    const r = play(pos({ hutt: ['M4'], sith: ['M8'] }), { hutt: 'M4-M5', sith: 'M8=M5' });
    expect(awayFromHome(r.edict)).toEqual({ M5: 'hutt' });
    expect(r.outcome('M8=M5')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-4' });
    expect(r.edict.destructions).toMatchObject([{ side: 'sith', from: 'M8', at: 'M5', rule: 'R-HYP-4', reason: 'occupied' }]);
  });

  it("R-HYP-4: a jump onto one's own holding unit destroys the jumper", () => {
    const r = play(pos({ hutt: ['M4', 'M8'] }), { hutt: 'M8=M4' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt' });
    expect(r.outcome('M8=M4')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-4' });
  });

  it('R-HYP-2: a jumper may land where another jumper took off; R-HYP-5: two landing together both die', () => {
    const r = play(pos({ hutt: ['M4', 'M8', 'P3', 'P7'] }), { hutt: 'M8=M4, M4=M1\nP3=P5, P7=P5' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M1: 'hutt' });
    expect(r.outcome('M8=M4').result).toBe('jumped');
    expect(r.outcome('P3=P5')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-5', reason: 'collision' });
    expect(r.outcome('P7=P5')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-5' });
  });

  it("R-HYP-3: a jump onto any planet destroys the unit — the Capital, another's home, no-man's land", () => {
    const r = play(pos({ hutt: ['M9', 'L8', 'Q12'] }), { hutt: 'M9=N9\nL8=G7\nQ12=T12' });
    expect(awayFromHome(r.edict)).toEqual({});
    expect(r.outcome('M9=N9')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-3', reason: 'planet' });
    expect(r.outcome('L8=G7')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-3' });
    expect(r.outcome('Q12=T12')).toMatchObject({ result: 'destroyed', rule: 'R-HYP-3', reason: 'no-mans-land' });
  });

  it('R-HYP-1: farther than 4 is invalid and the unit holds', () => {
    const r = play(pos({ hutt: ['M4'] }), { hutt: 'M4=M9' });
    expect(r.at.get('M4')).toBe('hutt');
    expect(r.outcome('M4=M9')).toMatchObject({ result: 'invalid', rule: 'R-HYP-1', reason: 'too-far' });
  });
});

describe('combat (R-COMB-1..5)', () => {
  it('R-COMB-1, R-ADV-2: two hostile orthogonal neighbours eliminate; the first in board order advances, contested', () => {
    const r = play(pos({ aristocrats: ['M5'], hutt: ['M4', 'M6'] }), { hutt: 'H: Aristocratici' });
    expect(r.edict.eliminations).toEqual([
      {
        side: 'aristocrats',
        at: 'M5',
        rule: 'R-COMB-1',
        by: [
          { side: 'hutt', at: 'M4' },
          { side: 'hutt', at: 'M6' },
        ],
      },
    ]);
    expect(awayFromHome(r.edict)).toEqual({ M5: 'hutt', M6: 'hutt' });
    expect(r.edict.advances).toEqual([
      { side: 'hutt', from: 'M4', to: 'M5', rule: BOARD_ORDER_PICK, contested: true, candidates: ['M4', 'M6'] },
    ]);
  });

  it('R-COMB-1: diagonals never count', () => {
    const r = play(pos({ aristocrats: ['M5'], hutt: ['L4', 'N6', 'L6', 'N4'] }), { hutt: 'H: Aristocrats' });
    expect(r.edict.eliminations).toEqual([]);
  });

  it('R-COMB-2: hostility is one-way — a side that did not declare the target never counts', () => {
    const r = play(pos({ hutt: ['M5'], aristocrats: ['M4', 'M6'] }), { hutt: 'H: Aristocrats', aristocrats: '' });
    expect(r.edict.eliminations).toEqual([]);
    const back = play(pos({ hutt: ['M5'], aristocrats: ['M4', 'M6'] }), { hutt: 'H: Aristocrats', aristocrats: 'H: Hutt' });
    expect(back.edict.eliminations.map((e) => e.at)).toEqual(['M5']);
  });

  it('R-COMB-5: mutual elimination (figure 2): both fall at once and each freed cell takes a survivor', () => {
    // hutt N4, M5 against aristocrats N5, M6: N5 has M5 and N4 against it, M5 has N5 and M6.
    const r = play(pos({ hutt: ['N4', 'M5'], aristocrats: ['N5', 'M6'] }), { hutt: 'H: Aristocrats', aristocrats: 'H: Hutt' });
    expect(r.edict.eliminations.map((e) => `${e.side}@${e.at}`)).toEqual(['hutt@M5', 'aristocrats@N5']);
    expect(awayFromHome(r.edict)).toEqual({ M5: 'aristocrats', N5: 'hutt' });
    expect(r.edict.advances.map((a) => [a.from, a.to, a.contested])).toEqual([
      ['M6', 'M5', false],
      ['N4', 'N5', false],
    ]);
  });

  it('R-COMB-5: the star cross of death (figure 3): a 3×3 checkerboard falls entirely, nobody is left to advance', () => {
    const r = play(pos({ hutt: ['N5', 'M4', 'O4', 'M6', 'O6'], aristocrats: ['N4', 'M5', 'O5', 'N6'] }), {
      hutt: 'H: Aristocrats',
      aristocrats: 'H: Hutt',
    });
    expect(r.edict.eliminations).toHaveLength(9);
    expect(r.edict.advances).toEqual([]);
    expect(awayFromHome(r.edict)).toEqual({});
  });

  it('R-COMB-4: an Imperial Troop with hostile units north and west survives', () => {
    const r = play(pos({ imperial: ['M5'], hutt: ['M4', 'L5'] }, { chancellor: 'sith' }), { hutt: 'H: Imperiali' });
    expect(r.edict.eliminations).toEqual([]);
    expect(r.at.get('M5')).toBe('imperial');
  });

  it('R-COMB-4, R-ADV-1: north and south bring it down; only the pair counts and advances, not the west unit first in board order', () => {
    const r = play(pos({ imperial: ['M5'], hutt: ['M4', 'L5', 'M6'] }, { chancellor: 'sith' }), { hutt: 'H: Imperial Troops' });
    expect(r.edict.eliminations).toEqual([
      {
        side: 'imperial',
        at: 'M5',
        rule: 'R-COMB-4',
        by: [
          { side: 'hutt', at: 'M4' },
          { side: 'hutt', at: 'M6' },
        ],
      },
    ]);
    expect(r.edict.advances).toEqual([
      { side: 'hutt', from: 'M4', to: 'M5', rule: BOARD_ORDER_PICK, contested: true, candidates: ['M4', 'M6'] },
    ]);
    expect(awayFromHome(r.edict)).toEqual({ L5: 'hutt', M5: 'hutt', M6: 'hutt' });
  });

  it("R-COMB-3: the troops fight with the Chancellor's hostility list and never against the Chancellor's faction", () => {
    const r = play(pos({ imperial: ['M4', 'M6', 'P4', 'P6'], aristocrats: ['M5'], sith: ['P5'] }, { chancellor: 'sith' }), {
      sith: 'H: Aristocrats, Imperiali',
    });
    expect(r.edict.declarations[0]!.hostility).toEqual(['aristocrats']); // the Chancellor naming Imperiali is ignored
    expect(r.edict.eliminations.map((e) => `${e.side}@${e.at}`)).toEqual(['aristocrats@M5']);
    expect(r.at.get('P5')).toBe('sith');
  });

  it('R-TURN-5: an NMR keeps the hostility in force (setting keep) and its units still advance (R-ADV-1); with none it is forgotten', () => {
    const setup = { aristocrats: ['M5'], hutt: ['M4', 'M6'] };
    const kept = play(pos(setup, { hostility: { hutt: ['aristocrats'] } }), {});
    expect(kept.edict.declarations.find((d) => d.faction === 'hutt')).toMatchObject({
      submitted: false,
      hostilitySource: 'kept',
      hostility: ['aristocrats'],
    });
    expect(awayFromHome(kept.edict)).toEqual({ M5: 'hutt', M6: 'hutt' });
    const none = play(pos(setup, { hostility: { hutt: ['aristocrats'] }, nmrHostility: 'none' }), {});
    expect(none.edict.eliminations).toEqual([]);
    const empty = play(pos(setup, { hostility: { hutt: ['aristocrats'] } }), { hutt: '' }); // not an NMR
    expect(empty.edict.eliminations).toEqual([]);
  });
});

describe('advance after combat (R-ADV-1..4)', () => {
  it('R-ADV-2: the candidate that ordered a move into the cell advances, not the first in board order', () => {
    const r = play(pos({ aristocrats: ['M5'], hutt: ['M4', 'M6'] }), { hutt: 'H: Aristocrats\nM6-M5' });
    expect(r.outcome('M6-M5')).toMatchObject({ result: 'attacked', rule: 'R-MOVE-5' });
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M5: 'hutt' });
    expect(r.edict.advances).toMatchObject([{ from: 'M6', to: 'M5', rule: 'R-ADV-2' }]);
  });

  it('R-ADV-3, R-ADV-4: two passes — a unit eligible for two cells advances once, into the one it attacked; the other cell takes the next candidate', () => {
    // N5 counts against both N4 and N6 and is first in board order for N4; it attacked N6.
    // One pass in board order would send N5 to N4; the first pass sends it to N6, then O4 fills N4.
    const r = play(pos({ aristocrats: ['N4', 'N6'], hutt: ['N5', 'O4', 'O6'] }), { hutt: 'H: Aristocrats\nN5-N6' });
    expect(r.edict.eliminations.map((e) => e.at)).toEqual(['N4', 'N6']);
    expect(awayFromHome(r.edict)).toEqual({ N4: 'hutt', N6: 'hutt', O6: 'hutt' });
    expect(r.edict.advances.map((a) => [a.from, a.to, a.rule])).toEqual([
      ['O4', 'N4', 'R-ADV-1'],
      ['N5', 'N6', 'R-ADV-2'],
    ]);
  });

  it('R-ADV-1, R-POL-1, R-POL-3: a unit that ordered # may advance, and its politics still counts', () => {
    const r = play(pos({ aristocrats: ['N8'], hutt: ['N9', 'O8'] }, { chancellor: 'sith' }), { hutt: 'H: Aristocrats\nN9#' });
    expect(r.edict.advances).toMatchObject([{ from: 'N9', to: 'N8', contested: true, candidates: ['N9', 'O8'] }]);
    expect(r.outcome('N9#')).toMatchObject({ result: 'politics', rule: 'R-POL-1' });
    expect(r.edict.politics.electionsCalledBy).toEqual([{ side: 'hutt', at: 'N8' }]);
    expect(r.edict.electionNextTurn).toBe(true);
    expect(r.edict.electionReasons).toContain('politics');
  });
});

describe('politics (R-POL-1..3)', () => {
  const senate = { sith: ['N9'], hutt: ['O9'], aristocrats: ['N10'], knights: ['O10'] };

  it("R-POL-2: with all four Capital cells occupied at the start, the Chancellor's # creates a troop north of it", () => {
    const r = play(pos(senate, { chancellor: 'sith' }), { sith: 'N9#' });
    expect(r.edict.politics.troop).toEqual({ at: 'N8', by: 'N9', rule: 'R-POL-2' });
    expect(r.at.get('N8')).toBe('imperial');
    expect(r.outcome('N9#')).toMatchObject({ result: 'politics', rule: 'R-POL-2' });
    expect(r.edict.electionNextTurn).toBe(false);
  });

  it('R-POL-2: the named free cell is used (N9#M9); a named cell that is not orthogonally adjacent falls back', () => {
    expect(play(pos(senate, { chancellor: 'sith' }), { sith: 'N9#M9' }).edict.politics.troop?.at).toBe('M9');
    expect(play(pos(senate, { chancellor: 'sith' }), { sith: 'N9#M8' }).edict.politics.troop?.at).toBe('N8');
    const blocked = play(pos({ ...senate, hutt: ['O9', 'N8'] }, { chancellor: 'sith' }), { sith: 'N9#' });
    expect(blocked.edict.politics.troop?.at).toBe('M9'); // north taken: west
  });

  it('R-POL-2: no troop when a Capital cell was empty at the start, even if a unit moves in during the turn', () => {
    const r = play(pos({ sith: ['N9'], hutt: ['O9'], aristocrats: ['N10'], knights: ['P10'] }, { chancellor: 'sith' }), {
      sith: 'N9#',
      knights: 'P10-O10',
    });
    expect(r.at.get('O10')).toBe('knights');
    expect(r.edict.politics.troop).toBeNull();
    expect(r.edict.politics.troopRefused).toBe('capital-not-full');
    expect(r.outcome('N9#')).toMatchObject({ result: 'politics', rule: 'R-POL-1' });
  });

  it('R-POL-2: the Capital full at the start is enough, even if a unit leaves during the turn', () => {
    const r = play(pos(senate, { chancellor: 'sith' }), { sith: 'N9#', knights: 'O10-P10' });
    expect(r.at.get('O10')).toBeUndefined();
    expect(r.edict.politics.troop?.at).toBe('N8');
  });

  it('R-POL-1: # off the Capital is invalid; a unit eliminated in combat loses its politics', () => {
    const r = play(pos({ hutt: ['M9', 'O9'], sith: ['N9'] }, { chancellor: 'sith' }), { hutt: 'M9#\nO9#', sith: 'H: Hutt' });
    expect(r.outcome('M9#')).toMatchObject({ result: 'invalid', rule: 'R-POL-1', reason: 'not-on-capital' });
    expect(r.outcome('O9#')).toMatchObject({ result: 'politics', rule: 'R-POL-1' });
    const lost = play(pos({ hutt: ['O9'], sith: ['N9', 'P9'] }, { chancellor: 'sith' }), { hutt: 'O9#', sith: 'H: Hutt' });
    expect(lost.outcome('O9#')).toMatchObject({ result: 'politics-lost', rule: 'R-POL-1' });
    expect(lost.edict.politics.electionsCalledBy).toEqual([]);
  });
});

describe('elections (R-ELEC-1..5)', () => {
  /** R-ELEC-4 computed independently: sha256 of `<game id>:<turn>` as a number, mod the count. */
  const lotIndex = (gameId: string, turn: number, count: number) =>
    Number(BigInt(`0x${createHash('sha256').update(`${gameId}:${turn}`).digest('hex')}`) % BigInt(count));

  it('R-ELEC-4: a tie with no outgoing Chancellor is settled by the published lot; R-ELEC-5 seats the winner on N9', () => {
    const ids = ['game', 'alpha', 'beta', 'gamma', 'delta', 'partita-7'];
    const winners = new Set<string>();
    for (const gameId of ids) {
      const r = play(pos({}, { turn: 1, gameId }), { hutt: 'V: Sith', aristocrats: 'V: Hutt', sith: '', knights: '' });
      const candidates = ['hutt', 'sith'];
      const index = lotIndex(gameId, 1, candidates.length);
      const election = r.edict.election!;
      expect(election.tally).toEqual({ hutt: 3, sith: 3 });
      expect(election.how).toBe('lot');
      expect(election.lot).toMatchObject({ candidates, seed: `${gameId}:1`, index });
      expect(election.elected).toBe(candidates[index]);
      expect(election.newUnit).toEqual({ at: 'N9', removed: null, rule: 'R-ELEC-5' });
      expect(r.at.get('N9')).toBe(candidates[index]);
      expect(r.edict.chancellor).toBe(candidates[index]);
      winners.add(candidates[index]!);
    }
    expect(winners.size).toBe(2); // the ids above exercise both outcomes
  });

  it('R-ELEC-4: a tie keeps the outgoing Chancellor, who gets no new unit', () => {
    const r = play(pos({}, { chancellor: 'knights', election: true }), { hutt: 'V: Sith', aristocrats: 'V: Hutt' });
    expect(r.edict.election).toMatchObject({ how: 'tie-kept', elected: 'knights', newUnit: null });
  });

  const fullCapital = { aristocrats: ['N9', 'O10'], sith: ['O9'], knights: ['N10'] };
  const allForSith = (sithSheet: string) => ({
    hutt: 'V: Sith',
    aristocrats: 'V: Sith',
    knights: 'V: Sith',
    sith: `V: Sith\n${sithSheet}`,
  });

  it("R-ELEC-5: with the Capital full, the new Chancellor's E: names the unit its new unit replaces", () => {
    const r = play(pos(fullCapital, { chancellor: 'hutt', election: true }), allForSith('E: N10'));
    expect(r.edict.election).toMatchObject({
      elected: 'sith',
      how: 'majority',
      newUnit: { at: 'N10', removed: { side: 'knights', at: 'N10' }, rule: 'R-ELEC-5' },
    });
    expect(r.at.get('N10')).toBe('sith');
    expect(r.edict.units.filter((u) => u.side === 'knights')).toHaveLength(3);
  });

  it('R-ELEC-5: without E:, or with an E: naming its own unit or a cell off the Capital, the first Capital unit not its own goes', () => {
    for (const sheet of ['', 'E: O9', 'E: M9', 'E: Z9']) {
      const r = play(pos(fullCapital, { chancellor: 'hutt', election: true }), allForSith(sheet));
      expect(r.edict.election!.newUnit).toEqual({ at: 'N9', removed: { side: 'aristocrats', at: 'N9' }, rule: 'R-ELEC-5' });
      expect(r.at.get('N9')).toBe('sith');
    }
  });

  it('R-ELEC-5: a Capital held wholly by the elected faction gives no new unit', () => {
    const r = play(pos({ sith: ['N9', 'O9', 'N10', 'O10'] }, { chancellor: 'hutt', election: true }), allForSith(''));
    expect(r.edict.election).toMatchObject({ elected: 'sith', newUnit: null });
    expect(r.edict.units).toHaveLength(16);
  });

  it('R-ELEC-1: a Chancellor with no unit on the Capital calls elections for the next turn', () => {
    const r = play(pos({ sith: ['N8'] }, { chancellor: 'sith' }), {});
    expect(r.edict.electionReasons).toEqual(['chancellor-off-capital']);
    expect(r.state.election).toBe(true);
  });
});

describe('turn 1 (R-TURN-1)', () => {
  it('R-TURN-1: unit orders are reported as ignored; nothing moves, fights or is produced', () => {
    const r = play(pos({ hutt: ['M4', 'M6'], aristocrats: ['M5'] }, { turn: 1 }), { hutt: 'H: Aristocrats\nM4-N4\nM6=M9' });
    expect(r.outcome('M4-N4')).toMatchObject({ result: 'ignored', rule: 'R-TURN-1' });
    expect(r.outcome('M6=M9')).toMatchObject({ result: 'ignored', rule: 'R-TURN-1' });
    expect(r.edict.eliminations).toEqual([]);
    expect(awayFromHome(r.edict)).toEqual({ M4: 'hutt', M6: 'hutt', M5: 'aristocrats' });
    expect(r.edict.electionTurn).toBe(true);
  });
});

describe('production and victory (R-PROD-1, R-WIN-1)', () => {
  // hutt holds two planets of the aristocrats besides its own system planets; its home B2 is empty.
  const expansion = { hutt: ['B1', 'A2', 'G6', 'F7'] };
  const homes = ['aristocrats', 'sith', 'knights'];

  it('R-PROD-1: more planets than units gives one new unit on the (free) home planet', () => {
    const r = play(pos(expansion, { homes }), {});
    expect(r.edict.production).toEqual([{ faction: 'hutt', planets: 5, units: 4, at: 'B2' }]);
    expect(r.at.get('B2')).toBe('hutt');
  });

  it('R-PROD-1, R-CTRL-1: a home planet occupied by another faction belongs to it, so there is nothing to produce there', () => {
    // With B2 taken, hutt controls exactly the planets its units stand on: planets = units, no entry.
    // (A faction can only have more planets than units through its own empty home planet, so the
    // "if that cell is free" clause of R-PROD-1 never blocks anything: `at: null` never appears.)
    const r = play(pos({ ...expansion, aristocrats: ['B2'] }, { homes }), {});
    expect(r.edict.planets.hutt).toBe(4);
    expect(r.edict.production).toEqual([]);
    expect(r.at.get('B2')).toBe('aristocrats');
  });

  it('R-CTRL-3: a planet held by an Imperial Troop counts for nobody in production and victory', () => {
    const r = play(pos({ imperial: ['G6'] }, { chancellor: 'sith' }), {});
    expect(r.edict.planets.aristocrats).toBe(2);
    expect(r.edict.production).toEqual([]); // 2 planets, 2 units
  });

  it('R-WIN-1: with the threshold lowered to 5, the faction controlling 5 planets wins', () => {
    const r = play(pos(expansion, { homes, victoryPlanets: 5 }), {});
    expect(r.edict.planets.hutt).toBe(5);
    expect(r.edict.winners).toEqual(['hutt']);
  });

  it('R-WIN-1: several over the threshold — the most planets wins; still tied, they share the victory', () => {
    const shared = play(pos({ hutt: ['G6'], sith: ['F7'] }, { victoryPlanets: 4 }), {});
    expect(shared.edict.planets).toMatchObject({ hutt: 4, sith: 4, aristocrats: 1 });
    expect(shared.edict.winners).toEqual(['hutt', 'sith']);
    const most = play(pos({ hutt: ['G6', 'F7'], sith: ['X1'] }, { victoryPlanets: 4 }), {});
    expect(most.edict.planets).toMatchObject({ hutt: 5, sith: 4 });
    expect(most.edict.winners).toEqual(['hutt']);
  });
});

describe('late joiner (R-SETUP-4)', () => {
  it("R-SETUP-4: a joiner enters at the start of the next turn on its 3 starting planets; its planets are no-man's land until then", () => {
    const state = pos({ sith: ['S12'] }, { chancellor: 'sith', joining: ['merchants'] });
    const r = play(state, { sith: 'S12-T12' });
    expect(r.outcome('S12-T12')).toMatchObject({ result: 'invalid', reason: 'no-mans-land' });
    expect(r.edict.joiningNextTurn).toEqual(['merchants']);
    expect(r.edict.units.some((u) => u.side === 'merchants')).toBe(false);
    expect(r.state.factions).toEqual(['hutt', 'aristocrats', 'sith', 'knights', 'merchants']);
    expect(
      r.state.units
        .filter((u) => u.side === 'merchants')
        .map((u) => u.at)
        .sort(),
    ).toEqual(['T12', 'T13', 'U12']);
    expect(r.state.joining).toBeUndefined();

    const next = play(r.state, { merchants: 'T12-S11' });
    expect(next.outcome('T12-S11')).toMatchObject({ result: 'moved' });
    expect(next.edict.planets.merchants).toBe(3); // T12 is its empty home planet (R-CTRL-2)
  });
});
