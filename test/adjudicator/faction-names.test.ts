import { describe, it, expect } from 'vitest';
import classicJson from '../../maps/classic.json' with { type: 'json' };
import { classicMap, loadMap } from '../../src/adjudicator/map.ts';
import { foldName, isNobody, nameTable, readNameList, resolveSideName } from '../../src/adjudicator/faction-names.ts';

const board = classicMap();

describe('resolveSideName', () => {
  // R-BOARD-4 table: every faction, Italian and English, singular and plural.
  const table: [string, string][] = [
    ['Hutt', 'hutt'],
    ['Hutts', 'hutt'],
    ['Aristocratici', 'aristocrats'],
    ['Aristocratico', 'aristocrats'],
    ['Aristocrats', 'aristocrats'],
    ['Aristocrat', 'aristocrats'],
    ['Sith', 'sith'],
    ['Siths', 'sith'],
    ['Cavalieri', 'knights'],
    ['Cavaliere', 'knights'],
    ['Cavalieri Jedi', 'knights'],
    ['Knights', 'knights'],
    ['Knight', 'knights'],
    ['Jedi Knights', 'knights'],
    ['Jedi', 'knights'],
    ['Corelliani', 'corellians'],
    ['Corelliano', 'corellians'],
    ['Mercanti indipendenti', 'corellians'],
    ['Mercante indipendente', 'corellians'],
    ['Corellians', 'corellians'],
    ['Independent Traders', 'corellians'],
    ['Independent Trader', 'corellians'],
    ['Mercanti', 'merchants'],
    ['Mercante', 'merchants'],
    ['Merchants', 'merchants'],
    ['Merchant', 'merchants'],
    ['Federali', 'federals'],
    ['Federale', 'federals'],
    ['Federals', 'federals'],
    ['Federal', 'federals'],
    ['Fondatori', 'founders'],
    ['Fondatore', 'founders'],
    ['Founders', 'founders'],
    ['Founder', 'founders'],
    ['Imperiali', 'imperial'],
    ['Imperial', 'imperial'],
    ['Truppe Imperiali', 'imperial'],
    ['Imperial Troops', 'imperial'],
  ];
  for (const [name, side] of table)
    it(`R-ORD-1/R-BOARD-4: '${name}' names ${side}`, () => {
      expect(resolveSideName(name, board)).toBe(side);
    });

  it('R-ORD-1: any case, accents ignored, extra spaces collapsed', () => {
    expect(resolveSideName('Aristocràtici', board)).toBe('aristocrats');
    expect(resolveSideName('ARISTOCRATS', board)).toBe('aristocrats');
    expect(resolveSideName('  mercanti    INDIPENDENTI ', board)).toBe('corellians');
    expect(resolveSideName('Fédérali', board)).toBe('federals');
    expect(resolveSideName('cavalieri\tjedi', board)).toBe('knights');
  });

  it('R-ORD-1: Mercanti indipendenti is the Corellians, Mercanti alone the Merchants', () => {
    expect(resolveSideName('Mercanti indipendenti', board)).toBe('corellians');
    expect(resolveSideName('Mercanti', board)).toBe('merchants');
  });

  it('R-ORD-1: faction ids count as names, a trailing full stop is allowed', () => {
    expect(resolveSideName('corellians', board)).toBe('corellians');
    expect(resolveSideName('Sith.', board)).toBe('sith');
  });

  it('R-ORD-8: an unknown name, a list, or nothing names no side', () => {
    expect(resolveSideName('Pippo', board)).toBeNull();
    expect(resolveSideName('', board)).toBeNull();
    expect(resolveSideName('Sith e Hutt', board)).toBeNull();
    expect(resolveSideName('indipendenti', board)).toBeNull();
  });

  it('R-BOARD-5: names are map data, and a name shared by two sides names neither', () => {
    const json = structuredClone(classicJson);
    json.factions[0]!.names.en.push('Jedi');
    const other = loadMap(json);
    expect(resolveSideName('Jedi', other)).toBeNull();
    expect(resolveSideName('Knights', other)).toBe('knights');
    expect(resolveSideName('Jedi', board)).toBe('knights');
  });
});

describe('readNameList', () => {
  const sides = (text: string) => readNameList(text, board).map((x) => x.side);

  it('R-ORD-1: separators , ; / & and the words e / and', () => {
    expect(sides('Sith, Hutt; Mercanti / Federali & Fondatori')).toEqual(['sith', 'hutt', 'merchants', 'federals', 'founders']);
    expect(sides('Sith e Hutt and Jedi ed Fondatori + Federali')).toEqual(['sith', 'hutt', 'knights', 'founders', 'federals']);
  });

  it('R-ORD-1: the longest name wins, so Mercanti indipendenti is one name', () => {
    expect(sides('Mercanti indipendenti e Mercanti')).toEqual(['corellians', 'merchants']);
    expect(sides('Cavalieri Jedi and Independent Traders')).toEqual(['knights', 'corellians']);
  });

  it('R-ORD-8: a piece that is not exactly one name is unknown as a whole, never half-read', () => {
    expect(readNameList('tutti tranne Sith', board)).toEqual([{ side: null, text: 'tutti tranne Sith' }]);
    expect(readNameList('Sith Hutt', board)).toEqual([{ side: null, text: 'Sith Hutt' }]);
    expect(readNameList('Pippo e Sith', board)).toEqual([
      { side: null, text: 'Pippo' },
      { side: 'sith', text: 'Sith' },
    ]);
  });

  it('R-ORD-1: a connector word inside a multi-word name does not split it', () => {
    const json = structuredClone(classicJson);
    json.factions[0]!.names.en.push('Bread');
    json.factions[7]!.names.en.push('Bread and Butter');
    const other = loadMap(json);
    expect(readNameList('Sith and Bread and Butter, Jedi', other).map((x) => x.side)).toEqual(['sith', 'founders', 'knights']);
    expect(readNameList('Bread and Jedi', other).map((x) => x.side)).toEqual(['hutt', 'knights']);
  });

  it('keeps the words as written for the message', () => {
    expect(readNameList('  Aristocràtici ,  PIPPO  baudo ', board)).toEqual([
      { side: 'aristocrats', text: 'Aristocràtici' },
      { side: null, text: 'PIPPO baudo' },
    ]);
  });
});

describe('helpers', () => {
  it('foldName strips accents, case and extra spaces', () => {
    expect(foldName('  Ostilità   Aristocràtici ')).toBe('ostilita aristocratici');
  });
  it('R-ORD-1: nessuno / none / - mean nobody', () => {
    for (const w of ['nessuno', 'None', 'NOBODY', '-', 'nessuno.']) expect(isNobody(w)).toBe(true);
    expect(isNobody('Sith')).toBe(false);
  });
  it('the table is built once per board and lists one display name per side', () => {
    expect(nameTable(board)).toBe(nameTable(board));
    expect(nameTable(board).display.it).toEqual([
      'Hutt',
      'Aristocratici',
      'Sith',
      'Cavalieri',
      'Mercanti',
      'Corelliani',
      'Federali',
      'Fondatori',
      'Imperiali',
    ]);
  });
});
