// `sf game show`: every schedule setting of a game, in words, off and on.
import { describe, expect, it } from 'vitest';
import { scheduleLines, type GameView } from '../../src/cli/game-format.ts';

const game: GameView = {
  id: 'g',
  name: 'G',
  map: 'classic',
  status: 'active',
  currentTurn: 1,
  timeZone: 'Europe/Rome',
  weeklyDeadline: 'sun 20:00',
  declarationLeadMinutes: 120,
  reminderMinutes: [1440, 120],
  disputeWindowMinutes: 1440,
  earlyProcessingMinutes: null,
  graceMinutes: 0,
  absenceDaysPerPlayer: 14,
  absenceDaysPerGame: 28,
  victoryPlanets: 12,
  lastTurn: null,
  nmrHostility: 'keep',
};

describe('scheduleLines', () => {
  it('names every setting: the weekly time and declaration, reminders, early processing, grace, absence limits', () => {
    expect(scheduleLines(game)).toEqual([
      'weekly deadline sun 20:00 (Europe/Rome); the Chancellor declares 2 hours before (R-TURN-3)',
      'reminders 24 hours, 2 hours before; disputes within 24 hours',
      'early processing: off',
      'grace period: none',
      'absences: a deadline moves at most 14 days per player, 28 days per game (D-ABS-1)',
    ]);
  });

  it('says the values of settings that are on', () => {
    const lines = scheduleLines({ ...game, earlyProcessingMinutes: 1, graceMinutes: 30, reminderMinutes: [] });
    expect(lines).toContain(
      'early processing: 1 minute after every sheet is in and valid (D-TURN-5); the next deadline then at least 48 hours after (D-TURN-7)',
    );
    expect(lines).toContain('grace period: 30 minutes after the deadline (D-TURN-6)');
    expect(lines[1]).toBe('reminders none; disputes within 24 hours');
  });
});
