// The Imperial Edict as every player receives it (R-EDICT-1): in their language, with the next
// deadlines on their own clock and their private address, the map in their language and the
// edict's JSON attached (each stored once for all recipients), threaded under the game's thread.
import type { Board } from '../adjudicator/map.ts';
import { edictToJson } from '../adjudicator/render/edict-json.ts';
import { edictHtmlLead, LINK_STYLE, renderEdictHtml } from '../adjudicator/render/edict-html.ts';
import { renderEdict } from '../adjudicator/render/edict-text.ts';
import { sideName, VOCABULARY } from '../adjudicator/render/vocabulary.ts';
import type { Edict, Lang } from '../adjudicator/types.ts';
import { putAssets, type AttachmentRef } from '../db/assets.ts';
import type { Db } from '../db/client.ts';
import type { Game } from '../db/games.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { activeObservers, type Observer } from '../db/observers.ts';
import type { Player } from '../db/players.ts';
import type { Turn } from '../db/turns.ts';
import { describeMap, renderMapLayers, renderMapPngsOffThread } from '../edict/index.ts';
import { edictTexts } from '../text/edict-mail.ts';
import { disputeWindowEnd } from './dispute-window.ts';
import { escapeHtml } from '../html.ts';
import { formatInstant } from './time-format.ts';
import { gamePageUrl, privateAddress, type MailAddressing } from './welcome.ts';
import { gameMail } from './game-mail.ts';
import { pressSettingsOf } from './press/settings.ts';

/** D-PRESS-18: the revealed messages' page, linked from the final edict when the game publishes them. */
function revealUrl(a: Pick<EdictMailArgs, 'game' | 'publicUrl' | 'nextTurn'>): string | null {
  const page = gamePageUrl(a.publicUrl, a.game.id);
  return page && !a.nextTurn && pressSettingsOf(a.game.pressSettings).reveal === 'at-end' ? `${page}/press` : null;
}

export interface EdictAssets {
  json: AttachmentRef;
  /**
   * The map in each language its recipients read (D-EDICT-2), with its description in words for
   * each reader's language (the HTML's alt text).
   */
  map: { png(lang: Lang): AttachmentRef; alt(lang: Lang): string };
}

/** D-EDICT-2: the languages the map is drawn in, those of its recipients, in a fixed order; at most two. */
export function mapLanguages(langs: Iterable<Lang>): Lang[] {
  const present = new Set(langs);
  const out = LANGS.filter((l) => present.has(l));
  return out.length ? out : ['it'];
}

const LANGS: readonly Lang[] = ['it', 'en'];

/**
 * Map pictures already drawn, by everything the map is drawn from (drawnMapKey), so that a picture is
 * taken only for the very map it is.
 */
export type DrawnMaps = ReadonlyMap<string, Buffer>;

/** A number for each board (boards are loaded once, boardFor): part of a map's key. */
const boardIds = new WeakMap<Board, number>();
let nextBoardId = 0;

/**
 * What a map is drawn from: its board, edict, language and game name (renderMapLayers is a pure
 * function of them). Rendering its SVG as the key, as before, cost ~0.4 ms a map, four a turn.
 */
export function drawnMapKey(board: Board, edict: Edict, lang: Lang, gameName: string): string {
  let id = boardIds.get(board);
  if (id === undefined) boardIds.set(board, (id = nextBoardId++));
  return JSON.stringify([id, lang, gameName, edict]);
}

/**
 * The map's PNG in each of `langs`, drawn together on a worker thread (src/edict/png-pool.ts): as
 * bands (renderMapLayers), so that the units and marks, the same in every language, are drawn once.
 */
function drawPngs(board: Board, game: Game, edict: Edict, langs: readonly Lang[]): Promise<Buffer[]> {
  return renderMapPngsOffThread(langs.map((lang) => renderMapLayers(board, edict, { lang, gameName: game.name })));
}

/**
 * The map's PNG in each recipient language (D-EDICT-2), drawn on a worker thread with no
 * transaction open: closing a turn draws them before it takes its locks, and passes them to
 * storeEdictAssets.
 */
