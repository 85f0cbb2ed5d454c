import { describe, expect, it } from 'vitest';
import { loadTemplate, render, renderMail, TemplateError } from '../src/templates.ts';

describe('render', () => {
  it('replaces placeholders, spaces inside braces allowed', () => {
    expect(render('Hi {{name}}, turn {{ turn }}.', { name: 'Ada', turn: 3 })).toBe('Hi Ada, turn 3.');
  });

  it('refuses a placeholder with no value', () => {
    expect(() => render('Hi {{nmae}}', { name: 'Ada' }, 'welcome.en.txt')).toThrow(new TemplateError('welcome.en.txt: no value for {{nmae}}'));
    // Inherited properties are not values.
    expect(() => render('{{constructor}}', {})).toThrow(TemplateError);
  });

  it('never expands a value: text a player chose stays as written', () => {
    expect(render('{{a}} {{b}}', { a: '{{b}}', b: '$& $1' })).toBe('{{b}} $& $1');
  });
});

describe('templates on disk', () => {
  it('every welcome template has a subject and renders with the same values', () => {
    const values = Object.fromEntries(
      ['game', 'gameName', 'player', 'email', 'faction', 'homeName', 'homeCell', 'systemCells', 'factions', 'firstTurn',
        'deadline', 'weekly', 'gameTimeZone', 'declarationLead', 'address', 'commonAddress', 'secret'].map((k) => [k, `<${k}>`]),
    );
    for (const lang of ['it', 'en'] as const) {
      const mail = renderMail('welcome', lang, values);
      expect(mail.subject).toContain('[SF <game>]');
      expect(mail.text).toContain('Code: <secret>');
      expect(mail.text).toContain('<address>');
      expect(mail.text).not.toMatch(/\{\{|\}\}/);
    }
  });

  it('refuses a template name that could leave the directory', () => {
    expect(() => loadTemplate('../package', 'en')).toThrow(TemplateError);
  });
});
