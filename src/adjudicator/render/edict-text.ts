// The Imperial Edict as the body of the mail players receive (R-EDICT-1), in Italian or English.
// A pure function of its input, no clock and no locale, so that the same edict renders byte for
// byte the same (R-EDICT-2). Sections follow the adjudication order of RULES.md §5.
import type { Board } from '../map.ts';
import {
  IMPERIAL,
  type Declaration,
  type Edict,
  type ElectionReport,
  type Lang,
  type OrderOutcome,
  type Side,
  type Unit,
} from '../types.ts';
import { renderBoardMap } from './board-map.ts';
import { ballotNote, problemKindText, reasonText, sideName, VOCABULARY, type Vocabulary } from './vocabulary.ts';

export interface EdictTextOptions {
  /** When the next sheets are due, already written for the reader (the renderer has no clock). */
  nextDeadline?: string;
  /** The Chancellor's earlier declaration deadline (R-TURN-3), if the game has one. */
  declarationDeadline?: string;
}

/** Prose is wrapped at spaces to this width, a usual one for plain-text mail. */
const WIDTH = 78;
/** Table rows (orders, ballots: the lines with an arrow) stay whole up to this width, to scan and grep. */
const ROW_WIDTH = 100;

export interface Ctx {
  edict: Edict;
  board: Board;
  lang: Lang;
  v: Vocabulary;
  name: (s: Side) => string;
}

/** Plain code-unit comparison: `localeCompare` would depend on the host's ICU data (R-EDICT-2). */
export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Cells in board order (column, then row: R-BOARD-3); cells off the board last, by text. */
export function boardOrder(board: Board, cells: readonly string[]): string[] {
  const key = (c: string) => board.parseCell(c) ?? Number.MAX_SAFE_INTEGER;
  return [...cells].sort((a, b) => key(a) - key(b) || cmp(a, b));
}

/** Factions in map order (R-SETUP-1 on the classic map), unknown ids after, the Imperial Troops last. */
export function sideOrder(board: Board, sides: Iterable<Side>): Side[] {
  const rank = (s: Side) => (s === IMPERIAL ? 2 : board.factions.has(s) ? 0 : 1);
  const pos = (s: Side) => board.factionIds.indexOf(s);
  return [...new Set(sides)].sort((a, b) => rank(a) - rank(b) || pos(a) - pos(b) || cmp(a, b));
}

/** `Hutt M3`, `Imperiale N8`: a unit named by its side and cell. */
export function unitLabel(c: Ctx, u: Unit): string {
  return `${u.side === IMPERIAL ? c.v.imperialShort : c.name(u.side)} ${u.at}`;
}
/** `Unità Sith`, `Sith unit`, `Truppa Imperiale`: the subject of a sentence about one unit. */
function unitNoun(c: Ctx, side: Side): string {
  return side === IMPERIAL ? c.v.imperialUnit : c.v.unit(c.name(side));
}
export const names = (c: Ctx, sides: readonly Side[]) => sides.map(c.name).join(', ');
function section(c: Ctx, n: number, body: string[]): string[] {
  const title = `${n}. ${c.v.sections[n - 1]}`;
  return ['', title, '='.repeat(title.length), ...body];
}

function header(c: Ctx): string[] {
  const e = c.edict;
  const out = [
    c.v.title(e.turn, e.lastTurn ?? null),
    c.v.game(e.gameId, e.map),
    c.v.inOffice(e.chancellorAtStart && c.name(e.chancellorAtStart)),
  ];
  if (e.electionTurn) out.push(c.v.electionTurn);
  return out;
}

// ---------- 1. orders ----------

export function outcome(c: Ctx, o: OrderOutcome): string {
  const cells = o.with ?? [];
  // R-MOVE-5: an attack on an occupant that stays names the cell attacked; the mover stays and may
  // advance after combat. An attack that was also a standoff or swap keeps that reason.
  const plainAttack = o.result === 'attacked' && (o.reason === undefined || o.reason === 'occupied');
  if (plainAttack && cells.length) return `${c.v.attack(cells.join(', '))} (${o.rule})`;
  const result = c.v.results[o.result] ?? o.result;
  const why = o.reason ? reasonText(c.lang, o.reason, cells) : cells.length ? `${c.v.involving} ${cells.join(', ')}` : '';
  return `${result}${why ? `: ${why}` : ''} (${o.rule})`;
}