export async function drawEdictMaps(board: Board, game: Game, edict: Edict, langs: Iterable<Lang>): Promise<DrawnMaps> {
  const drawnLangs = mapLanguages(langs);
  const pngs = await drawPngs(board, game, edict, drawnLangs);
  return new Map(drawnLangs.map((lang, k) => [drawnMapKey(board, edict, lang, game.name), pngs[k]!]));
}

/**
 * The edict's files, stored once for all its recipients: the JSON, and the map's PNG in each
 * recipient language, taken from `drawn` when it holds that very map, else drawn here on worker
 * threads. `langs`: the recipients' languages, one per recipient.
 */
export async function storeEdictAssets(
  tx: Db,
  board: Board,
  game: Game,
  edict: Edict,
  langs: Iterable<Lang>,
  drawn: DrawnMaps = new Map(),
): Promise<EdictAssets> {
  const langsDrawn = mapLanguages(langs);
  const json = Buffer.from(edictToJson(edict));
  const known = langsDrawn.map((lang) => drawn.get(drawnMapKey(board, edict, lang, game.name)));
  const missing = langsDrawn.filter((_, k) => !known[k]);
  const fresh = missing.length ? await drawPngs(board, game, edict, missing) : [];
  const pngs = known.map((png) => png ?? fresh.shift()!);
  const [jsonId, ...pngIds] = await putAssets(tx, [
    { contentType: 'application/json', bytes: json },
    ...pngs.map((bytes) => ({ contentType: 'image/png', bytes })),
  ]);
  const alts = new Map<Lang, string>();
  const alt = (l: Lang) => alts.get(l) ?? alts.set(l, describeMap(board, edict, l, game.name)).get(l)!;
  const filename = `map-${game.id}-turn-${edict.turn}.png`;
  const refs = new Map(langsDrawn.map((lang, k) => [lang, { assetId: pngIds[k]!, filename, contentType: 'image/png', cid: MAP_CID }]));
  return {
    json: { assetId: jsonId!, filename: `edict-${game.id}-turn-${edict.turn}.json`, contentType: 'application/json' },
    // A reader whose language was not drawn (none, when `langs` named every recipient) gets the first.
    map: { png: (lang) => refs.get(lang) ?? refs.get(langsDrawn[0]!)!, alt },
  };
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
  /** PUBLIC_URL, for the link to the game's page. */
  publicUrl?: string | undefined;
  /**
   * When this version was published: its dispute window opens then (R-TURN-2 step 5, D-PRESS-14),
   * and the players are told when it ends. Unknown: no such line.
   */
  publishedAt?: Date | undefined;
}

/** R-TURN-2 step 5: the end of an edict version's dispute window, as its mail tells it; null when the game has none. */
function disputeWindowToTell(game: Pick<Game, 'disputeWindowMinutes'>, publishedAt: Date | undefined): Date | null {
  return publishedAt && game.disputeWindowMinutes > 0 ? disputeWindowEnd(game, publishedAt) : null;
}

/**
 * Publishes an edict version: its files stored once, every player's mail and every observer's
 * (opt-in, with a one-click unsubscribe; only with a PUBLIC_URL for the link) queued — what closing
 * a turn and amending one both do, in their transaction. `drawn`: the maps drawn before it.
 */
export async function publishEdict(
  tx: Db,
  a: Omit<EdictMailArgs, 'assets'>,
  publicUrl: string | undefined,
  drawn?: DrawnMaps,
): Promise<void> {
  const watching = publicUrl ? await activeObservers(tx, a.game.id) : [];
  const assets = await storeEdictAssets(
    tx,
    a.board,
    a.game,
    a.edict,
    [...a.players.map((p) => p.lang), ...watching.map((o) => o.lang)],
    drawn,
  );
  await enqueueMany(tx, edictMails({ ...a, assets, publicUrl }));
  await enqueueMany(tx, observerMails({ ...a, assets, publicUrl }, watching, publicUrl ?? ''));
}

