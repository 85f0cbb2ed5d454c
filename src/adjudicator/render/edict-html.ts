// The Imperial Edict as HTML (R-EDICT-1): the same sections and words as the text edict
// (edict-text.ts, vocabulary.ts), with headings a screen reader can move between and tables that
// reflow on a phone instead of a 75-column block. The board is the map image: the board in
// characters stays in the plain-text part only. Pure like the text edict: same input, same bytes.
// Every string that did not come from this file is escaped (names come from the map, cells and
// orders from sheets).
import { escapeHtml } from '../../html.ts';
import type { Board } from '../map.ts';
import { IMPERIAL, type Declaration, type Edict, type ElectionReport, type Lang, type OrderOutcome, type Side } from '../types.ts';
import {
  boardOrder,
  cmp,
  combat,
  edictContext,
  names,
  outcome,
  politics,
  sideOrder,
  unitLabel,
  victoryLine,
  type Ctx,
  type EdictTextOptions,
} from './edict-text.ts';
import { ballotNote, problemKindText } from './vocabulary.ts';

export interface EdictHtmlOptions extends EdictTextOptions {
  /** The sections' heading level: 2 in a mail (its h1 is the edict's title), 3 inside a page. */
  level: 2 | 3;
  /**
   * Section 6's picture of the board (the mail's inline image); null where the page shows its own
   * map. Fitted to a phone its labels are small: `full` says where the full-size picture is, a link
   * (`href`, the picture is then a link too) or, with no `href`, in words (the attachment).
   */
  map: { src: string; alt: string; full?: { href: string | null; label: string } } | null;
  /**
   * Inline styles as well as classes: mail clients drop or rewrite <style> blocks, while the web
   * pages' CSP allows no inline style and styles the classes from site.css.
   */
  inline: boolean;
}

/**
 * Neutral styles only, no background and no text colour: the mail client's own colours (light or
 * dark) stay readable. Wrapping long names and hashes is inherited from the mail's body. Kept
 * short: a crowded turn has hundreds of cells, and Gmail clips a mail past about 100 kB.
 */
/** A link in the client's own text colour, underlined: a default blue is unreadable on a dark client's background. */
export const LINK_STYLE = 'color:inherit;text-decoration:underline';
const CELL = 'text-align:left;vertical-align:top;padding:3px 5px;border-bottom:1px solid #888';
const INLINE: Readonly<Record<string, string>> = {
  h: 'font-size:1.15em;margin:1.25em 0 .4em',
  sub: 'font-size:1em;margin:1em 0 .3em',
  p: 'margin:.3em 0',
  ul: 'margin:.3em 0;padding-left:1.4em',
  table: 'width:100%;border-collapse:collapse;margin:.3em 0 .8em',
  th: CELL,
  td: CELL,
  code: 'font-family:monospace',
  img: 'display:block;width:100%;max-width:100%;height:auto',
  caption: 'text-align:left;font-weight:bold',
  figure: 'margin:.3em 0',
  a: LINK_STYLE,
};

interface Out {
  c: Ctx;
  o: EdictHtmlOptions;
}

const esc = escapeHtml;

