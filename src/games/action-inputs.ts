// What each referee action takes, as one zod schema: the registry of operations checks `sf referee …`
// and the control socket with it, and the console's forms are read into it. What the values mean
// (an address, a cell, a reason's length) is checked by the action itself.
import { z } from 'zod';
import { GameError } from './errors.ts';
import { pressSettingsPatch } from './press/settings.ts';

/** A re-opened turn is due at most two weeks from now. */
export const MAX_ROLLBACK_HOURS = 336;

const str = z.string();
const id = z.number().int().min(1);
/** Game ids are lower case; a referee may type them otherwise. */
const gameId = str.transform((s) => s.trim().toLowerCase());
/** A player: by faction or any of their addresses (a terminal), or by id (the console). */
const player = z.union([id, str]);

export const actionInputs = {
  extend: z.object({ gameId, minutes: z.number().int(), reason: str }),
  resendWelcome: z.object({ gameId, player, reason: str }),
  resendEdict: z.object({ gameId, turn: id, player: player.optional(), reason: str }),
  retryMail: z.object({ gameId, outboxId: id, reason: str }),
  dropMail: z.object({ gameId, outboxId: id, reason: str }),
  amend: z.object({
    gameId,
    turn: id,
    reason: str,
    advances: z.record(z.string(), z.string()).optional(),
    faction: str.optional(),
    sheet: str.optional(),
    confirm: z.boolean().optional(),
  }),
  rollback: z.object({
    gameId,
    hours: z.number().int().min(1).max(MAX_ROLLBACK_HOURS, `a re-opened turn is due within ${MAX_ROLLBACK_HOURS} hours (two weeks)`),
    reason: str,
  }),
  replace: z.object({ gameId, faction: str, email: str, lang: z.enum(['it', 'en']).optional(), reason: str }),
  remove: z.object({ gameId, player: str, reason: str }),
  address: z.object({ gameId, player: str, change: z.enum(['add', 'remove', 'primary']), email: str, reason: str }),
  pause: z.object({ gameId, reason: str }),
  resume: z.object({ gameId, reason: str }),
  length: z.object({ gameId, lastTurn: id.nullable(), reason: str }),
  /** Any of the press settings (docs/press.md §3); those left out stay as they are. */
  press: z.object({ gameId, press: pressSettingsPatch, reason: str }),
  disputes: z.object({ gameId }),
  rejectDispute: z.object({ gameId, disputeId: id, reason: str }),
} as const;

export type ActionName = keyof typeof actionInputs;
export type ActionInput<A extends ActionName> = z.output<(typeof actionInputs)[A]>;

/** A console form's values read into an action's input: what does not fit is the referee's to correct. */
export function actionInput<A extends ActionName>(action: A, values: z.input<(typeof actionInputs)[A]>): ActionInput<A> {
  const parsed = actionInputs[action].safeParse(values);
  if (parsed.success) return parsed.data as ActionInput<A>;
  const issue = parsed.error.issues[0]!;
  throw new GameError('invalid-input', issue.message, issue.path.join('.') || undefined);
}