/** R-WIN-1, R-WIN-2: who won, for the first lines of the final edict's mail; null while the game goes on. */
function outcome(a: Pick<EdictMailArgs, 'board' | 'edict' | 'nextTurn'>, lang: Lang) {
  if (a.nextTurn) return null;
  return {
    winners: a.edict.winners.map((f) => sideName(a.board, f, lang)),
    rule: a.edict.winRule ?? (a.edict.winners.length ? 'R-WIN-1' : null),
  };
}

type EdictDeadlines = Parameters<typeof renderEdict>[3] & object;

export function edictMails(a: EdictMailArgs): OutboxInput[] {
  // The edict's text and HTML sections differ only by language and zone (the deadlines): rendered once for each.
  const texts = new Map<string, { text: string; sections: string }>();
  const textFor = (lang: Lang, tz: string, deadlines: EdictDeadlines) => {
    const key = `${lang} ${tz}`;
    let t = texts.get(key);
    if (t === undefined)
      texts.set(key, (t = { text: renderEdict(a.edict, a.board, lang, deadlines), sections: edictSections(a, lang, deadlines) }));
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
    const T = edictTexts[lang];
    const deadlines = a.nextTurn
      ? {
          nextDeadline: formatInstant(a.nextTurn.deadline, a.game.timeZone, lang),
          ...(a.edict.chancellor ? { declarationDeadline: formatInstant(a.nextTurn.declarationDeadline, a.game.timeZone, lang) } : {}),
        }
      : {};
    const link = `${publicUrl.replace(/\/$/, '')}/unsubscribe/${o.token}`;
    const values = {
      game: a.game.id,
      gameName: a.game.name,
      turn: a.edict.turn,
      versionNote: T.versionNote(a.version),
      gameOver: T.gameOver(outcome(a, lang)),
      unsubscribe: link,
      pageNote: T.pageNote(gamePageUrl(a.publicUrl, a.game.id)) + T.pressNote(revealUrl(a)),
    };
    const { subject, text } = T.edictObserver({ ...values, edict: renderEdict(a.edict, a.board, lang, deadlines) });
    const intro = T.edictObserver({ ...values, edict: '' }).text;
    return gameMail(a.mail, {
      kind: 'edict-observer',
      gameId: a.game.id,
      to: o.email,
      replySecret: null,
      subject,
      text,
      html: edictHtml(a, lang, subject, intro, edictSections(a, lang, deadlines), [
        link,
        gamePageUrl(a.publicUrl, a.game.id),
        revealUrl(a),
      ]),
      attachments: [a.assets.json, a.assets.map.png(lang)],
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      dedupeKey: `edict-observer:${a.game.id}:${a.edict.turn}:${a.version}:${o.id}`,
    });
  });
}

function edictMail(
  a: EdictMailArgs,
  player: Player,
  textFor: (lang: Lang, tz: string, deadlines: EdictDeadlines) => { text: string; sections: string },
): OutboxInput {
  const { game, edict } = a;
  const lang: Lang = player.lang;
  const tz = player.timeZone ?? game.timeZone;
  const deadlines = a.nextTurn
    ? {
        nextDeadline: formatInstant(a.nextTurn.deadline, tz, lang),
        ...(edict.chancellor ? { declarationDeadline: formatInstant(a.nextTurn.declarationDeadline, tz, lang) } : {}),
      }
    : {};
  const { text, sections } = textFor(lang, tz, deadlines);
  const T = edictTexts[lang];
  const disputeUntil = disputeWindowToTell(game, a.publishedAt);
  const values = {
    game: game.id,
    gameName: game.name,
    turn: edict.turn,
    versionNote: T.versionNote(a.version),
    amendment: T.amendment(a.reason),
    gameOver: T.gameOver(outcome(a, lang)),
    lateNote: T.lateNote(
      a.late ? { closedAt: formatInstant(a.late.closedAt, tz, lang), deadline: formatInstant(a.late.deadline, tz, lang) } : null,
    ),
    addressNote: T.addressNote(a.nextTurn ? privateAddress(a.mail, player.secret) : null),
    disputeNote: T.disputeNote(disputeUntil && formatInstant(disputeUntil, tz, lang)),
    pageNote: T.pageNote(gamePageUrl(a.publicUrl, game.id)) + T.pressNote(revealUrl(a)),
    attachmentsNote: T.attachmentsNote,
  };
  const { subject, text: body } = T.edict({ ...values, edict: text });
  const intro = T.edict({ ...values, edict: '' }).text;
  return gameMail(a.mail, {
    kind: a.version > 1 ? 'edict-amended' : 'edict',
    gameId: game.id,
    to: player.email,
    replySecret: player.secret,
    subject,
    text: body,
    html: edictHtml(a, lang, subject, intro, sections, [
      a.nextTurn ? privateAddress(a.mail, player.secret) : null,
      gamePageUrl(a.publicUrl, game.id),
      revealUrl(a),
    ]),
    attachments: [a.assets.json, a.assets.map.png(lang)],
    dedupeKey: `edict:${game.id}:${edict.turn}:${a.version}:${player.id}`,
  });
}

