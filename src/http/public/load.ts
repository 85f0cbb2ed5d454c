// What a game's public page and API show, read in one place so that the page and the JSON agree.
// Sheets: only whether each faction sent one (none / problems / valid), and the Chancellor's
// accepted sheet as parsed (R-TURN-3); never a sheet's text (D-WEB-1).
import type { Board } from '../../adjudicator/map.ts';
import type { Db } from '../../db/client.ts';
import { hasOpenDispute } from '../../db/disputes.ts';
import { findGame, type Game } from '../../db/games.ts';
import { latestBroadcasts, type PublicBroadcast } from '../../db/press.ts';
import {
  chancellorDeclaration,
  edictBefore,
  edictHeaders,
  publicAbsences,
  publicSeats,
  publicTurn,
  type ChancellorDeclaration,
  type EdictHeader,
  type PublicAbsence,
  type PublicEdict,
  type PublicTurn,
} from '../../db/public-views.ts';
import { boardFor, type OrdersReceived, ordersReceivedByFaction, pressSettingsOf } from '../../games/index.ts';

/** Game ids are slugs (the games_id_slug check): anything else names no game and costs no query. */
export const GAME_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;
/** A turn or version number as it appears in a URL. */
export const NUMBER = /^[1-9][0-9]{0,6}$/;

export interface GameData {
  game: Game;
  board: Board;
  turn: PublicTurn;
  seats: Array<{ faction: string; joinedTurn: number }>;
  received: Record<string, OrdersReceived>;
  declaration: ChancellorDeclaration | null;
  lastEdict: PublicEdict | null;
  archive: EdictHeader[];
  /** Absences announced and not over (D-ABS-1). */
  absences: PublicAbsence[];
  /** The closed turn a dispute is open on, if any: the page says so, never who or why (D-PRESS-16). */
  disputedTurn?: number | null;
  /**
   * The newest messages to everyone, newest first, when the game shows them to observers
   * (`observers = broadcasts`); null when it does not. Only those already visible (D-PRESS-10).
   */
  broadcasts?: { total: number; broadcasts: PublicBroadcast[] } | null;
}

/** How many messages to everyone the page and its JSON show: the newest (D-PRESS-28). */
export const BROADCASTS_SHOWN = 50;

/** Today's date in a zone, `YYYY-MM-DD` (en-CA writes dates that way). */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export async function loadGame(db: Db, id: string, now = new Date()): Promise<GameData | null> {
  if (!GAME_ID.test(id)) return null;
  const game = await findGame(db, id);
  if (!game) return null;
  const turn = await publicTurn(db, id, game.currentTurn);
  if (!turn) return null;
  // Disputes are about the last closed turn's edict; older ones lapsed when the next turn closed.
  const lastClosed = game.status === 'finished' ? turn.number : turn.number - 1;
  const showBroadcasts = pressSettingsOf(game.pressSettings).observers === 'broadcasts';
  const [seats, received, declaration, lastEdict, archive, absences, disputed, broadcasts] = await Promise.all([
    publicSeats(db, id),
    ordersReceivedByFaction(db, id, turn.number, turn.state.factions),
    // Once the turn is closed every sheet is public in the archive's edict; before, only this one.
    chancellorDeclaration(db, id, turn.number, turn.state.chancellor),
    // The newest edict up to the current turn (the current one too, once the game is finished).
    edictBefore(db, id, turn.number + 1),
    edictHeaders(db, id),
    publicAbsences(db, id, todayIn(game.timeZone, now)),
    lastClosed >= 1 ? hasOpenDispute(db, id, lastClosed) : false,
    showBroadcasts ? latestBroadcasts(db, id, BROADCASTS_SHOWN, now) : null,
  ]);
  const disputedTurn = disputed ? lastClosed : null;
  return { game, board: boardFor(game.map), turn, seats, received, declaration, lastEdict, archive, absences, disputedTurn, broadcasts };
}

/** The JSON of a game's public state (the API and nothing else reads this shape). */
export function gameJson(d: GameData) {
  const { game, turn } = d;
  const open = turn.status === 'open' && game.status !== 'finished';
  return {
    id: game.id,
    name: game.name,
    status: game.status,
    map: game.map,
    timeZone: game.timeZone,
    weeklyDeadline: game.weeklyDeadline,
    victoryPlanets: game.victoryPlanets,
    lastTurn: game.lastTurn,
    turn: {
      number: turn.number,
      status: turn.status,
      election: turn.number === 1 || turn.state.election,
      chancellor: turn.state.chancellor,
      deadline: open ? turn.deadline.toISOString() : null,
      declarationDeadline: open && turn.state.chancellor ? turn.declarationDeadline.toISOString() : null,
      factions: turn.state.factions,
      units: turn.state.units,
    },
    players: d.seats.map((s) => ({ faction: s.faction, joinedTurn: s.joinedTurn, inPlay: turn.state.factions.includes(s.faction) })),
    ordersReceived: d.received,
    chancellorDeclaration: d.declaration
      ? {
          faction: d.declaration.faction,
          receivedAt: d.declaration.receivedAt.toISOString(),
          hostility: d.declaration.hostility,
          orders: d.declaration.orders,
        }
      : null,
    planets: d.lastEdict ? { afterTurn: d.lastEdict.turn, byFaction: d.lastEdict.json.planets } : null,
    absences: d.absences,
    edicts: d.archive.map((e) => ({ turn: e.turn, version: e.version, reason: e.reason, createdAt: e.createdAt.toISOString() })),
    // Messages to everyone, when the game publishes them (observers = broadcasts); else null.
    broadcasts: d.broadcasts
      ? {
          total: d.broadcasts.total,
          newest: d.broadcasts.broadcasts.map((b) => ({
            turn: b.turn,
            writer: b.byReferee ? 'referee' : b.writerFaction,
            sign: b.sign,
            text: b.text,
            at: b.at.toISOString(),
          })),
        }
      : null,
  };
}
