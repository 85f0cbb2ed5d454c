// A game as the public pages see it, built through the real services: created, turn 1 closed
// (the Hutt elected), turn 2 with the Chancellor's declaration in and a secret sheet from another
// player, and turn 1's edict amended once. Used by the page tests, the browser test and the bench.
import { reviewSheet } from '../../src/adjudicator/review.ts';
import type { Db } from '../../src/db/client.ts';
import { insertEdictVersion, latestEdict } from '../../src/db/edicts.ts';
import { findGame } from '../../src/db/games.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { findTurn } from '../../src/db/turns.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { createGame, type GamesContext } from '../../src/games/index.ts';
import { boardFor } from '../../src/games/input.ts';
import { storedReview } from '../../src/mail/intake/stored-review.ts';

export const HOSTILE_NAME = `Orione <script>alert("x")</script> & 'co'`;
export const HOSTILE_REASON = `Contested advance <img src=x onerror=alert(1)> settled`;
/** A word that appears only in a sheet sent before the deadline of the open turn. */
export const SECRET_WORD = 'ZANZIBAR-SECRET';

// Thursday 20 March 2025 in Rome: turn 1 is due Sunday 23 March 20:00 (19:00 UTC).
const START = new Date('2025-03-20T10:00:00Z');
const WEEK = 7 * 24 * 3_600_000;
const TURN1_DEADLINE = new Date('2025-03-23T19:00:00Z');

const MOVES: Record<string, string> = {
  hutt: 'B2-C3',
  aristocrats: 'F7-E8',
  sith: 'T7-S8',
  knights: 'X2-W3',
  merchants: 'T13-S14',
  corellians: 'G13-H14',
  federals: 'B17-C16',
  founders: 'X17-W16',
};

export interface World {
  gameId: string;
  ctx: GamesContext;
  setNow(d: Date): void;
}

async function send(db: Db, gameId: string, faction: string, text: string, at: Date): Promise<void> {
  const game = (await findGame(db, gameId))!;
  const turn = (await findTurn(db, gameId, game.currentTurn))!;
  const review = reviewSheet(boardFor(game.map), turn.state, faction, text);
  const r = await addSheetVersion(db, {
    gameId,
    turn: turn.number,
    faction,
    text,
    parsed: storedReview(review),
    status: review.status,
    receivedAt: at,
    inboundId: null,
  });
  if (!r.ok) throw new Error(`sheet refused: ${r.reason}`);
}

/** `players` 4 to 8; `turns` closed turns (at least 1); `lastTurn` (R-WIN-2): `turns` = `lastTurn` makes a finished game. */
export async function buildWorld(
  db: Db,
  opts: { name?: string; players?: number; turns?: number; lastTurn?: number } = {},
): Promise<World> {
  let now = START;
  const ctx: GamesContext = { actor: 'test', mail: { domain: 'sf.test', ordersLocalPart: 'orders' }, now: () => now };
  const n = opts.players ?? 4;
  const { game } = await createGame(
    db,
    {
      name: opts.name ?? HOSTILE_NAME,
      players: Array.from({ length: n }, (_, i) => ({ email: `p${i}@example.com`, lang: i % 2 ? ('it' as const) : ('en' as const) })),
      timeZone: 'Europe/Rome',
      weeklyDeadline: 'sun 20:00',
      declarationLeadMinutes: 120,
      ...(opts.lastTurn ? { lastTurn: opts.lastTurn } : {}),
    },
    ctx,
  );
  const id = game.id;
  await send(db, id, 'hutt', 'V: Hutt', now);
  await send(db, id, 'aristocrats', 'V: Hutt', now);
  await send(db, id, 'sith', 'V: Sith', now);
  for (let t = 1; t <= (opts.turns ?? 1); t++) {
    if (t === 2) {
      // Some moves, so that the map has arrows to draw.
      const turn = (await findTurn(db, id, 2))!;
      const at = new Date(turn.deadline.getTime() - 3_600_000);
      for (const [faction, order] of Object.entries(MOVES))
        if (turn.state.factions.includes(faction)) await send(db, id, faction, order, at);
    }
    now = new Date(TURN1_DEADLINE.getTime() + (t - 1) * WEEK + 60_000);
    const out = await closeTurn(db, id, t, ctx);
    if (!out.closed) throw new Error(`turn ${t} did not close: ${out.reason}`);
  }
  // A finished game: no open turn to declare or send in.
  if ((await findGame(db, id))!.status === 'finished') return { gameId: id, ctx, setNow: (d) => void (now = d) };
  // The referee amends turn 1 (R-EDICT-3): a new version with its reason.
  const first = (await latestEdict(db, id, 1))!;
  // Stored directly: amendTurn refuses a turn whose next turn has closed, and this world has closed four.
  await insertEdictVersion(db, { ...first, version: 2, reason: HOSTILE_REASON, createdBy: 'referee:test' });
  // The open turn: the Chancellor declares (public, R-TURN-3); another player's sheet stays secret.
  const g = (await findGame(db, id))!;
  const open = (await findTurn(db, id, g.currentTurn))!;
  const sent = new Date(open.deadline.getTime() - 3 * 24 * 3_600_000);
  if (open.state.chancellor) await send(db, id, open.state.chancellor, 'H: Sith', sent);
  // A line shaped like an order that cannot be read: a problem (R-ORD-8) whose words stay secret.
  await send(db, id, 'sith', `H: Hutt\nB2 ${SECRET_WORD}`, sent);
  now = sent;
  return { gameId: id, ctx, setNow: (d) => void (now = d) };
}
