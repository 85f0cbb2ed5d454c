// The welcome mail (R-SETUP-4 for late joiners too): faction, home system, how to write a sheet,
// the first deadline in the player's time zone and their private orders address.
import { sideName } from '../adjudicator/render/vocabulary.ts';
import type { Board } from '../adjudicator/map.ts';
import type { FactionId, Lang } from '../adjudicator/types.ts';
import type { Game } from '../db/games.ts';
import type { OutboxInput } from '../db/outbox.ts';
import type { Player } from '../db/players.ts';
import { duration, weeklyAt } from '../text/duration.ts';
import { LOCALE } from '../text/locale.ts';
import { welcomeTexts } from '../text/welcome.ts';
import { formatInstant } from './time-format.ts';
import { gameMail, privateAddress, type MailAddressing } from './game-mail.ts';
import { describePressSettings, pressSettingsOf } from './press/settings.ts';

export { privateAddress, type MailAddressing };

/**
 * `every Monday at 04:00`: the weekday and time of the first deadline on the player's own clock,
 * the one every other date in the mail uses. The rule is a wall-clock time in the game's zone, so
 * where the player's zone differs the mail says that it may shift by an hour with summer time.
 */
function formatWeekly(deadline: Date, lang: Lang, timeZone: string): string {
  const day = new Intl.DateTimeFormat(LOCALE[lang], { weekday: 'long', timeZone }).format(deadline);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(deadline);
  return weeklyAt(lang, day, time);
}

/** The game's public page, where PUBLIC_URL is known. */
export function gamePageUrl(publicUrl: string | undefined, gameId: string): string | null {
  return publicUrl ? `${publicUrl.replace(/\/+$/, '')}/games/${encodeURIComponent(gameId)}` : null;
}

export interface WelcomeArgs {
  board: Board;
  game: Game;
  player: Player;
  /** Factions in play when the player enters, R-SETUP-1 order. */
  factions: FactionId[];
  /** The player's first turn and its deadline. */
  firstTurn: number;
  deadline: Date;
  mail: MailAddressing;
  /** PUBLIC_URL, for the link to the game's page. */
  publicUrl?: string | undefined;
  /** Who settles disputes (D-PRESS-17), as refereesToTell answers it. */
  settledBy: 'referees' | 'operator' | 'kept';
}

export function welcomeMail(a: WelcomeArgs): OutboxInput {
  const { board, game, player, mail } = a;
  const lang = player.lang;
  const tz = player.timeZone ?? game.timeZone;
  const data = board.factions.get(player.faction);
  if (!data) throw new Error(`faction ${player.faction} is not on map ${board.map.id}`);
  const { subject, text } = welcomeTexts[lang].welcome({
    game: game.id,
    gameName: game.name,
    player: player.displayName ?? player.email,
    email: player.email,
    faction: sideName(board, player.faction, lang),
    homeName: data.homeName,
    homeCell: data.home,
    systemCells: data.system.join(', '),
    factions: a.factions.map((f) => sideName(board, f, lang)).join(', '),
    firstTurn: a.firstTurn,
    lastTurn: game.lastTurn,
    victoryPlanets: game.victoryPlanets,
    // The same wording as every acknowledgement and reminder the player will get.
    deadline: formatInstant(a.deadline, tz, lang),
    weekly: formatWeekly(a.deadline, lang, tz),
    timeZone: tz,
    gameTimeZone: tz === game.timeZone ? null : game.timeZone,
    declarationLead: duration(lang, game.declarationLeadMinutes),
    disputeWindow: duration(lang, game.disputeWindowMinutes),
    address: privateAddress(mail, player.secret),
    commonAddress: `${mail.ordersLocalPart}@${mail.domain}`,
    secret: player.secret,
    page: gamePageUrl(a.publicUrl, game.id),
    press: describePressSettings(pressSettingsOf(game.pressSettings), lang),
    settledBy: a.settledBy,
  });
  // Replying to the welcome mail reaches the private address: the easiest first sheet. It starts
  // the player's own conversation rather than the game's thread.
  return gameMail(mail, {
    kind: 'welcome',
    gameId: game.id,
    to: player.email,
    replySecret: player.secret,
    subject,
    text,
    dedupeKey: `welcome:${player.id}`,
    threaded: false,
  });
}