/** The mail's page: the client's own colours (light or dark), one readable column, nothing wider than the screen. */
const BODY_STYLE =
  "margin:0;padding:12px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.45;overflow-wrap:break-word;word-wrap:break-word";

/**
 * The edict as real HTML for the mail's HTML part: the mail's own notes (amendment, address,
 * attachments) as paragraphs, then the edict's sections with the map inline where the text part
 * draws the board in characters. `intro` is the plain-text mail without the edict; `sections`,
 * edictSections.
 */
function edictHtml(
  a: Omit<EdictMailArgs, 'players'>,
  lang: Lang,
  subject: string,
  intro: string,
  sections: string,
  links: readonly (string | null)[],
): string {
  const notes = intro
    .split(/\n{2,}/)
    .map((para) => para.trim())
    .filter((para) => para.length > 0)
    .map(
      (para) =>
        `<p style="margin:.4em 0">${para
          .split('\n')
          .map((line) => linked(line, links))
          .join('<br>')}</p>`,
    );
  return [
    '<!doctype html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">',
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body style="${BODY_STYLE}"><div style="max-width:720px;margin:0 auto">`,
    `<h1 style="font-size:1.35em;line-height:1.25;margin:.3em 0 .5em">${escapeHtml(VOCABULARY[lang].title(a.edict.turn, a.edict.lastTurn ?? null))}</h1>`,
    ...notes,
    sections,
    '</div></body></html>',
    '',
  ].join('\n');
}

/**
 * A line of the notes, escaped, with the addresses and pages this mail itself names (the orders
 * address, the game page, the revealed messages, the unsubscribe link) as links a phone can tap.
 * Only those: a URL inside a game's name stays text.
 */
export function linked(line: string, links: readonly (string | null)[]): string {
  const known = links.filter((l): l is string => !!l).sort((x, y) => y.length - x.length);
  let out = '';
  let rest = line;
  for (;;) {
    let at = -1;
    let hit = '';
    for (const l of known) {
      const i = rest.indexOf(l);
      if (i >= 0 && (at < 0 || i < at)) [at, hit] = [i, l];
    }
    if (at < 0) return out + escapeHtml(rest);
    const href = hit.includes('://') ? hit : `mailto:${hit}`;
    out += `${escapeHtml(rest.slice(0, at))}<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${escapeHtml(hit)}</a>`;
    rest = rest.slice(at + hit.length);
  }
}

/** The edict's own sections in HTML, the map inline: the same for every reader of one language and zone. */
function edictSections(a: Omit<EdictMailArgs, 'players'>, lang: Lang, deadlines: EdictDeadlines): string {
  // The full-size map on the edict's page, in the reader's language (D-EDICT-2); else the attachment.
  const page = gamePageUrl(a.publicUrl, a.game.id);
  const href = page ? `${page}/turns/${a.edict.turn}/v/${a.version}/map.png?lang=${lang}` : null;
  const map = { src: `cid:${MAP_CID}`, alt: a.assets.map.alt(lang), full: { href, label: edictTexts[lang].mapFullSize(href !== null) } };
  return `${edictHtmlLead(a.edict, a.board, lang, true)}\n${renderEdictHtml(a.edict, a.board, lang, { ...deadlines, level: 2, map, inline: true })}`;
}
