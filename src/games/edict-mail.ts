// The Imperial Edict as every player receives it (R-EDICT-1): in their language, with the next
// deadlines on their own clock and their private address, the map and the edict's JSON attached
// (stored once for all recipients), threaded under the game's thread.
import type { Board } from '../adjudicator/map.ts';
import { edictToJson } from '../adjudicator/render/edict-json.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import type { Edict, Lang } from '../adjudicator/types.ts';
import { putAsset, type AttachmentRef } from '../db/assets.ts';
import type { Db } from '../db/client.ts';
import type { Game } from '../db/games.ts';
import { newMessageId, type OutboxInput } from '../db/outbox.ts';
import type { Player } from '../db/players.ts';
import type { Turn } from '../db/turns.ts';
import { renderMail } from '../templates.ts';
import { escapeHtml } from '../text/escape.ts';
import { gameThread } from './thread.ts';
import { formatInstant } from './time-format.ts';
import { privateAddress, type MailAddressing } from './welcome.ts';

export interface EdictAssets {
  json: AttachmentRef;
  png: AttachmentRef | null;
  /** The map's text description, for the HTML part's alt text. */
  mapAlt: string | null;
}

/** A map renderer: the PNG of the final situation and its description. Optional, so a missing renderer never blocks an edict. */
export type MapPicture = (board: Board, game: Game, edict: Edict) => { png: Buffer; alt: string } | null;
let mapPicture: MapPicture = () => null;
export function useMapPicture(render: MapPicture): void {
  mapPicture = render;
}

export async function storeEdictAssets(tx: Db, board: Board, game: Game, edict: Edict): Promise<EdictAssets> {
  const jsonId = await putAsset(tx, 'application/json', Buffer.from(edictToJson(edict)));
  const json: AttachmentRef = { assetId: jsonId, filename: `edict-${game.id}-turn-${edict.turn}.json`, contentType: 'application/json' };
  const picture = mapPicture(board, game, edict);
  if (!picture) return { json, png: null, mapAlt: null };
  const pngId = await putAsset(tx, 'image/png', picture.png);
  return { json, png: { assetId: pngId, filename: `map-${game.id}-turn-${edict.turn}.png`, contentType: 'image/png', cid: MAP_CID }, mapAlt: picture.alt };
}

const MAP_CID = 'map@starts-foundation';

export interface EdictMailArgs {
  board: Board;
  game: Game;
  edict: Edict;
  version: number;
  /** Why the referee amended it (R-EDICT-3); null for version 1. */
  reason: string | null;
  /** The turn was closed well after its deadline (the service was down): when, to tell players. */
  late?: { deadline: Date; closedAt: Date } | null;
  players: readonly Player[];
  /** The turn opened by this edict; null when the game is over. */
  nextTurn: Pick<Turn, 'deadline' | 'declarationDeadline'> | null;
  assets: EdictAssets;
  mail: MailAddressing;
}

export function edictMails(a: EdictMailArgs): OutboxInput[] {
  return a.players.map((p) => edictMail(a, p));
}

function edictMail(a: EdictMailArgs, player: Player): OutboxInput {
  const { game, edict, board } = a;
  const lang: Lang = player.lang;
  const tz = player.timeZone ?? game.timeZone;
  const deadlines = a.nextTurn
    ? {
        nextDeadline: formatInstant(a.nextTurn.deadline, tz, lang),
        ...(edict.chancellor ? { declarationDeadline: formatInstant(a.nextTurn.declarationDeadline, tz, lang) } : {}),
      }
    : {};
  const text = renderEdict(edict, board, lang, deadlines);
  const it = lang === 'it';
  const { subject, text: body } = renderMail('edict', lang, {
    game: game.id,
    gameName: game.name,
    turn: edict.turn,
    versionNote: a.version > 1 ? (it ? ` (emendato, versione ${a.version})` : ` (amended, version ${a.version})`) : '',
    amendment: a.reason
      ? it
        ? `L'arbitro ha emendato questo editto (R-EDICT-3). Motivo: ${a.reason}\n\n`
        : `The referee has amended this edict (R-EDICT-3). Reason: ${a.reason}\n\n`
      : '',
    gameOver: a.nextTurn ? '' : it ? 'La partita è finita.\n' : 'The game is over.\n',
    lateNote: a.late
      ? it
        ? `\nQuesto turno è stato chiuso in ritardo, ${formatInstant(a.late.closedAt, tz, lang)}, perché il servizio non era attivo alla scadenza (${formatInstant(a.late.deadline, tz, lang)}). Contano solo i fogli ricevuti entro la scadenza (D-TURN-2).\n`
        : `\nThis turn was closed late, ${formatInstant(a.late.closedAt, tz, lang)}, because the service was not running at its deadline (${formatInstant(a.late.deadline, tz, lang)}). Only sheets received by the deadline count (D-TURN-2).\n`
      : '',
    address: privateAddress(a.mail, player.secret),
    attachmentsNote: a.assets.png
      ? it ? "In allegato la mappa (PNG) e l'editto come dati (JSON)." : 'The map is attached (PNG), and the edict as data (JSON).'
      : it ? "In allegato l'editto come dati (JSON)." : 'The edict as data is attached (JSON).',
    edict: text,
  });
  const thread = gameThread(game.id, a.mail.domain);
  const attachments = [a.assets.json, ...(a.assets.png ? [a.assets.png] : [])];
  return {
    kind: a.version > 1 ? 'edict-amended' : 'edict',
    gameId: game.id,
    toAddress: player.email,
    replyTo: privateAddress(a.mail, player.secret),
    subject,
    inReplyTo: thread,
    references: thread,
    messageId: newMessageId(a.mail.domain),
    bodyText: body,
    bodyHtml: edictHtml(body, a.assets, lang),
    attachments,
    dedupeKey: `edict:${game.id}:${edict.turn}:${a.version}:${player.id}`,
  };
}

/** The same text, monospaced (the ASCII map and tables need it), with the map inline above it. */
function edictHtml(text: string, assets: EdictAssets, lang: Lang): string {
  const img = assets.png
    ? `<p><img src="cid:${MAP_CID}" alt="${escapeHtml(assets.mapAlt ?? (lang === 'it' ? 'Mappa' : 'Map'))}" style="max-width:100%;height:auto"></p>\n`
    : '';
  return `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"></head><body>\n${img}<pre style="font-family:monospace;white-space:pre-wrap">${escapeHtml(text)}</pre>\n</body></html>\n`;
}