function declaration(c: Ctx, d: Declaration): string[] {
  const role = d.submitted ? c.v.chancellorDeclares : c.v.chancellorSilent;
  const out = ['', d.isChancellor ? `${c.name(d.faction)} — ${role}` : c.name(d.faction)];
  // R-TURN-5: an NMR keeps last turn's hostility; with none in force, say so rather than "no H: line".
  const source = !d.submitted && d.hostilitySource === 'none' ? 'lapsed' : d.hostilitySource;
  const hostile = d.hostility.length ? names(c, d.hostility) : c.v.nobody;
  out.push(`  ${c.v.hostileTo}: ${hostile} — ${c.v.hostilitySource[source]}`);
  if (!d.submitted) out.push(`  ${d.isChancellor ? c.v.nmrChancellor : c.v.nmr}`);
  else if (d.orders.length === 0) out.push(`  ${c.v.noOrders}`);
  const label = (o: OrderOutcome) => (o.side === IMPERIAL ? `${o.order} ${c.v.imperialTag}` : o.order);
  const width = Math.max(0, ...d.orders.map((o) => label(o).length));
  for (const o of d.orders) out.push(`  ${label(o).padEnd(width)}  → ${outcome(c, o)}`);
  if (d.problems.length) out.push(`  ${c.v.problems}`);
  // The line and the kind only: what the player wrote is theirs alone (R-EDICT-4, R-ORD-8).
  for (const p of d.problems) {
    const where = p.line > 0 ? c.v.line(p.line) : c.v.wholeSheet;
    out.push(`    ${where}: ${problemKindText(c.lang, p.code)}${p.rule ? ` (${p.rule})` : ''}`);
  }
  return out;
}

function orders(c: Ctx): string[] {
  // The Chancellor's public declaration comes first (R-EDICT-1), whatever order the engine used.
  const decls = [...c.edict.declarations].sort((a, b) => Number(b.isChancellor) - Number(a.isChancellor));
  return decls.flatMap((d) => declaration(c, d)).slice(1);
}

// ---------- 2. hyperspace and combat ----------

export function combat(c: Ctx): string[] {
  const e = c.edict;
  const out: string[] = [];
  for (const d of e.destructions)
    out.push(`${c.v.destroyed(unitNoun(c, d.side), d.from, d.at, reasonText(c.lang, d.reason))} (${d.rule}).`);
  if (!e.destructions.length) out.push(c.v.noDestructions);
  for (const x of e.eliminations) {
    const by = x.by.map((u) => unitLabel(c, u)).join(', ');
    out.push(`${c.v.eliminated(unitNoun(c, x.side), x.at, by)} (${x.rule}).`);
  }
  if (!e.eliminations.length) out.push(c.v.noEliminations);
  for (const a of e.advances) {
    const line = `${c.v.advances(unitLabel(c, { side: a.side, at: a.from }), a.to)} (${a.rule})`;
    const cands = boardOrder(c.board, a.candidates).join(', ');
    // Once the referee has chosen (an amended edict), the choice is made: no more "may ask".
    out.push(
      a.chosenByReferee ? `${line} — ${c.v.chosenByReferee(cands)}.` : a.contested ? `${line} — ${c.v.contested(cands)}.` : `${line}.`,
    );
  }
  if (!e.advances.length) out.push(c.v.noAdvances);
  return out;
}

// ---------- 3. politics ----------

