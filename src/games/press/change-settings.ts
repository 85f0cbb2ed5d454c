// A referee changes a game's press settings (docs/press.md §3): in one transaction the new settings
// are stored, the audit log keeps old and new, and every seated player is mailed, in their
// language, which settings changed (old → new) and the settings now. The next press mail is
// decided with the stored settings (decide-press reads them), so the change applies from there.
import { recordAudit } from '../../db/audit.ts';
import type { Db } from '../../db/client.ts';
import { lockGame, updateGame } from '../../db/games.ts';
import { enqueueMany } from '../../db/outbox.ts';
import { listPlayers } from '../../db/players.ts';
import { refereeTexts } from '../../text/referee-mail.ts';
import type { GamesContext } from '../context.ts';
import { GameError } from '../errors.ts';
import { playerMail } from '../game-mail.ts';
import { parseInput } from '../input.ts';
import { applyPressPatch, describePressChange, describePressSettings, pressSettingsOf, pressSettingsPatch } from './settings.ts';
import type { PressSettings, PressSettingsPatch } from './settings.ts';

export interface PressSettingsChange {
  /** The settings that differ from before, in the settings' order; empty: nothing changed, nobody mailed. */
  changed: (keyof PressSettings)[];
  from: PressSettings;
  settings: PressSettings;
  /** Players mailed. */
  told: number;
}

export async function changePressSettings(
  db: Db,
  gameId: string,
  patch: PressSettingsPatch,
  reason: string,
  ctx: GamesContext,
): Promise<PressSettingsChange> {
  // Values outside the lists or limits are refused naming the setting, before anything is read.
  const checked = parseInput(pressSettingsPatch, patch);
  const now = ctx.now?.() ?? new Date();
  return db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game) throw new GameError('no-game', `there is no game ${gameId}`);
    if (game.status === 'finished') throw new GameError('game-finished', `game ${gameId} is over: its press settings can no longer change`);
    const from = pressSettingsOf(game.pressSettings);
    const { settings, changed } = applyPressPatch(from, checked);
    // D-PRESS-20: a change that changes nothing is no change: nothing stored, logged or mailed.
    if (changed.length === 0) return { changed, from, settings, told: 0 };
    await updateGame(tx, gameId, { pressSettings: settings });
    await recordAudit(tx, {
      actor: ctx.actor,
      gameId,
      action: 'game.press',
      detail: {
        reason,
        changed,
        from: Object.fromEntries(changed.map((k) => [k, from[k]])),
        to: Object.fromEntries(changed.map((k) => [k, settings[k]])),
      },
    });
    const players = await listPlayers(tx, gameId);
    await enqueueMany(
      tx,
      players.map((p) =>
        playerMail(ctx.mail, p, {
          kind: 'press-settings',
          gameId,
          rendered: refereeTexts[p.lang].pressChanged({
            game: gameId,
            gameName: game.name,
            changes: describePressChange(from, settings, changed, p.lang),
            now: describePressSettings(settings, p.lang),
            reason,
          }),
          dedupeKey: `press-settings:${gameId}:${now.toISOString()}:${p.id}`,
        }),
      ),
    );
    return { changed, from, settings, told: players.length };
  });
}
