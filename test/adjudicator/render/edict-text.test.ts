import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classicMap } from '../../../src/adjudicator/map.ts';
import { edictToJson } from '../../../src/adjudicator/render/edict-json.ts';
import { renderEdict } from '../../../src/adjudicator/render/edict-text.ts';
import { BALLOT_NOTES, KNOWN_REASONS, VOCABULARY } from '../../../src/adjudicator/render/vocabulary.ts';
import type { Edict, ElectionReport, Lang } from '../../../src/adjudicator/types.ts';
import { electionEdict, LOT_HASH, midGameEdict } from './fixtures.ts';

const board = classicMap();
const LANGS: Lang[] = ['it', 'en'];
const render = (e: Edict, lang: Lang = 'en', opts = {}) => renderEdict(e, board, lang, opts);
const lines = (text: string) => text.split('\n');

/** The text of section n (1-based), from its title to the next one. */
function sectionOf(text: string, n: number): string {
  const start = text.search(new RegExp(`^${n}\\. `, 'm'));
  const end = text.slice(start + 1).search(new RegExp(`^${n + 1}\\. `, 'm'));
  return end < 0 ? text.slice(start) : text.slice(start, start + 1 + end);
}

/** The same data with every object's keys in reverse order: rendering must not depend on it. */
function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  ) as T;
}

function withElection(patch: Partial<ElectionReport>): Edict {
  const e = electionEdict();
  return { ...e, election: { ...e.election!, ...patch } };
}

describe('renderEdict: orders (section 1)', () => {
  it.each(LANGS)('prints every order with its outcome and rule id (%s)', (lang) => {
    const e = midGameEdict();
    const text = render(e, lang);
    const v = VOCABULARY[lang];
    for (const d of e.declarations)
      for (const o of d.orders) {
        const line = lines(text).find((l) => l.startsWith(`  ${o.order} `));
        expect(line, o.order).toBeDefined();
        expect(line).toContain(`(${o.rule})`);
        expect(line).toContain(o.result === 'attacked' ? v.attack(o.with!.join(', ')) : v.results[o.result]);
      }
  });

  it('gives reasons in words, with the cells involved', () => {
    const text = render(midGameEdict());
    expect(text).toContain('  P10-Q11 [Imperial]  → stalled: standoff with Q12 (R-MOVE-3)');
    expect(text).toContain('  A2-A4  → invalid, unit holds: target cell not adjacent (R-MOVE-1)');
    expect(text).toContain('  B1=F3  → destroyed: collision with another jump (R-HYP-5)');
    expect(text).toContain('  C1-B1  → stalled: B1 jumps only after the moves (R-MOVE-5)');
    expect(text).toContain('  M3-M4  → attacked M4, stays in place (R-MOVE-5)');
    expect(text).toContain('  H11=H8   → destroyed: cell occupied (R-HYP-4)');
    expect(text).toContain('  B2-C2  → replaced: the later order for the same unit counts (R-ORD-5)');
  });

  it('keeps the reason of an attack that was also a standoff (D-MOVE-1)', () => {
    const e = midGameEdict();
    e.declarations[1]!.orders[4] = { ...e.declarations[1]!.orders[4]!, reason: 'standoff', with: ['N3'] };
    expect(render(e)).toContain('  M3-M4  → attacked, stays in place: standoff with N3 (R-MOVE-5)');
    expect(render(e, 'it')).toContain('  M3-M4  → attacco, resta ferma: stessa destinazione di N3 (R-MOVE-5)');
  });

  it('prints an unknown reason as the engine wrote it', () => {
    const e = midGameEdict();
    e.declarations[1]!.orders[0] = { ...e.declarations[1]!.orders[0]!, result: 'invalid', reason: 'moon-phase', with: ['B3'] };
    expect(render(e, 'it')).toContain('  B2-C2  → non valido, resta ferma: moon-phase (B3) (R-ORD-5)');
  });

  it("puts the Chancellor's declaration first, marked as such, even if the engine did not", () => {
    const e = midGameEdict();
    e.declarations.reverse();
    const s1 = sectionOf(render(e), 1);
    expect(lines(s1)[2]).toBe('Sith — Chancellor, orders declared publicly');
    expect(s1.indexOf('Sith — Chancellor')).toBeLessThan(s1.indexOf('\nHutt\n'));
  });

  it('lists the problems of a sheet under its faction: the line and the kind only (R-EDICT-4)', () => {
    const s1 = sectionOf(render(midGameEdict()), 1);
    const hutt = s1.slice(s1.indexOf('\nHutt\n'), s1.indexOf('\nAristocrats\n'));
    expect(hutt).toContain('Problems in the sheet:');
    expect(hutt).toContain('    line 5: not an order I understand (R-ORD-8)');
    const corellians = s1.slice(s1.indexOf('\nCorellians\n'));
    expect(corellians).toContain('    line 4: vote outside an election turn (R-ORD-3)');
    expect(sectionOf(render(midGameEdict(), 'it'), 1)).toContain('    riga 5: non è un ordine comprensibile (R-ORD-8)');
  });

  it('names a problem it does not know as a problem, never by words it was handed (R-EDICT-4)', () => {
    const e = midGameEdict();
    const leaky = { line: 3, code: 'from-an-older-engine', message: { it: 'Anna Rossi', en: 'Anna Rossi' }, text: 'Anna Rossi' };
    e.declarations[0]!.problems = [leaky];
    const en = render(e);
    expect(en).toContain('    line 3: problem');
    expect(en).not.toContain('Anna Rossi');
  });

  it('says where hostility comes from: the sheet, kept for an NMR, or none', () => {
    const en = render(midGameEdict());
    expect(en).toContain('  Hostile to: Hutt, Knights — from the sheet');
    expect(en).toContain('Knights\n  Hostile to: Sith — kept from last turn (R-TURN-5)\n  No orders received: all units hold (R-TURN-5).');
    expect(en).toContain('Aristocrats\n  Hostile to: nobody — no H: line');
    const it = render(midGameEdict(), 'it');
    expect(it).toContain('Cavalieri\n  Ostile a: Sith — mantenuta dal turno precedente (R-TURN-5)');
    expect(it).toContain('Nessun ordine ricevuto: tutte le unità restano ferme (R-TURN-5).');
    expect(render(electionEdict())).toContain('Knights\n  Hostile to: nobody — no sheet, none in force from last turn (R-TURN-5)');
  });

  it('says that a Chancellor without a declaration holds with the Imperial Troops (R-TURN-3)', () => {
    const e = midGameEdict();
    e.declarations[0] = { ...e.declarations[0]!, submitted: false, orders: [], hostilitySource: 'kept' };
    const sith = sectionOf(render(e), 1).split('\nHutt\n')[0]!;
    expect(sith.replace(/\n {4}/g, ' ')).toContain('No declaration by the deadline: all units and the Imperial Troops hold (R-TURN-3).');
    // Not listed as having declared publicly what it never declared.
    expect(sith).toContain('Sith — Chancellor, no declaration\n');
    expect(sith).not.toContain('orders declared publicly');
  });

  it('does not list votes among the orders of an election turn', () => {
    const s1 = sectionOf(render(electionEdict()), 1);
    expect(s1).not.toMatch(/→ (Aristocrats|Hutt)\b/);
    expect(s1).toContain('  B2-C3  → ignored: no unit acts in turn 1 (R-TURN-1)');
  });
});

