// The public pages as HTML, from data already read: pure functions, every user-supplied string
// (game names, amendment reasons) escaped by the `html` tag or the templates.
import type { Board } from '../../adjudicator/map.ts';
import { edictHtmlLead, renderEdictHtml } from '../../adjudicator/render/edict-html.ts';
import { edictContext, victoryLine } from '../../adjudicator/render/edict-text.ts';
import { sideName, sideNameAsObject } from '../../adjudicator/render/vocabulary.ts';
import type { Lang, Side } from '../../adjudicator/types.ts';
import type { ChancellorDeclaration, EdictHeader, GameSummary, PublicAbsence, PublicEdict, PublicTurn } from '../../db/public-views.ts';
import type { Game } from '../../db/games.ts';
import type { PublicBroadcast, RevealedMessage } from '../../db/press.ts';
import { describePressSettings, formatInstant, pressSettingsOf, pressSettingTexts, type OrdersReceived } from '../../games/index.ts';
import { edictTexts } from '../../text/edict-mail.ts';
import { duration, weeklyInWords } from '../../text/duration.ts';
import { webTexts } from '../../text/web.ts';
import { html, renderTemplate, trusted, type Html } from '../web/template.ts';
import type { MapPicture } from './maps.ts';

export interface PageFrame {
  lang: Lang;
  title: string;
  /** Path of this page without a query: the language switch links to it. */
  path: string;
  crumbs?: Array<{ href: string; label: string }>;
  head?: Html;
  /** A finished game's page: its footer does not say orders stay secret, none is any more. */
  finished?: boolean;
}

export function layout(frame: PageFrame, body: Html): string {
  const s = webTexts[frame.lang];
  const other: Lang = frame.lang === 'it' ? 'en' : 'it';
  return renderTemplate('layout', {
    lang: frame.lang,
    title: `${frame.title} — ${s.siteName}`,
    head: frame.head ?? html``,
    skip: s.skip,
    navLabel: s.nav,
    home: s.home,
    crumbs: (frame.crumbs ?? []).map((c) => html` › <a href="${c.href}">${c.label}</a>`),
    langSwitch: html`<a href="${frame.path}?lang=${other}" hreflang="${other}" lang="${other}">${s.switchTo}</a>`,
    body,
    footer: frame.finished ? s.footerFinished : s.footer,
  }).value;
}

/** An instant in the game's zone, marked up so the browser adds the viewer's own (local-time.js). */
export function instant(at: Date, timeZone: string, lang: Lang): Html {
  return html`<time datetime="${at.toISOString()}" data-local="${webTexts[lang].yourTime}">${formatInstant(at, timeZone, lang)}</time>`;
}

const side = (board: Board, s: Side | null, lang: Lang): string => (s ? sideName(board, s, lang) : webTexts[lang].none);