export function politics(c: Ctx): string[] {
  const p = c.edict.politics;
  const out: string[] = [];
  const list = (us: readonly Unit[]) => us.map((u) => unitLabel(c, u)).join(', ');
  if (p.completed.length) out.push(c.v.politicsBy(list(p.completed)));
  if (p.troop) out.push(`${c.v.troop(p.troop.at, p.troop.by)} (${p.troop.rule}).`);
  if (p.troopRefused) out.push(c.v.troopRefused[p.troopRefused] ?? p.troopRefused);
  if (p.electionsCalledBy.length) out.push(c.v.electionsCalled(list(p.electionsCalledBy)));
  return out.length ? out : [c.v.noPolitics];
}

// ---------- 4. election ----------

function election(c: Ctx, r: ElectionReport): string[] {
  const out = [c.v.outgoing(r.outgoing && c.name(r.outgoing)), '', c.v.ballots];
  const w = Math.max(0, ...r.ballots.map((b) => c.name(b.voter).length));
  const vw = Math.max(0, ...r.ballots.map((b) => c.v.votes(b.votes).length));
  for (const b of r.ballots) {
    const cast = b.for !== null ? c.name(b.for) : c.v.nothingCast;
    const note = b.note ? `: ${ballotNote(c.lang, b.note)}` : '';
    out.push(`  ${c.name(b.voter).padEnd(w)}  ${c.v.votes(b.votes).padEnd(vw)}  → ${cast}${note}`);
  }
  // Most votes first, then by id: the order the lot also uses (R-ELEC-4).
  const tally = Object.entries(r.tally).sort(([a, x], [b, y]) => y - x || cmp(a, b));
  out.push('', c.v.tally);
  const tw = Math.max(0, ...tally.map(([f]) => c.name(f).length));
  for (const [f, n] of tally) out.push(`  ${c.name(f).padEnd(tw)}  ${n}`);
  if (!tally.some(([, n]) => n > 0)) out.push(`  ${c.v.noVotesAtAll}`);
  const who =
    r.elected === null ? c.v.noChancellor : r.elected === r.outgoing ? c.v.kept(c.name(r.elected)) : c.v.elected(c.name(r.elected));
  out.push('', `${who} — ${c.v.how[r.how] ?? r.how} (R-ELEC-4).`);
  if (r.lot) {
    const l = r.lot;
    const winner = l.candidates[l.index];
    out.push(c.v.lot, `  ${l.candidates.map((f, i) => `${i}: ${f} (${c.name(f)})`).join(', ')}`);
    out.push(`  sha256("${l.seed}") =`, `    ${l.hash}`);
    out.push(`  ${c.v.lotIndex(l.candidates.length, l.index, winner === undefined ? '?' : c.name(winner))}`);
  }
  if (r.newUnit) {
    const removed = r.newUnit.removed ? `; ${c.v.removed(unitLabel(c, r.newUnit.removed))}` : '';
    out.push(`${c.v.newUnit(r.newUnit.at)} (${r.newUnit.rule})${removed}.`);
  } else if (r.elected !== null && r.elected !== r.outgoing) out.push(c.v.noNewUnit);
  return out;
}

// ---------- 5. production ----------

function production(c: Ctx): string[] {
  const e = c.edict;
  if (!e.production.length) return [c.v.noProduction];
  const w = Math.max(...e.production.map((p) => c.name(p.faction).length));
  return e.production.map((p) => {
    const data = c.board.factions.get(p.faction);
    const home = data ? `${data.homeName} ${data.home}` : p.faction;
    const what = p.at ? c.v.produced(p.at, data?.homeName ?? p.faction) : p.planets > p.units ? c.v.homeTaken(home) : c.v.notProduced;
    return `${c.name(p.faction).padEnd(w)}  ${c.v.planets(p.planets)}, ${c.v.units(p.units)} → ${what} (R-PROD-1)`;
  });
}

// ---------- 6. final situation ----------