describe('renderEdict: hyperspace, combat, politics (sections 2–3)', () => {
  it('lists destructions, eliminations with the units that caused them, and advances', () => {
    const s2 = sectionOf(render(midGameEdict()), 2);
    expect(s2).toContain('Hutt unit jumping from B1 to F3 destroyed: collision with another jump');
    expect(s2).toContain('Corellians unit jumping from H11 to H8 destroyed: cell occupied (R-HYP-4).');
    expect(s2).toContain('Sith unit at M4 eliminated by Hutt L4, Hutt M3 (R-COMB-1).');
    expect(s2).toContain('Knights unit at P9 eliminated by Imperial P10, Sith Q9 (R-COMB-1).');
    expect(s2).toContain('Merchants N13 advances to M13 (R-ADV-1).\n');
  });

  it.each(LANGS)('marks contested advances with their candidates, and only those (%s)', (lang) => {
    const s2 = sectionOf(render(midGameEdict(), lang), 2).replace(/\n {2}/g, ' ');
    const mark = lang === 'it' ? 'CONTESA' : 'CONTESTED';
    const advance = (from: string) => lines(s2).find((l) => l.includes(` ${from} ${lang === 'it' ? 'avanza' : 'advances'}`))!;
    expect(advance('M3')).toContain(`${mark} ${lang === 'it' ? 'tra' : 'between'} L4, M3`);
    expect(advance('Q9')).toContain(`${mark} ${lang === 'it' ? 'tra' : 'between'} P10, Q9`);
    expect(advance('N13')).not.toContain(mark);
    expect(advance('L14')).not.toContain(mark);
  });

  it.each(LANGS)('an advance the referee chose (an amended edict) says so, not that the Chancellor may still ask (%s)', (lang) => {
    const e = midGameEdict();
    e.advances = e.advances.map((a) => (a.from === 'M3' ? { ...a, rule: 'R-ADV-2', chosenByReferee: true as const } : a));
    const s2 = sectionOf(render(e, lang), 2).replace(/\n {2}/g, ' ');
    const advance = lines(s2).find((l) => l.includes(` M3 ${lang === 'it' ? 'avanza' : 'advances'}`))!;
    expect(advance).toContain(lang === 'it' ? "scelta dall'arbitro tra L4, M3 (R-ADV-2)" : 'chosen by the referee among L4, M3 (R-ADV-2)');
    expect(advance).not.toMatch(/CONTES|referee for another|all'arbitro un'altra/);
  });

  it('reports the Imperial Troop created and the elections called', () => {
    const s3 = sectionOf(render(midGameEdict()), 3);
    expect(s3).toContain('Politics completed by: Sith N9, Hutt O9 (R-POL-1).');
    expect(s3).toContain('New Imperial Troop at M9, created by the unit at N9 (R-POL-2).');
    expect(s3).toContain('Elections called for next turn by: Hutt O9 (R-POL-3).');
    const e = midGameEdict();
    e.politics = { completed: [], troop: null, troopRefused: 'no-free-cell', electionsCalledBy: [] };
    expect(sectionOf(render(e, 'it'), 3)).toContain('Nessuna Truppa Imperiale: nessuna casella libera adiacente (R-POL-2).');
  });

  it('says so when turn 1 has no movement (R-TURN-1)', () => {
    const text = render(electionEdict());
    for (const n of [2, 3, 5]) expect(sectionOf(text, n)).toContain('(R-TURN-1)');
  });
});

