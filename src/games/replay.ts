// `sf turn replay <game>`: re-adjudicates every stored turn with the current engine, from the
// position and the very sheets each edict was made from, and reports any difference from the stored
// edict — the check before any upgrade of the engine (R-EDICT-2: same input, same edict).
import { adjudicate } from '../adjudicator/adjudicate.ts';
import { edictToJson } from '../adjudicator/render/edict-json.ts';
import type { Edict } from '../adjudicator/types.ts';
import { ENGINE_VERSION } from '../adjudicator/version.ts';
import type { Db } from '../db/client.ts';
import { listEdicts } from '../db/edicts.ts';
import { findGame } from '../db/games.ts';
import { sheetsById } from '../db/sheets.ts';
import { listTurns } from '../db/turns.ts';
import { GameError } from './errors.ts';
import { boardFor } from './input.ts';
import { noSuchGame } from '../errors.ts';

export interface ReplayedTurn {
  turn: number;
  version: number;
  storedEngine: string | null;
  same: boolean;
  /** The first differing lines of the edict's canonical JSON, stored (-) and replayed (+). */
  diff: string[];
}

export interface Replay {
  gameId: string;
  engine: string;
  turns: ReplayedTurn[];
}

export async function replayTurns(db: Db, gameId: string): Promise<Replay> {
  const game = await findGame(db, gameId);
  if (!game) throw new GameError('no-game', noSuchGame(gameId));
  const board = boardFor(game.map);
  const turns = new Map((await listTurns(db, gameId)).map((t) => [t.number, t]));
  const out: ReplayedTurn[] = [];
  for (const e of await listEdicts(db, gameId)) {
    // Amendments (R-EDICT-3) carry the referee's choices: only what the turn job wrote is the engine's own work.
    if (e.createdBy !== 'system') continue;
    const turn = turns.get(e.turn);
    const ids = Object.values((e.sheetIds ?? {}) as Record<string, number>);
    const sheets = await sheetsById(db, ids);
    const texts = Object.fromEntries(sheets.map((s) => [s.faction, s.text]));
    if (!turn) continue;
    const replayed = adjudicate(board, turn.state, texts).edict;
    const diff = lineDiff(edictToJson(e.json), edictToJson(replayed as Edict));
    out.push({ turn: e.turn, version: e.version, storedEngine: e.engineVersion, same: diff.length === 0, diff });
  }
  return { gameId, engine: ENGINE_VERSION, turns: out };
}

/** The lines that differ, position by position, at most 40: enough to see what changed. */
function lineDiff(a: string, b: string): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(x.length, y.length) && out.length < 40; i++) {
    if (x[i] === y[i]) continue;
    if (x[i] !== undefined) out.push(`- ${x[i]}`);
    if (y[i] !== undefined) out.push(`+ ${y[i]}`);
  }
  return out;
}