function finalSituation(c: Ctx, opts: EdictTextOptions): string[] {
  const e = c.edict;
  const inPlay = e.factions;
  const out = [renderBoardMap(e.units, c.board, { lang: c.lang, inPlay }).trimEnd(), '', c.v.perFaction];
  const sides = sideOrder(c.board, [...inPlay, ...e.units.map((u) => u.side)]);
  const label = (s: Side) => `${c.name(s)}${s === e.chancellor ? ` ${c.v.chancellorMark}` : ''}`;
  const w = Math.max(0, ...sides.map((s) => label(s).length));
  const pw = Math.max(0, ...sides.map((s) => c.v.planets(e.planets[s] ?? 0).length));
  for (const s of sides) {
    const cells = boardOrder(
      c.board,
      e.units.filter((u) => u.side === s).map((u) => u.at),
    );
    // R-CTRL-3: planets under Imperial Troops count for nobody, so the troops get no planet count.
    const planets = s === IMPERIAL ? '—' : c.v.planets(e.planets[s] ?? 0);
    out.push(`  ${label(s).padEnd(w)}  ${planets.padEnd(pw)}  ${c.v.units(cells.length)}: ${cells.join(' ')}`.trimEnd());
  }
  out.push('', c.v.chancellor(e.chancellor && c.name(e.chancellor)));
  // A finished game has no next turn (R-WIN-1, R-WIN-2): nothing to say of its election or joiners.
  if (!e.gameOver) {
    if (e.electionNextTurn) out.push(c.v.nextElection, ...e.electionReasons.map((r) => `  - ${c.v.electionReasons[r] ?? r}`));
    else out.push(c.v.noNextElection);
    if (e.joiningNextTurn.length) out.push(c.v.joiningNextTurn(names(c, e.joiningNextTurn)));
  }
  out.push(victoryLine(c, e));
  if (opts.declarationDeadline || opts.nextDeadline) out.push('');
  if (opts.declarationDeadline) out.push(c.v.declarationDeadline(opts.declarationDeadline));
  if (opts.nextDeadline) out.push(c.v.nextDeadline(opts.nextDeadline));
  return out;
}

/** Wrap a long line at spaces; continuation lines are indented two more than the line itself. */
function wrap(line: string): string[] {
  const width = line.includes(' → ') ? ROW_WIDTH : WIDTH;
  if (line.length <= width) return [line];
  const indent = ' '.repeat((/^ */.exec(line)?.[0].length ?? 0) + 2);
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    if (cut <= indent.length) break; // one unbreakable word: leave it long rather than split it
    out.push(rest.slice(0, cut).trimEnd());
    rest = indent + rest.slice(cut + 1).trimStart();
  }
  out.push(rest);
  return out;
}

/** What every section renderer reads: the edict, its board and the reader's words. */
export function edictContext(edict: Edict, board: Board, lang: Lang): Ctx {
  return { edict, board, lang, v: VOCABULARY[lang], name: (s) => sideName(board, s, lang) };
}

export function renderEdict(edict: Edict, board: Board, lang: Lang, opts: EdictTextOptions = {}): string {
  const c = edictContext(edict, board, lang);
  // Turn 1 is only the election (R-TURN-1): say so instead of three empty sections.
  const idle = edict.turn === 1 ? [c.v.turnOne] : null;
  const lines = [
    ...header(c),
    ...section(c, 1, orders(c)),
    ...section(c, 2, idle ?? combat(c)),
    ...section(c, 3, idle ?? politics(c)),
    ...section(c, 4, edict.election ? election(c, edict.election) : [c.v.notElectionTurn]),
    ...section(c, 5, idle ?? production(c)),
    ...section(c, 6, finalSituation(c, opts)),
  ];
  return `${lines
    .flatMap((l) => l.split('\n'))
    .flatMap(wrap)
    .join('\n')}\n`;
}

/**
 * Who won and by which rule (R-WIN-1, R-WIN-2), or what it takes. An edict stored before R-WIN-2
 * has no `winRule`/`lastTurn`: its winners were by R-WIN-1.
 */
export function victoryLine(c: Ctx, e: Edict): string {
  const last = e.lastTurn ?? null;
  if (e.winners.length) return c.v.winners(names(c, e.winners), e.winners.length > 1, e.winRule === 'R-WIN-2');
  if (e.gameOver) return c.v.gameOverNoWinner;
  return last === null ? c.v.noWinner(e.victoryPlanets) : c.v.noWinnerLast(e.victoryPlanets, last);
}