describe('renderEdict: election (section 4)', () => {
  it.each(LANGS)('publishes every ballot, the tally and how the result was reached (%s)', (lang) => {
    const e = electionEdict();
    const s4 = sectionOf(render(e, lang), 4);
    const v = VOCABULARY[lang];
    const name = (f: string) => board.factions.get(f)!.names[lang][0]!;
    for (const b of e.election!.ballots) {
      const line = lines(s4).find((l) => l.startsWith(`  ${name(b.voter)} `) && l.includes('→'));
      expect(line, b.voter).toContain(v.votes(b.votes));
      expect(line).toContain(b.for ? `→ ${name(b.for)}` : v.nothingCast);
    }
    expect(s4).toContain(v.ballotNotes.imperial);
    expect(s4).toContain(v.ballotNotes.nmr);
    expect(s4).toContain(`${v.elected(name('hutt'))} — ${v.how.lot}`.slice(0, 40));
  });

  it('publishes the lot so that anyone can check it (R-ELEC-4)', () => {
    const e = electionEdict();
    const s4 = sectionOf(render(e), 4);
    expect(s4).toContain('  0: aristocrats (Aristocrats), 1: hutt (Hutt)');
    expect(s4).toContain(`  sha256("andromeda:1") =\n    ${LOT_HASH}\n`);
    expect(s4).toContain('  index = hash mod 2 = 1 → Hutt');
    expect(s4).toContain('New unit of the Chancellor at N9 (R-ELEC-5).');
    // The fixture itself follows R-ELEC-4, so the numbers printed are the real ones.
    expect(createHash('sha256').update('andromeda:1').digest('hex')).toBe(LOT_HASH);
    expect(Number(BigInt(`0x${LOT_HASH}`) % 2n)).toBe(e.election!.lot!.index);
  });

  it('sorts the tally by votes, then by id', () => {
    const s4 = sectionOf(render(withElection({ tally: { sith: 2, hutt: 5, aristocrats: 5, knights: 0 } })), 4);
    const tally = s4.slice(s4.indexOf('Tally:'));
    expect(tally).toMatch(/Tally:\n {2}Aristocrats +5\n {2}Hutt +5\n {2}Sith +2\n {2}Knights +0\n/);
  });

  it('names a kept Chancellor and the unit a new one removed (R-ELEC-5)', () => {
    const kept = sectionOf(render(withElection({ outgoing: 'sith', elected: 'sith', how: 'tie-kept', lot: undefined, newUnit: null })), 4);
    expect(kept).toContain('Chancellor stays: Sith — tie: the outgoing Chancellor stays (R-ELEC-4).');
    expect(kept).not.toContain('sha256');
    const removed = { at: 'O10', removed: { side: 'imperial', at: 'O10' }, rule: 'R-ELEC-5' };
    const full = sectionOf(render(withElection({ outgoing: 'sith', how: 'majority', lot: undefined, newUnit: removed }), 'it'), 4);
    expect(full).toContain('Nuovo Cancelliere: Hutt — maggioranza dei voti (R-ELEC-4).');
    expect(full).toContain('Nuova unità del Cancelliere in O10 (R-ELEC-5); rimossa: Imperiale O10.');
    const none = sectionOf(render(withElection({ tally: {}, elected: null, how: 'no-votes', lot: undefined, newUnit: null })), 4);
    expect(none).toContain('No Chancellor — no votes and no outgoing Chancellor (R-ELEC-4).');
    expect(none).toContain('  no votes cast');
  });

  it('says when a turn is not an election turn', () => {
    expect(sectionOf(render(midGameEdict(), 'it'), 4)).toContain('Non è un turno di elezioni.');
  });
});