export function homePage(lang: Lang, board: Board, games: GameSummary[]): string {
  const s = webTexts[lang];
  // data-label: on a phone each row is a block and each value shows its column's name (site.css).
  const rows = games.map(
    (g) => html`<tr>
<td class="game-name"><a href="/games/${g.id}">${g.name}</a></td>
<td data-label="${s.colTurn}">${g.turn}</td>
<td data-label="${s.colDeadline}">${g.status !== 'finished' && g.turnStatus === 'open' && g.deadline ? instant(g.deadline, g.timeZone, lang) : '—'}</td>
<td data-label="${s.colChancellor}">${side(board, g.chancellor, lang)}</td>
<td data-label="${s.colPlayers}">${g.factions.length}</td>
<td data-label="${s.colState}">${s.status[g.status] ?? g.status}</td>
</tr>`,
  );
  const table = games.length
    ? html`<div class="table-wrap"><table class="games"><caption class="skip">${s.gamesHeading}</caption><thead><tr><th scope="col">${s.colGame}</th><th scope="col">${s.colTurn}</th><th scope="col">${s.colDeadline}</th><th scope="col">${s.colChancellor}</th><th scope="col">${s.colPlayers}</th><th scope="col">${s.colState}</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : html`<p>${s.noGames}</p>`;
  return layout({ lang, title: s.gamesHeading, path: '/' }, renderTemplate('home', { heading: s.gamesHeading, table }));
}

/** Every schedule setting, shown with the deadlines. */
type Schedule = Pick<
  Game,
  | 'weeklyDeadline'
  | 'declarationLeadMinutes'
  | 'reminderMinutes'
  | 'earlyProcessingMinutes'
  | 'graceMinutes'
  | 'absenceDaysPerPlayer'
  | 'absenceDaysPerGame'
>;

export interface GamePageData {
  game: {
    id: string;
    name: string;
    status: string;
    timeZone: string;
    victoryPlanets: number;
    lastTurn: number | null;
    pressSettings?: unknown;
  } & Schedule;
  turn: PublicTurn;
  seats: Array<{ faction: string; joinedTurn: number }>;
  received: Record<string, OrdersReceived>;
  declaration: ChancellorDeclaration | null;
  /** The newest edict up to this turn: the current map and planets. */
  lastEdict: PublicEdict | null;
  map: MapPicture;
  archive: EdictHeader[];
  absences: PublicAbsence[];
  disputedTurn?: number | null;
  /** Messages to everyone, newest first, when the game publishes them (observers = broadcasts); else null. */
  broadcasts?: { total: number; broadcasts: PublicBroadcast[] } | null;
}

function archiveList(lang: Lang, gameId: string, archive: EdictHeader[]): Html {
  const s = webTexts[lang];
  if (archive.length === 0) return html`<p>${s.noEdicts}</p>`;
  const byTurn = new Map<number, EdictHeader[]>();
  for (const e of archive) {
    const es = byTurn.get(e.turn);
    if (es) es.push(e);
    else byTurn.set(e.turn, [e]);
  }
  const items = [...byTurn]
    .reverse()
    .map(
      ([turn, versions]) =>
        html`<li><a href="/games/${gameId}/turns/${turn}">${s.turn(turn)}</a>${
          versions.length > 1
            ? html` (${s.amended}: ${versions.map((v, i) => html`${i ? ', ' : ''}<a href="/games/${gameId}/turns/${turn}/v/${v.version}">${s.version(v.version)}</a>`)})`
            : ''
        }</li>`,
    );
  return html`<ul>${items}</ul>`;
}

/** The planets each faction holds, then what it takes to win, or, once the game is over, who won. */
function planetsTable(
  lang: Lang,
  board: Board,
  edict: PublicEdict | null,
  victory: number,
  lastTurn: number | null,
  outcome: string | null,
): Html {
  const s = webTexts[lang];
  if (!edict) return html`<p>${s.noPlanets} ${s.victory(victory, lastTurn)}</p>`;
  const e = edict.json;
  const rows = board.factionIds
    .filter((f) => f in e.planets)
    .map((f) => html`<tr><th scope="row">${sideName(board, f, lang)}</th><td>${e.planets[f]}</td></tr>`);
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">${s.colFaction}</th><th scope="col">${s.colPlanets}</th></tr></thead><tbody>${rows}</tbody></table></div><p>${outcome ?? s.victory(e.victoryPlanets, lastTurn)}</p>`;
}

function declarationBlock(lang: Lang, board: Board, d: GamePageData): Html {
  const s = webTexts[lang];
  const chancellor = d.turn.state.chancellor;
  if (!chancellor) return html`<p>${s.noChancellor}</p>`;
  if (!d.declaration) return html`<p>${s.chancellor}: ${sideName(board, chancellor, lang)}. ${s.notDeclared}</p>`;
  const decl = d.declaration;
  return html`<p>${s.chancellor}: ${sideName(board, chancellor, lang)}. ${s.declaredAt} ${instant(decl.receivedAt, d.game.timeZone, lang)}</p>
<dl><dt>${s.hostility}</dt><dd>${decl.hostility.map((h) => sideName(board, h, lang)).join(', ') || s.none}</dd>
<dt>${s.orders}</dt><dd>${decl.orders.length ? html`<ul>${decl.orders.map((o) => html`<li><code>${o}</code></li>`)}</ul>` : s.none}</dd></dl>`;
}

