// Victory: R-WIN-1 (the threshold) and R-WIN-2 (the game's length, set at its start).
import { describe, expect, it } from 'vitest';
import { adjudicate } from '../../src/adjudicator/adjudicate.ts';
import { renderEdict } from '../../src/adjudicator/render/edict-text.ts';
import { renderEdictHtml } from '../../src/adjudicator/render/edict-html.ts';
import { edictToJson } from '../../src/adjudicator/render/edict-json.ts';
import { runScenario, ScenarioError } from '../../src/adjudicator/scenario.ts';
import { assertValidState, InvalidStateError } from '../../src/adjudicator/state-check.ts';
import { board, play, pos } from './position.ts';

/** The edict's text with its prose wrapping undone, to look for a sentence. */
const text = (...a: Parameters<typeof renderEdict>) => renderEdict(...a).replace(/\s+/g, ' ');

// Hutt holds its 3 home planets and O9, N10 (5); Sith its 3 and N9 (4); the others 3 each.
const units = { hutt: ['O9', 'N10'], sith: ['N9'] };

describe('R-WIN-2: the last turn', () => {
  it('with nobody at the threshold, the most planets win on the last turn', () => {
    const { edict, state } = play(pos(units, { chancellor: 'sith', turn: 9, lastTurn: 9 }));
    expect(edict.planets).toMatchObject({ hutt: 5, sith: 4 });
    expect(edict.winners).toEqual(['hutt']);
    expect(edict.winRule).toBe('R-WIN-2');
    expect(edict.gameOver).toBe(true);
    expect(edict.lastTurn).toBe(9);
    expect(state.settings.lastTurn).toBe(9);
    expect(text(edict, board, 'en')).toContain("VICTORY: Hutt (R-WIN-2: the game's last turn, the most planets).");
    expect(text(edict, board, 'it')).toContain("VITTORIA: Hutt (R-WIN-2: l'ultimo turno della partita, il maggior numero di pianeti).");
  });

  it('the last edict speaks of no next turn: no election, no joiners (text and HTML)', () => {
    const html = { level: 2, map: null, inline: false } as const;
    const last = play(pos(units, { chancellor: 'sith', turn: 9, lastTurn: 9 })).edict;
    const before = play(pos(units, { chancellor: 'sith', turn: 8, lastTurn: 9 })).edict;
    for (const lang of ['en', 'it'] as const) {
      const next = lang === 'en' ? /Next turn is/ : /Il prossimo turno/;
      expect(text(before, board, lang)).toMatch(next);
      expect(text(last, board, lang)).not.toMatch(next);
      expect(renderEdictHtml(before, board, lang, html)).toMatch(next);
      expect(renderEdictHtml(last, board, lang, html)).not.toMatch(next);
    }
  });

  it('tied for the most planets on the last turn, they share', () => {
    const { edict } = play(pos({ hutt: ['O9'], sith: ['N9'] }, { chancellor: 'sith', turn: 9, lastTurn: 9 }));
    expect(edict.winners).toEqual(['hutt', 'sith']);
    expect(text(edict, board, 'en')).toContain('SHARED VICTORY: Hutt, Sith (R-WIN-2');
  });

  it('a turn past the last one is the last too (a game never runs on unbounded)', () => {
    const { edict } = play(pos(units, { chancellor: 'sith', turn: 10, lastTurn: 9 }));
    expect(edict.winners).toEqual(['hutt']);
    expect(edict.gameOver).toBe(true);
  });

  it('before the last turn there is no winner below the threshold, and the edict says when the game ends', () => {
    const { edict } = play(pos(units, { chancellor: 'sith', turn: 8, lastTurn: 9 }));
    expect(edict.winners).toEqual([]);
    expect(edict.winRule).toBeNull();
    expect(edict.gameOver).toBe(false);
    expect(text(edict, board, 'en')).toContain('or the most planets at the end of turn 9, R-WIN-2');
  });

  it('with no last turn the game plays on until R-WIN-1', () => {
    const { edict } = play(pos(units, { chancellor: 'sith', turn: 40 }));
    expect(edict).toMatchObject({ winners: [], winRule: null, lastTurn: null, gameOver: false });
    expect(text(edict, board, 'en')).toContain('No winner yet (12 planets are needed to win).');
  });

  it('R-WIN-1 still decides on the last turn when a faction reaches the threshold', () => {
    const { edict } = play(pos(units, { chancellor: 'sith', turn: 9, lastTurn: 9, victoryPlanets: 5 }));
    expect(edict.winners).toEqual(['hutt']);
    expect(edict.winRule).toBe('R-WIN-1');
    expect(text(edict, board, 'en')).toContain('VICTORY: Hutt (R-WIN-1).');
  });

  it('the edict JSON carries the rule and the length', () => {
    const { edict } = play(pos(units, { chancellor: 'sith', turn: 9, lastTurn: 9 }));
    const json = JSON.parse(edictToJson(edict)) as Record<string, unknown>;
    expect(json).toMatchObject({ winners: ['hutt'], winRule: 'R-WIN-2', lastTurn: 9, gameOver: true });
  });

  it('an edict stored before R-WIN-2 (no winRule, no lastTurn) still renders its R-WIN-1 victory', () => {
    const { edict } = play(pos(units, { chancellor: 'sith', turn: 9, victoryPlanets: 5 }));
    const old = { ...edict } as Partial<typeof edict>;
    delete old.winRule;
    delete old.lastTurn;
    delete old.gameOver;
    expect(text(old as typeof edict, board, 'en')).toContain('VICTORY: Hutt (R-WIN-1).');
  });

  it('a last turn that is not a positive integer is refused', () => {
    for (const bad of [0, -1, 2.5]) {
      expect(() => assertValidState(board, pos(units, { chancellor: 'sith', lastTurn: bad }))).toThrow(InvalidStateError);
    }
    expect(() => adjudicate(board, pos(units, { chancellor: 'sith', lastTurn: null }), {})).not.toThrow();
  });
});

describe('setup.lastTurn in a scenario (SCENARIOS.md)', () => {
  const scenario = (lastTurn: unknown) => ({
    setup: {
      turn: 9,
      factions: ['hutt', 'aristocrats', 'sith', 'knights'],
      chancellor: 'sith',
      election: false,
      lastTurn,
      units: pos(units, { chancellor: 'sith' }).units,
    },
    sheets: {},
  });

  it('true makes the turn the last; false or absent does not', () => {
    expect(runScenario(scenario(true)).winners).toEqual(['hutt']);
    expect(runScenario(scenario(false)).winners).toEqual([]);
    expect(runScenario(scenario(undefined)).winners).toEqual([]);
  });

  it('anything but a boolean is a malformed scenario', () => {
    expect(() => runScenario(scenario(9))).toThrow(ScenarioError);
    expect(() => runScenario(scenario('yes'))).toThrow(/setup\.lastTurn/);
  });
});
