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
import { enqueueMany, newMessageId, type OutboxInput } from '../db/outbox.ts';
import { activeObservers, type Observer } from '../db/observers.ts';
import type { Player } from '../db/players.ts';
import type { Turn } from '../db/turns.ts';
import { describeMap, renderMapPngOffThread, renderMapSvg } from '../edict/index.ts';
import { renderMail } from '../templates.ts';
import { escapeHtml } from '../text/escape.ts';
import { gameThread } from './thread.ts';
import { formatInstant } from './time-format.ts';
import { privateAddress, type MailAddressing } from './welcome.ts';

export interface EdictAssets {
  json: AttachmentRef;
  /** The map in each language the players read (its title and legend are in words). */
  maps: Partial<Record<Lang, { png: AttachmentRef; alt: string }>>;
}

/**
 * The edict's files, stored once for all its recipients: the JSON, and the map's PNG in each
 * language some player reads, drawn on worker threads (src/edict/png-pool.ts).
 */
export async function storeEdictAssets(tx: Db, board: Board, game: Game, edict: Edict, langs: Iterable<Lang>): Promise<EdictAssets> {
  const jsonId = await putAsset(tx, 'application/json', Buffer.from(edictToJson(edict)));
  const json: AttachmentRef = { assetId: jsonId, filename: `edict-${game.id}-turn-${edict.turn}.json`, contentType: 'application/json' };
  const maps: EdictAssets['maps'] = {};
  for (const lang of new Set(langs)) {
    const png = await renderMapPngOffThread(renderMapSvg(board, edict, { lang, gameName: game.name }));
    const id = await putAsset(tx, 'image/png', png);
    maps[lang] = {
      png: { assetId: id, filename: `map-${game.id}-turn-${edict.turn}.png`, contentType: 'image/png', cid: MAP_CID },
      alt: describeMap(board, edict, lang, game.name),
    };
  }
  return { json, maps };
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

/**
 * Publishes an edict version: its files stored once, every player's mail and every observer's
 * (opt-in, with a one-click unsubscribe; only with a PUBLIC_URL for the link) queued — what closing
 * a turn and amending one both do, in their transaction.
 */
export async function publishEdict(tx: Db, a: Omit<EdictMailArgs, 'assets'>, publicUrl: string | undefined): Promise<void> {
  const assets = await storeEdictAssets(tx, a.board, a.game, a.edict, a.players.map((p) => p.lang));
  await enqueueMany(tx, edictMails({ ...a, assets }));
  const watching = publicUrl ? await activeObservers(tx, a.game.id) : [];
  await enqueueMany(tx, observerMails({ ...a, assets }, watching, publicUrl ?? ''));
}

export function edictMails(a: EdictMailArgs): OutboxInput[] {
  // The edict's text differs only by language and zone (the deadlines): rendered once for each.
  const texts = new Map<string, string>();
  const textFor = (lang: Lang, tz: string, deadlines: Parameters<typeof renderEdict>[3]) => {
    const key = `${lang} ${tz}`;
    let t = texts.get(key);
    if (t === undefined) texts.set(key, (t = renderEdict(a.edict, a.board, lang, deadlines)));
    return t;
  };
  return a.players.map((p) => edictMail(a, p, textFor));
}

/**
 * The edict for the game's observers (opt-in): the same edict and map, no orders address, and a
 * one-click unsubscribe (RFC 2369 List-Unsubscribe, RFC 8058 List-Unsubscribe-Post).
 */
export function observerMails(a: Omit<EdictMailArgs, 'players'>, observers: readonly Observer[], publicUrl: string): OutboxInput[] {
  return observers.map((o) => {
    const lang: Lang = o.lang;
    const it = lang === 'it';
    const deadlines = a.nextTurn
      ? { nextDeadline: formatInstant(a.nextTurn.deadline, a.game.timeZone, lang), ...(a.edict.chancellor ? { declarationDeadline: formatInstant(a.nextTurn.declarationDeadline, a.game.timeZone, lang) } : {}) }
      : {};
    const link = `${publicUrl.replace(/\/$/, '')}/unsubscribe/${o.token}`;
    const { subject, text } = renderMail('edict-observer', lang, {
      game: a.game.id,
      gameName: a.game.name,
      turn: a.edict.turn,
      versionNote: a.version > 1 ? (it ? ` (emendato, versione ${a.version})` : ` (amended, version ${a.version})`) : '',
      gameOver: a.nextTurn ? '' : it ? 'La partita è finita.\n' : 'The game is over.\n',
      unsubscribe: link,
      edict: renderEdict(a.edict, a.board, lang, deadlines),
    });
    const map = a.assets.maps[lang];
    const thread = gameThread(a.game.id, a.mail.domain);
    return {
      kind: 'edict-observer',
      gameId: a.game.id,
      toAddress: o.email,
      subject,
      inReplyTo: thread,
      references: thread,
      messageId: newMessageId(a.mail.domain),
      bodyText: text,
      bodyHtml: edictHtml(text, map?.alt ?? null, lang),
      attachments: [a.assets.json, ...(map ? [map.png] : [])],
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      dedupeKey: `edict-observer:${a.game.id}:${a.edict.turn}:${a.version}:${o.id}`,
    };
  });
}

function edictMail(a: EdictMailArgs, player: Player, textFor: (lang: Lang, tz: string, deadlines: Parameters<typeof renderEdict>[3]) => string): OutboxInput {
  const { game, edict } = a;
  const lang: Lang = player.lang;
  const tz = player.timeZone ?? game.timeZone;
  const deadlines = a.nextTurn
    ? {
        nextDeadline: formatInstant(a.nextTurn.deadline, tz, lang),
        ...(edict.chancellor ? { declarationDeadline: formatInstant(a.nextTurn.declarationDeadline, tz, lang) } : {}),
      }
    : {};
  const text = textFor(lang, tz, deadlines);
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
    attachmentsNote: a.assets.maps[lang]
      ? it ? "In allegato la mappa (PNG) e l'editto come dati (JSON)." : 'The map is attached (PNG), and the edict as data (JSON).'
      : it ? "In allegato l'editto come dati (JSON)." : 'The edict as data is attached (JSON).',
    edict: text,
  });
  const thread = gameThread(game.id, a.mail.domain);
  const map = a.assets.maps[lang];
  const attachments = [a.assets.json, ...(map ? [map.png] : [])];
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
    bodyHtml: edictHtml(body, map?.alt ?? null, lang),
    attachments,
    dedupeKey: `edict:${game.id}:${edict.turn}:${a.version}:${player.id}`,
  };
}

/** The same text, monospaced (the ASCII map and tables need it), with the map inline above it. */
function edictHtml(text: string, mapAlt: string | null, lang: Lang): string {
  const img = mapAlt !== null ? `<p><img src="cid:${MAP_CID}" alt="${escapeHtml(mapAlt)}" style="max-width:100%;height:auto"></p>\n` : '';
  return `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"></head><body>\n${img}<pre style="font-family:monospace;white-space:pre-wrap">${escapeHtml(text)}</pre>\n</body></html>\n`;
}