export function gamePage(lang: Lang, board: Board, d: GamePageData): string {
  const s = webTexts[lang];
  const { game, turn } = d;
  const election = turn.number === 1 || turn.state.election;
  const finished = game.status === 'finished';
  // A finished game says who won first (R-WIN-1, R-WIN-2), in the edict's own words; whether the
  // turn was an election no longer matters.
  const outcome = finished && d.lastEdict ? victoryLine(edictContext(d.lastEdict.json, board, lang), d.lastEdict.json) : null;
  const lead = finished
    ? html`${s.turnOf(turn.number, game.lastTurn)} · ${s.status.finished}${outcome ? html`<br><strong class="winner">${outcome}</strong>` : ''}`
    : html`${s.turnOf(turn.number, game.lastTurn)} · ${s.chancellor}: ${side(board, turn.state.chancellor, lang)} · ${election ? s.electionTurn : s.notElection} · ${s.status[game.status] ?? game.status}`;
  const open = turn.status === 'open' && game.status !== 'finished';
  const deadlines = open
    ? html`<ul><li>${s.deadline}: ${instant(turn.deadline, game.timeZone, lang)}</li>${
        turn.state.chancellor ? html`<li>${s.declarationDeadline}: ${instant(turn.declarationDeadline, game.timeZone, lang)}</li>` : ''
      }</ul>`
    : html`<p>${s.noDeadline}</p>`;
  const schedule = html`<details><summary>${s.scheduleHeading}</summary><ul>${[
    s.scheduleWeekly(weeklyInWords(lang, game.weeklyDeadline), game.timeZone, duration(lang, game.declarationLeadMinutes)),
    s.scheduleReminders(s.pressList(game.reminderMinutes.map((m) => duration(lang, m)))),
    s.scheduleEarly(game.earlyProcessingMinutes === null ? null : duration(lang, game.earlyProcessingMinutes)),
    s.scheduleGrace(game.graceMinutes ? duration(lang, game.graceMinutes) : null),
    s.scheduleAbsences(game.absenceDaysPerPlayer, game.absenceDaysPerGame),
  ].map((line) => html`<li>${line}</li>`)}</ul></details>`;
  // The game's press settings, as the welcome and HELP describe press (docs/press.md, D-PRESS-1…).
  const pressLines = describePressSettings(pressSettingsOf(game.pressSettings), lang);
  const press = html`<details><summary>${pressSettingTexts[lang].title}</summary><ul>${pressLines.map((line) => html`<li>${line}</li>`)}</ul></details>`;
  const inPlay = new Set(turn.state.factions);
  const rows = board.factionIds
    .filter((f) => inPlay.has(f) || d.seats.some((p) => p.faction === f))
    .map((f) => {
      const seat = d.seats.find((p) => p.faction === f);
      const state = d.received[f] ?? 'none';
      const cell = inPlay.has(f)
        ? html`<span class="state-${state}">${s.received[state]}</span>`
        : html`${s.joining(seat?.joinedTurn ?? turn.number + 1)}`;
      const away = d.absences
        .filter((a) => a.faction === f)
        .map((a) => s.absent(a.fromDay, a.toDay))
        .join('; ');
      return html`<tr><th scope="row">${sideName(board, f, lang)}</th><td>${cell}</td><td>${away || '—'}</td></tr>`;
    });
  const orders = html`<div class="table-wrap"><table><thead><tr><th scope="col">${s.colFaction}</th><th scope="col">${s.colOrders}</th><th scope="col">${s.colAbsence}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  const caption = d.lastEdict ? s.mapCaptionEdict(d.lastEdict.turn) : s.mapCaptionState(turn.number);
  const body = renderTemplate('game', {
    name: game.name,
    lead,
    dispute: d.disputedTurn ? html`<p class="notice" role="status">${s.disputeOpen(d.disputedTurn)}</p>` : html``,
    deadlinesHeading: s.deadlinesHeading,
    deadlines: html`${deadlines}${schedule}${press}`,
    mapHeading: s.mapHeading,
    map: mapFigure(lang, d.map, `/games/${game.id}/map.png`),
    mapCaption: caption,
    pngHref: `/games/${game.id}/map.png?lang=${lang}`,
    pngLabel: s.pngLabel,
    ordersHeading: s.ordersHeading,
    ordersNote: finished ? s.ordersNoteFinished : s.ordersNote,
    orders,
    declarationHeading: s.declarationHeading,
    declaration: declarationBlock(lang, board, d),
    broadcasts: broadcastsSection(lang, board, game, d.broadcasts ?? null),
    planetsHeading: s.planetsHeading,
    planets: planetsTable(lang, board, d.lastEdict, game.victoryPlanets, game.lastTurn, outcome),
    archiveHeading: s.archiveHeading,
    archive: archiveList(lang, game.id, d.archive),
    atomHref: `/games/${game.id}/edicts.atom?lang=${lang}`,
    atomLabel: s.atomLabel,
    icsHref: `/games/${game.id}/deadlines.ics?lang=${lang}`,
    icsLabel: s.icsLabel,
    apiHref: `/api/games/${game.id}`,
  });
  const head = html`<link rel="alternate" type="application/atom+xml" href="/games/${game.id}/edicts.atom?lang=${lang}" title="${s.atomLabel}">`;
  return layout(
    {
      lang,
      title: `${game.name} — ${s.turn(turn.number)}`,
      path: `/games/${game.id}`,
      head,
      crumbs: [{ href: `/games/${game.id}`, label: game.name }],
      finished,
    },
    body,
  );
}

/**
 * The SVG inline (it names itself through <title>/<desc>), and the same position in words. On a
 * phone the map keeps a width where its labels can be read and pans inside its own box (the page
 * does not scroll sideways), and a line under it says so: a playtester never found the right half
 * of a box that panned without a word (D-WEB-8). A tap on the map, or the link, opens the
 * full-size picture, which the phone lets one zoom.
 */
function mapFigure(lang: Lang, map: MapPicture, fullSize: string): Html {
  const s = webTexts[lang];
  return html`<div class="map-scroll"><a class="map-link" href="${fullSize}" title="${s.mapFullSize}">${trusted(map.svg)}</a></div><p class="map-full"><span class="map-hint">${s.mapSwipe} </span><a href="${fullSize}">${s.mapFullSize}</a></p><details><summary>${s.mapInWords}</summary><p>${map.alt}</p></details>`;
}

export interface EdictPageData {
  game: { id: string; name: string; timeZone: string; status: string };
  board: Board;
  edict: PublicEdict;
  /** Whether the URL named the version (a permanent link) or asked for the newest. */
  versions: EdictHeader[];
  map: MapPicture;
  /** For an amendment: what differs from the version before, in words (edict-diff.ts). */
  changes: string[] | null;
}

export function edictPage(lang: Lang, d: EdictPageData): string {
  const s = webTexts[lang];
  const { game, edict } = d;
  const latest = d.versions.at(-1)?.version ?? edict.version;
  const base = `/games/${game.id}/turns/${edict.turn}`;
  const amendment =
    edict.version > 1 && edict.reason !== null
      ? html`<section class="amendment" aria-labelledby="amend-h"><h2 id="amend-h">${s.amendmentHeading}</h2><p><strong>${s.amendmentReason}:</strong> ${edict.reason}</p>${
          d.changes
            ? html`<h3>${s.whatChanged}</h3>${d.changes.length ? html`<ul>${d.changes.map((c) => html`<li>${c}</li>`)}</ul>` : html`<p>${s.nothingChanged}</p>`}`
            : ''
        }</section>`
      : html``;
  const versions =
    d.versions.length > 1
      ? html`<section aria-labelledby="versions-h"><h2 id="versions-h">${s.versionsHeading}</h2><ol>${d.versions.map(
          (v) =>
            html`<li>${
              v.version === edict.version
                ? html`<strong aria-current="page">${s.version(v.version)}</strong>`
                : html`<a href="${base}/v/${v.version}">${s.version(v.version)}</a>`
            } — ${s.publishedAt} <time datetime="${v.createdAt.toISOString()}">${v.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>${v.reason ? html`: ${v.reason}` : ''}</li>`,
        )}</ol></section>`
      : html``;
  // The same words as the edict's mail: the page says so as well (D-TURN-2).
  const late = edict.closedLate
    ? html`<p class="closed-late" role="note">${edictTexts[lang].lateNote({ closedAt: formatInstant(new Date(edict.closedLate.closedAt), game.timeZone, lang), deadline: formatInstant(new Date(edict.closedLate.deadline), game.timeZone, lang) }).trim()}</p>`
    : html``;
  const body = renderTemplate('edict', {
    heading: s.edictHeading(game.name, edict.turn),
    lead: html`${s.edictLead(edict.version, latest)}`,
    amendment: html`${late}${amendment}`,
    versions,
    mapHeading: s.mapHeading,
    map: mapFigure(lang, d.map, `${base}/v/${edict.version}/map.png`),
    mapCaption: s.mapCaptionEdict(edict.turn),
    pngHref: `${base}/v/${edict.version}/map.png?lang=${lang}`,
    pngLabel: s.pngLabel,
    textHeading: s.textHeading,
    // The same sections as the mail's HTML part, styled by site.css (the CSP allows no inline style).
    text: trusted(
      `${edictHtmlLead(edict.json, d.board, lang, false)}\n${renderEdictHtml(edict.json, d.board, lang, { level: 3, map: null, inline: false })}`,
    ),
    jsonHref: `${base}/v/${edict.version}/edict.json`,
    jsonLabel: s.jsonLabel,
    permalink: `${base}/v/${edict.version}`,
    permalinkLabel: s.permalinkLabel,
  });
  return layout(
    {
      lang,
      title: s.edictHeading(game.name, edict.turn),
      path: `${base}/v/${edict.version}`,
      finished: game.status === 'finished',
      crumbs: [
        { href: `/games/${game.id}`, label: game.name },
        { href: base, label: s.turn(edict.turn) },
      ],
    },
    body,
  );
}

/** Who wrote a published message: their faction, "Referee", or "Anonymous" (D-PRESS-10: nothing more). */
function pressWriter(lang: Lang, board: Board, m: PublicBroadcast): string {
  const s = webTexts[lang];
  return m.byReferee ? s.pressReferee : m.writerFaction ? sideName(board, m.writerFaction, lang) : s.pressAnonymous;
}

/** One published message: who, when (the turn and when players could read it), and the text with its line breaks (site.css). */
function pressItem(lang: Lang, board: Board, timeZone: string, m: PublicBroadcast, to: string | null): Html {
  const s = webTexts[lang];
  const head = to === null ? pressWriter(lang, board, m) : `${pressWriter(lang, board, m)} → ${to}`;
  return html`<li class="press-message"><p class="press-head"><strong>${head}</strong> · ${s.turn(m.turn)} · ${instant(m.at, timeZone, lang)}</p><p class="press-text">${m.text}</p></li>`;
}

/** The game page's messages to everyone (observers = broadcasts), newest first; nothing otherwise. */
function broadcastsSection(
  lang: Lang,
  board: Board,
  game: GamePageData['game'],
  b: { total: number; broadcasts: PublicBroadcast[] } | null,
): Html {
  const s = webTexts[lang];
  const reveal = game.status === 'finished' && pressSettingsOf(game.pressSettings).reveal === 'at-end';
  const link = reveal ? html`<p><a href="/games/${game.id}/press">${s.revealLink}</a></p>` : html``;
  if (!b) return reveal ? html`<section aria-labelledby="press-h"><h2 id="press-h">${s.revealLink}</h2>${link}</section>` : html``;
  const list = b.broadcasts.length
    ? html`${b.total > b.broadcasts.length ? html`<p>${s.broadcastsNewest(b.broadcasts.length, b.total)}</p>` : ''}<ol class="press" reversed>${b.broadcasts.map((m) => pressItem(lang, board, game.timeZone, m, null))}</ol>`
    : html`<p>${s.broadcastsNone}</p>`;
  return html`<section aria-labelledby="press-h"><h2 id="press-h">${s.broadcastsHeading}</h2>${link}${list}</section>`;
}

export interface RevealPageData {
  game: { id: string; name: string; timeZone: string; status: string };
  board: Board;
  /** Null: not published (the game goes on, or its messages stay with their readers). */
  messages: RevealedMessage[] | null;
}

/**
 * A finished game's messages between players when `reveal = at-end` (D-PRESS-18): by turn, then by
 * conversation, each with its writer (or "Anonymous") and who it went to.
 */
export function revealPage(lang: Lang, d: RevealPageData): string {
  const s = webTexts[lang];
  const { game, board } = d;
  const frame = {
    lang,
    title: `${game.name} — ${s.revealTitle}`,
    path: `/games/${game.id}/press`,
    crumbs: [{ href: `/games/${game.id}`, label: game.name }],
    finished: game.status === 'finished',
  };
  if (d.messages === null)
    return layout(frame, html`<h1>${s.revealTitle}</h1><p>${s.revealNotPublished}</p><p><a href="/games/${game.id}">${game.name}</a></p>`);
  // A reply to an anonymous writer went to them: "Anonymous", as they wrote (D-PRESS-18, D-PRESS-10).
  // Italian names the audience with its articles, as the relays do ("Sith → gli Aristocratici").
  const audience = (m: RevealedMessage) =>
    m.audienceKind === 'all'
      ? s.pressEveryone
      : s.pressList([...m.audienceFactions.map((f) => sideNameAsObject(board, f, lang)), ...(m.toHiddenWriter ? [s.pressAnonymous] : [])]);
  const byTurn = new Map<number, Map<number, RevealedMessage[]>>();
  for (const m of d.messages) {
    const turn = byTurn.get(m.turn) ?? byTurn.set(m.turn, new Map()).get(m.turn)!;
    // Pushed in place: copying the array for each message is quadratic in a long conversation.
    const ms = turn.get(m.conversation);
    if (ms) ms.push(m);
    else turn.set(m.conversation, [m]);
  }
  // A conversation is named by who was in it over the whole game (the same heading in every turn):
  // everyone, or its writers and readers, an anonymous writer as "Anonymous".
  const members = new Map<number, Set<string>>();
  for (const m of d.messages) {
    const set = members.get(m.conversation) ?? members.set(m.conversation, new Set()).get(m.conversation)!;
    if (m.conversationKind === 'all') set.add(s.pressEveryone);
    else for (const name of [pressWriter(lang, board, m), ...m.audienceFactions.map((f) => sideName(board, f, lang))]) set.add(name);
  }
  const who = (k: number) => s.pressList([...(members.get(k) ?? [])]);
  const turns = [...byTurn].map(
    ([turn, conversations]) =>
      html`<section aria-labelledby="press-t${turn}"><h2 id="press-t${turn}">${s.turn(turn)}</h2>${[...conversations].map(
        ([k, ms]) =>
          html`<h3>${s.conversation(k, who(k))}</h3><ol class="press">${ms.map((m) => pressItem(lang, board, game.timeZone, m, audience(m)))}</ol>`,
      )}</section>`,
  );
  return layout(
    frame,
    html`<h1>${game.name} — ${s.revealTitle}</h1><p>${s.revealLead}</p>${d.messages.length ? turns : html`<p>${s.revealNone}</p>`}`,
  );
}

export function notFoundPage(lang: Lang): string {
  const s = webTexts[lang];
  return layout({ lang, title: s.notFound, path: '/' }, html`<h1>${s.notFound}</h1><p><a href="/">${s.home}</a></p>`);
}