describe('renderEdict: production and final situation (sections 5–6)', () => {
  it('reports production, and a home planet that was taken', () => {
    expect(sectionOf(render(midGameEdict()), 5)).toContain('Knights  4 planets, 3 units → new unit at X2 (Dagobah) (R-PROD-1)');
    const e = midGameEdict();
    e.production.push({ faction: 'hutt', planets: 6, units: 5, at: null });
    expect(sectionOf(render(e, 'it'), 5)).toContain(
      'Hutt       6 pianeti, 5 unità → nessuna nuova unità: il pianeta base Tatooine B2 è occupato',
    );
  });

  it('lists the final units per side in board order, planets per faction and the Chancellor', () => {
    const s6 = sectionOf(render(midGameEdict()), 6);
    const e = midGameEdict();
    for (const side of [...Object.keys(e.planets), 'imperial']) {
      const cells = e.units.filter((u) => u.side === side).map((u) => u.at);
      const name = side === 'imperial' ? 'Imperial Troops' : board.factions.get(side)!.names.en[0]!;
      const row = lines(s6).find((l) => l.startsWith(`  ${name} `));
      expect(row, side).toMatch(new RegExp(`units?: ${cells.join(' ')}$`));
      if (side !== 'imperial') expect(row).toContain(`${e.planets[side]} planets`);
    }
    expect(s6).toContain('  Sith (Chancellor)  4 planets  6 units: N9 O10 P9 R8 T7 U7');
    expect(s6).toContain('  Imperial Troops    —          3 units: M9 N8 P10');
    expect(s6).toContain('\nChancellor: Sith\n');
    expect(s6).toContain('Next turn is an election turn (R-ELEC-1):\n  - politics by another faction on the Capital (R-POL-3)');
    expect(s6).toContain('Entering play next turn: Federals (R-SETUP-4).');
    expect(s6).toContain('No winner yet (12 planets are needed to win).');
    expect(s6).toMatch(/^ {4}A {2}B {2}C .* Y$/m);
  });

  it('says when next turn is not an election turn, and names the winners', () => {
    const e = { ...electionEdict(), winners: ['hutt'] };
    const s6 = sectionOf(render(e, 'it'), 6);
    expect(s6).toContain('Il prossimo turno non è un turno di elezioni.');
    expect(s6).toContain('VITTORIA: Hutt (R-WIN-1).');
    expect(render({ ...e, winners: ['hutt', 'sith'] })).toContain('SHARED VICTORY: Hutt, Sith (R-WIN-1).');
  });

  it('ends with the deadlines only when given', () => {
    expect(render(midGameEdict())).not.toContain('deadline');
    const text = render(midGameEdict(), 'it', {
      nextDeadline: 'domenica 14 giugno, 21:00',
      declarationDeadline: 'venerdì 12 giugno, 21:00',
    });
    expect(
      text.endsWith(
        'Scadenza per la dichiarazione del Cancelliere: venerdì 12 giugno, 21:00\nProssima scadenza per gli ordini: domenica 14 giugno, 21:00\n',
      ),
    ).toBe(true);
  });
});

