// A game's press settings (docs/press.md): defaults, validation, a referee's change, the players' description.
import { describe, expect, it } from 'vitest';
import {
  applyPressPatch,
  DEFAULT_PRESS_SETTINGS,
  describePressChange,
  describePressSettings,
  pressSettingsInput,
  pressSettingsOf,
} from '../../../src/games/press/settings.ts';

describe('press settings', () => {
  it('defaults to signed or anonymous press, private allowed, always open, nothing for observers, never revealed', () => {
    expect(DEFAULT_PRESS_SETTINGS).toEqual({
      mode: 'both',
      private: true,
      open: 'always',
      observers: 'nothing',
      reveal: 'never',
      maxChars: 8000,
      perHour: 20,
    });
    // A game stored before press existed has no settings: it gets the defaults.
    expect(pressSettingsOf(null)).toEqual(DEFAULT_PRESS_SETTINGS);
    expect(pressSettingsOf({ mode: 'off' }).mode).toBe('off');
  });

  it('refuses values outside the lists and the limits, naming the field', () => {
    const r = pressSettingsInput.safeParse({ mode: 'grey', open: 'sometimes', maxChars: 10, perHour: 1.5 });
    expect(r.success).toBe(false);
    const fields = r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(fields).toEqual([
      'mode: must be off, signed, anonymous or both',
      'open: must be always, until-declaration or until-deadline',
      'maxChars: must be at least 200',
      'perHour: must be a whole number of messages',
    ]);
  });

  it('applies a referee’s change and says which settings it changed', () => {
    const { settings, changed } = applyPressPatch(DEFAULT_PRESS_SETTINGS, { mode: 'signed', private: true, reveal: 'at-end' });
    expect(settings).toMatchObject({ mode: 'signed', private: true, reveal: 'at-end', perHour: 20 });
    expect(changed).toEqual(['mode', 'reveal']);
    expect(() => applyPressPatch(DEFAULT_PRESS_SETTINGS, { perHour: 0 })).toThrow();
  });

  it('a change keeps every setting it does not name (none falls back to its default)', () => {
    const current = { ...DEFAULT_PRESS_SETTINGS, private: false, perHour: 3, observers: 'broadcasts' as const };
    const { settings, changed } = applyPressPatch(current, { mode: 'off' });
    expect(settings).toEqual({ ...current, mode: 'off' });
    expect(changed).toEqual(['mode']);
  });

  it('says a change as label: old → new, in the words of the description, in both languages', () => {
    const to = { ...DEFAULT_PRESS_SETTINGS, private: false, maxChars: 2000 };
    expect(describePressChange(DEFAULT_PRESS_SETTINGS, to, ['private', 'maxChars'], 'en')).toEqual([
      'To whom: one or more factions, or everyone → everyone only',
      'Length of a message: at most 8000 characters → at most 2000 characters',
    ]);
    expect(describePressChange(DEFAULT_PRESS_SETTINGS, to, ['private'], 'it')).toEqual([
      'Destinatari: a una o più fazioni, oppure a tutti → solo a tutti',
    ]);
  });

  it('describes the settings to players in Italian and English', () => {
    const it_ = describePressSettings({ ...DEFAULT_PRESS_SETTINGS, private: false, open: 'until-declaration' }, 'it');
    expect(it_).toContain('Destinatari: solo a tutti');
    expect(it_.join('\n')).toMatch(/dichiarazione del Cancelliere/);
    const en = describePressSettings({ ...DEFAULT_PRESS_SETTINGS, mode: 'off' }, 'en');
    expect(en).toEqual([
      'Messages: no messages between players (only to the referees)',
      'Messages to the referees are always allowed, and always signed.',
    ]);
  });
});