/** An opening tag with, in a mail, its inline style, and on a page its class. */
function open(x: Out, tag: string, kind: string, extra = ''): string {
  if (!x.o.inline) return `<${tag} class="sf-${kind}"${extra}>`;
  return INLINE[kind] ? `<${tag}${extra} style="${INLINE[kind]}">` : `<${tag}${extra}>`;
}
const p = (x: Out, text: string) => `${open(x, 'p', 'p')}${esc(text)}</p>`;
const paras = (x: Out, lines: readonly string[]) => lines.map((l) => p(x, l)).join('\n');
const list = (x: Out, items: readonly string[]) => `${open(x, 'ul', 'ul')}${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
const code = (x: Out, text: string) => `${open(x, 'code', 'code')}${esc(text)}</code>`;

/** A table of text cells: the first cell of each row is its header (`th scope="row"`). */
function table(x: Out, head: readonly string[], rows: ReadonlyArray<readonly string[]>, caption?: string): string {
  const th = (t: string, scope: string) => `${open(x, 'th', 'th', ` scope="${scope}"`)}${t}</th>`;
  const cap = caption ? `${open(x, 'caption', 'caption')}${esc(caption)}</caption>` : '';
  const headRow = `<thead><tr>${head.map((h) => th(esc(h), 'col')).join('')}</tr></thead>`;
  const body = rows.map(
    (r) => `<tr>${r.map((cell, i) => (i === 0 ? th(cell, 'row') : `${open(x, 'td', 'td')}${cell}</td>`)).join('')}</tr>`,
  );
  return `${open(x, 'table', 'table')}${cap}${headRow}<tbody>${body.join('')}</tbody></table>`;
}

function section(x: Out, n: number, body: string): string {
  const h = `h${x.o.level}`;
  const id = `sf-edict-${n}`;
  return `${open(x, 'section', 'section', ` aria-labelledby="${id}"`)}\n${open(x, h, 'h', ` id="${id}"`)}${n}. ${esc(x.c.v.sections[n - 1]!)}</${h}>\n${body}\n</section>`;
}
const subheading = (x: Out, text: string) => {
  const h = `h${x.o.level + 1}`;
  return `${open(x, h, 'sub')}${esc(text)}</${h}>`;
};

// ---------- 1. orders ----------

function declaration(x: Out, d: Declaration): string {
  const { c } = x;
  const out = [subheading(x, d.isChancellor ? `${c.name(d.faction)} — ${c.v.chancellorDeclares}` : c.name(d.faction))];
  // R-TURN-5: an NMR keeps last turn's hostility; with none in force, say so rather than "no H: line".
  const source = !d.submitted && d.hostilitySource === 'none' ? 'lapsed' : d.hostilitySource;
  out.push(p(x, `${c.v.hostileTo}: ${d.hostility.length ? names(c, d.hostility) : c.v.nobody} — ${c.v.hostilitySource[source]}`));
  if (!d.submitted) out.push(p(x, d.isChancellor ? c.v.nmrChancellor : c.v.nmr));
  else if (d.orders.length === 0) out.push(p(x, c.v.noOrders));
  if (d.orders.length) {
    const label = (o: OrderOutcome) => `${code(x, o.order)}${o.side === IMPERIAL ? ` ${esc(c.v.imperialTag)}` : ''}`;
    out.push(
      table(
        x,
        [c.v.columns.order, c.v.columns.result],
        d.orders.map((o) => [label(o), esc(outcome(c, o))]),
      ),
    );
  }
  if (d.problems.length) {
    // R-EDICT-4: a problem is published as its line and its kind, never with the words of the line.
    const items = d.problems.map(
      (pr) => `${pr.line > 0 ? c.v.line(pr.line) : c.v.wholeSheet}: ${problemKindText(c.lang, pr.code)}${pr.rule ? ` (${pr.rule})` : ''}`,
    );
    out.push(p(x, c.v.problems), list(x, items));
  }
  return out.join('\n');
}

function orders(x: Out): string {
  // The Chancellor's public declaration comes first (R-EDICT-1), whatever order the engine used.
  const decls = [...x.c.edict.declarations].sort((a, b) => Number(b.isChancellor) - Number(a.isChancellor));
  return decls.map((d) => declaration(x, d)).join('\n');
}

// ---------- 4. election ----------

function election(x: Out, r: ElectionReport): string {
  const { c } = x;
  const col = c.v.columns;
  const out = [p(x, c.v.outgoing(r.outgoing && c.name(r.outgoing)))];
  const ballots = r.ballots.map((b) => {
    const cast = b.for !== null ? c.name(b.for) : c.v.nothingCast;
    return [esc(c.name(b.voter)), esc(c.v.votes(b.votes)), esc(`${cast}${b.note ? `: ${ballotNote(c.lang, b.note)}` : ''}`)];
  });
  out.push(table(x, [col.faction, col.votes, col.cast], ballots, c.v.ballots));
  // Most votes first, then by id: the order the lot also uses (R-ELEC-4).
  const tally = Object.entries(r.tally).sort(([a, m], [b, n]) => n - m || cmp(a, b));
  if (tally.some(([, n]) => n > 0))
    out.push(
      table(
        x,
        [col.faction, col.votes],
        tally.map(([f, n]) => [esc(c.name(f)), String(n)]),
        c.v.tally,
      ),
    );
  else out.push(p(x, `${c.v.tally} ${c.v.noVotesAtAll}`));
  const who =
    r.elected === null ? c.v.noChancellor : r.elected === r.outgoing ? c.v.kept(c.name(r.elected)) : c.v.elected(c.name(r.elected));
  out.push(`${open(x, 'p', 'p')}<strong>${esc(who)}</strong> — ${esc(`${c.v.how[r.how] ?? r.how} (R-ELEC-4).`)}</p>`);
  if (r.lot) {
    const l = r.lot;
    const winner = l.candidates[l.index];
    out.push(
      p(x, c.v.lot),
      list(
        x,
        l.candidates.map((f, i) => `${i}: ${f} (${c.name(f)})`),
      ),
    );
    out.push(`${open(x, 'p', 'p')}${code(x, `sha256("${l.seed}") = ${l.hash}`)}</p>`);
    out.push(p(x, c.v.lotIndex(l.candidates.length, l.index, winner === undefined ? '?' : c.name(winner))));
  }
  if (r.newUnit) {
    const removed = r.newUnit.removed ? `; ${c.v.removed(unitLabel(c, r.newUnit.removed))}` : '';
    out.push(p(x, `${c.v.newUnit(r.newUnit.at)} (${r.newUnit.rule})${removed}.`));
  } else if (r.elected !== null && r.elected !== r.outgoing) out.push(p(x, c.v.noNewUnit));
  return out.join('\n');
}

// ---------- 5. production ----------

function production(x: Out): string {
  const { c } = x;
  const e = c.edict;
  if (!e.production.length) return p(x, c.v.noProduction);
  const col = c.v.columns;
  const rows = e.production.map((pr) => {
    const data = c.board.factions.get(pr.faction);
    const home = data ? `${data.homeName} ${data.home}` : pr.faction;
    const what = pr.at ? c.v.produced(pr.at, data?.homeName ?? pr.faction) : pr.planets > pr.units ? c.v.homeTaken(home) : c.v.notProduced;
    return [esc(c.name(pr.faction)), String(pr.planets), String(pr.units), esc(`${what} (R-PROD-1)`)];
  });
  return table(x, [col.faction, col.planets, col.units, col.made], rows);
}

// ---------- 6. final situation ----------

function finalSituation(x: Out): string {
  const { c, o } = x;
  const e = c.edict;
  const col = c.v.columns;
  const out: string[] = [];
  if (o.map) {
    const img = open(x, 'img', 'img', ` src="${esc(o.map.src)}" alt="${esc(o.map.alt)}"`);
    const full = o.map.full;
    const link = (inner: string) => (full?.href ? `${open(x, 'a', 'a', ` href="${esc(full.href)}"`)}${inner}</a>` : inner);
    out.push(subheading(x, c.v.mapHeading), `${open(x, 'p', 'figure')}${link(img)}</p>`);
    if (full) out.push(full.href ? `${open(x, 'p', 'p')}${link(esc(full.label))}</p>` : p(x, full.label));
  }
  const sides = sideOrder(c.board, [...e.factions, ...e.units.map((u) => u.side)]);
  const rows = sides.map((s: Side) => {
    const cells = boardOrder(
      c.board,
      e.units.filter((u) => u.side === s).map((u) => u.at),
    );
    const name = `${esc(c.name(s))}${s === e.chancellor ? ` ${esc(c.v.chancellorMark)}` : ''}`;
    // R-CTRL-3: planets under Imperial Troops count for nobody, so the troops get no planet count.
    const planets = s === IMPERIAL ? '—' : String(e.planets[s] ?? 0);
    return [name, planets, `${esc(c.v.units(cells.length))}${cells.length ? `: ${code(x, cells.join(' '))}` : ''}`];
  });
  out.push(table(x, [col.faction, col.planets, col.units], rows, c.v.perFaction));
  out.push(`${open(x, 'p', 'p')}<strong>${esc(c.v.chancellor(e.chancellor && c.name(e.chancellor)))}</strong></p>`);
  // A finished game has no next turn (R-WIN-1, R-WIN-2), as in the text edict.
  if (!e.gameOver) {
    if (e.electionNextTurn)
      out.push(
        p(x, c.v.nextElection),
        list(
          x,
          e.electionReasons.map((r) => c.v.electionReasons[r] ?? r),
        ),
      );
    else out.push(p(x, c.v.noNextElection));
    if (e.joiningNextTurn.length) out.push(p(x, c.v.joiningNextTurn(names(c, e.joiningNextTurn))));
  }
  const outcomeLine = victoryLine(c, e);
  out.push(e.winners.length ? `${open(x, 'p', 'p')}<strong>${esc(outcomeLine)}</strong></p>` : p(x, outcomeLine));
  if (o.declarationDeadline) out.push(p(x, c.v.declarationDeadline(o.declarationDeadline)));
  if (o.nextDeadline) out.push(`${open(x, 'p', 'p')}<strong>${esc(c.v.nextDeadline(o.nextDeadline))}</strong></p>`);
  return out.join('\n');
}

/** The edict's header lines (game, Chancellor in office, election turn) as one paragraph each. */
export function edictHtmlLead(edict: Edict, board: Board, lang: Lang, inline: boolean): string {
  const c = edictContext(edict, board, lang);
  const x: Out = { c, o: { level: 2, map: null, inline } };
  const lines = [c.v.game(edict.gameId, edict.map), c.v.inOffice(edict.chancellorAtStart && c.name(edict.chancellorAtStart))];
  if (edict.electionTurn) lines.push(c.v.electionTurn);
  return paras(x, lines);
}

/** The edict's six sections as an HTML fragment (RULES.md §5 order, as in the text edict). */
export function renderEdictHtml(edict: Edict, board: Board, lang: Lang, opts: EdictHtmlOptions): string {
  const x: Out = { c: edictContext(edict, board, lang), o: opts };
  // Turn 1 is only the election (R-TURN-1): say so instead of three empty sections.
  const idle = edict.turn === 1 ? p(x, x.c.v.turnOne) : null;
  return [
    section(x, 1, orders(x)),
    section(x, 2, idle ?? paras(x, combat(x.c))),
    section(x, 3, idle ?? paras(x, politics(x.c))),
    section(x, 4, edict.election ? election(x, edict.election) : p(x, x.c.v.notElectionTurn)),
    section(x, 5, idle ?? production(x)),
    section(x, 6, finalSituation(x)),
  ].join('\n');
}
