// Preview: what would happen if the open turn closed now, with the sheets as they stand
// — the pure engine on the turn's state, rendered as the edict would be. Nothing is stored, mailed
// or published: this module only reads.
import { adjudicate } from '../adjudicator/adjudicate.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import type { Edict } from '../adjudicator/types.ts';
import type { Db } from '../db/client.ts';
import type { Game } from '../db/games.ts';
import { standingSheets } from '../db/sheets.ts';
import { findTurn } from '../db/turns.ts';
import { renderMapSvg } from '../edict/index.ts';
import { GameError } from './errors.ts';
import { boardFor } from './input.ts';

export interface TurnPreview {
  turn: number;
  deadline: Date;
  /** The sheet version standing for each faction that sent one. */
  standing: Record<string, number>;
  edict: Edict;
  textEn: string;
  textIt: string;
  /** The map after the turn (SVG, from our renderer: no user text but the game's name, which it escapes). */
  svg: string;
}

export async function previewTurn(db: Db, game: Game, now: Date = new Date()): Promise<TurnPreview> {
  if (game.status === 'finished') throw new GameError('no-turn', 'the game is over: there is no open turn to preview');
  const turn = await findTurn(db, game.id, game.currentTurn);
  if (!turn || turn.status !== 'open') throw new GameError('no-turn', `turn ${game.currentTurn} is not open`);
  // As closeTurn would read them if it ran now: the newest version received by now (or by the
  // deadline, if that has passed already).
  const by = turn.deadline < now ? turn.deadline : now;
  const standing = await standingSheets(db, game.id, turn.number, by);
  const texts: Record<string, string> = {};
  for (const s of standing) texts[s.faction] = s.text;
  const board = boardFor(game.map);
  const { edict } = adjudicate(board, turn.state, texts);
  return {
    turn: turn.number,
    deadline: turn.deadline,
    standing: Object.fromEntries(standing.map((s) => [s.faction, s.version])),
    edict,
    textEn: renderEdict(edict, board, 'en'),
    textIt: renderEdict(edict, board, 'it'),
    svg: renderMapSvg(board, edict, { lang: 'en', gameName: game.name, idPrefix: 'preview-' }),
  };
}