describe('renderEdict: the text as a whole', () => {
  const all = () => [midGameEdict(), electionEdict()];

  it.each(LANGS)('is byte-identical for the same edict, whatever key order (R-EDICT-2) (%s)', (lang) => {
    for (const e of all()) {
      const text = render(e, lang);
      expect(render(e, lang)).toBe(text);
      expect(render(reversedKeys(e), lang)).toBe(text);
      expect(render(JSON.parse(edictToJson(e)) as Edict, lang)).toBe(text);
      expect(text.endsWith('\n') && !text.endsWith('\n\n')).toBe(true);
    }
  });

  it.each(LANGS)('starts with the title, the game and the Chancellor in office (%s)', (lang) => {
    const [first, second, third] = lines(render(midGameEdict(), lang));
    expect(first).toBe(lang === 'it' ? 'EDITTO IMPERIALE — Turno 7' : 'IMPERIAL EDICT — Turn 7');
    expect(second).toContain('andromeda');
    expect(third).toBe(lang === 'it' ? 'Cancelliere in carica: Sith' : 'Chancellor in office: Sith');
  });

  it('leaks no untranslated key or English word into Italian', () => {
    const v = VOCABULARY.en;
    const keys = [
      ...KNOWN_REASONS,
      ...BALLOT_NOTES,
      ...Object.keys(v.results),
      ...Object.keys(v.how),
      ...Object.keys(v.electionReasons),
      ...Object.keys(v.hostilitySource),
      ...Object.keys(v.troopRefused),
    ];
    const words = [
      'the',
      'unit',
      'units',
      'vote',
      'votes',
      'by',
      'at',
      'to',
      'with',
      'and',
      'Chancellor',
      'planets',
      'turn',
      'none',
      'nobody',
    ];
    const refused = midGameEdict();
    refused.politics.troopRefused = 'capital-not-full';
    const texts = [...all(), refused, withElection({ how: 'no-votes-kept', outgoing: 'sith', elected: 'sith' })].map((e) =>
      render(e, 'it'),
    );
    for (const text of texts)
      for (const w of [...keys, ...words]) expect(text, w).not.toMatch(new RegExp(`(?<![\\p{L}\\d_-])${w}(?![\\p{L}\\d_-])`, 'u'));
    for (const w of ['unità', 'Cancelliere', 'pianeti', 'voti', 'riga', 'Ostile'])
      for (const e of all()) expect(render(e, 'en'), w).not.toContain(w);
  });

  it('has the same phrases in Italian and English', () => {
    const shape = (x: unknown): unknown =>
      typeof x === 'object' && x !== null && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).map(([k, y]) => [k, shape(y)]))
        : typeof x;
    expect(shape(VOCABULARY.it)).toEqual(shape(VOCABULARY.en));
  });

  it.each(LANGS)('fits a plain-text mail: no line wider than 100, prose within 78 (%s)', (lang) => {
    for (const e of all())
      for (const l of lines(render(e, lang))) {
        expect(l.length, l).toBeLessThanOrEqual(100);
        if (!l.includes(' → ') && !/^ {4}[0-9a-f]{64}$/.test(l)) expect(l.length, l).toBeLessThanOrEqual(78);
        expect(l, 'trailing space').toBe(l.trimEnd());
      }
  });
});

describe('edictToJson', () => {
  it('is canonical: fixed key order, 2-space indent, trailing newline', () => {
    for (const e of [midGameEdict(), electionEdict()]) {
      const json = edictToJson(e);
      expect(edictToJson(reversedKeys(e))).toBe(json);
      expect(json.endsWith('}\n')).toBe(true);
      expect(json.startsWith('{\n  "gameId": "andromeda",\n  "map": "classic",\n  "turn": ')).toBe(true);
      expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(e)));
    }
  });

  it('follows the order of types.ts inside nested objects, and sorts faction-keyed maps', () => {
    const json = edictToJson(reversedKeys(midGameEdict()));
    expect(json).toContain('{\n          "faction": "sith",\n          "side": "sith",\n          "order": "N9#",');
    expect(json).toContain('"planets": {\n    "aristocrats": 3,\n    "corellians": 2,\n    "hutt": 3,');
    const tally = edictToJson(withElection({ tally: { sith: 1, hutt: 3, aristocrats: 3 } }));
    expect(tally).toContain('"tally": {\n      "aristocrats": 3,\n      "hutt": 3,\n      "sith": 1\n    },');
  });

  it('keeps fields it does not know, after the known ones, and drops undefined ones', () => {
    const e = { ...midGameEdict(), zeta: 1, alpha: { b: 2, a: 1 }, election: undefined } as unknown as Edict;
    const json = edictToJson(e);
    expect(json).not.toContain('"election"');
    expect(json).toMatch(
      /"joiningNextTurn": \[\n {4}"federals"\n {2}\],\n {2}"alpha": \{\n {4}"a": 1,\n {4}"b": 2\n {2}\},\n {2}"zeta": 1\n\}\n$/,
    );
  });
});
