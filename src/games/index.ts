// The application layer's front door: everything that can happen to a game — a player's mail, the
// clock, the referee — as the rest of the program (http, cli, control, mail intake, the service)
// reaches it. Modules here import each other directly; callers outside import from this file.
export { createGame, FIRST_TURN_MIN_NOTICE_MS, type CreatedGame } from './create.ts';
export { joinGame, type JoinedGame } from './join.ts';
export type { GamesContext } from './context.ts';
export { GameError, type GameErrorCode } from './errors.ts';
export { nextWeeklyDeadline, parseWeekly, formatWeekly, isTimeZone } from './deadline.ts';
export { boardFor, slugify, type CreateGameInput, type JoinGameInput } from './input.ts';
export { privateAddress, type MailAddressing } from './welcome.ts';
export { gameThread } from './thread.ts';
export { formatInstant } from './time-format.ts';
export {
  decidePlayerMail,
  decideSheet,
  type PlayerMailDecision,
  type PlayerMailFacts,
  type SheetDecision,
  type Refusal as SheetRefusal,
} from './accept-sheet.ts';
export { readPlayerCommand, type PlayerCommand } from './player-commands.ts';
export { ordersReceivedByFaction, ordersReceivedOf, type OrdersReceived } from './orders-received.ts';

// The clock: the turn job closes turns, reminds and applies absences.
export { runTurnJob, type TurnJobDeps, type TurnJobPass } from './turn-job.ts';
export { replayTurns, type Replay } from './replay.ts';

// The referee: each action audited and told to the players in one transaction; each one's input a
// schema shared by the console, the CLI and the control socket.
export { actionInput, actionInputs, MAX_ROLLBACK_HOURS, type ActionInput, type ActionName } from './action-inputs.ts';
export {
  checkReason,
  dropMail,
  extendDeadline,
  MAX_EXTENSION_MINUTES,
  MAX_REASON_LENGTH,
  resendEdict,
  resendWelcome,
  retryMail,
} from './referee-actions.ts';
export { previewTurn, type TurnPreview } from './preview.ts';
export { amendTurn, rollBackTurn, type Amendment } from './amend-turn.ts';
export { fileDispute, listOpenDisputes, rejectDispute, type FiledDispute, type OpenDispute } from './disputes.ts';
export { pauseGame, resumeGame } from './pause.ts';
export { setLastTurn } from './game-length.ts';
export { replacePlayer } from './replace-player.ts';
export { removePlayer, type RemovedPlayer } from './remove-player.ts';
export { changePlayerAddress, MAX_ADDRESSES, type AddressChange, type PlayerAddresses } from './player-addresses.ts';
export {
  DEFAULT_PRESS_SETTINGS,
  describePressSettings,
  PRESS_MODES,
  PRESS_OPEN,
  pressSettingsOf,
  pressSettingTexts,
  type PressSettings,
  type PressSettingsPatch,
} from './press/settings.ts';
export { changePressSettings, type PressSettingsChange } from './press/change-settings.ts';
export { type PressRefusal } from './press/decide-press.ts';
export { refusalText } from './press/relay.ts';
