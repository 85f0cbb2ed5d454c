// What the map draws, read from an Imperial Edict (the final situation and what happened this
// turn) or from a position (a GameState, nothing happened yet). The edict already carries every
// outcome; the arrows are derived from its orders, destructions and advances, so the engine needs
// nothing new for the map.
import type { Board, CellIndex } from '../adjudicator/map.ts';
import type { Edict, FactionId, GameState, OrderOutcome, Side, Unit } from '../adjudicator/types.ts';

export type ArrowKind = 'move' | 'jump' | 'advance';
/** `failed`: the unit stayed (R-MOVE-3/4/5, R-ORD-7); `destroyed`: it died on landing (R-HYP-3/4/5). */
export type ArrowEnd = 'ok' | 'failed' | 'destroyed';

export interface MapArrow {
  kind: ArrowKind;
  end: ArrowEnd;
  side: Side | null;
  from: CellIndex;
  to: CellIndex;
}

export interface MapLoss {
  kind: 'eliminated' | 'destroyed';
  side: Side;
  at: CellIndex;
  /** Where a destroyed unit jumped from. */
  from?: CellIndex;
}

export interface Contest {
  at: CellIndex;
  /** The eligible units' cells, in board order (R-ADV-2). */
  candidates: string[];
}

export interface Overlay {
  arrows: MapArrow[];
  losses: MapLoss[];
  contested: Contest[];
  /** Units that appeared this turn: production (R-PROD-1), a new Chancellor's (R-ELEC-5), a troop (R-POL-2). */
  newUnits: CellIndex[];
}

export interface MapView {
  kind: 'edict' | 'state';
  gameId: string;
  turn: number;
  /** Factions in play: the planets of the others are no-man's land (R-SETUP-3). */
  factions: readonly FactionId[];
  chancellor: FactionId | null;
  electionNext: boolean;
  winners: readonly FactionId[];
  units: readonly Unit[];
  /** Planets controlled per faction (R-CTRL-3), when the input says. */
  planets: Readonly<Record<FactionId, number>> | null;
  overlay: Overlay | null;
}

export function isEdict(input: Edict | GameState): input is Edict {
  return 'declarations' in input;
}

/** Results whose arrow shows an order that did not move its unit. */
const FAILED = new Set<OrderOutcome['result']>(['stalled', 'attacked', 'invalid']);
/** Invalid for a reason that means no unit of the sender's was there: nothing to draw from. */
const NO_ARROW_REASONS = new Set(['no-unit', 'not-your-unit', 'superseded', 'turn-1', 'same-cell']);

/** The two cells of `B2-C3` / `B2=F6`, or null when either is off the board. */
function orderCells(board: Board, o: OrderOutcome): [CellIndex, CellIndex] | null {
  const sep = o.order.indexOf(o.kind === 'jump' ? '=' : '-');
  if (sep < 0) return null;
  const from = board.parseCell(o.order.slice(0, sep));
  const to = board.parseCell(o.order.slice(sep + 1));
  return from === null || to === null || from === to ? null : [from, to];
}

function overlayOf(board: Board, e: Edict): Overlay {
  const cell = (t: string) => board.parseCell(t);
  const arrows: MapArrow[] = [];
  const advanced = new Set(e.advances.map((a) => `${a.from}>${a.to}`));
  for (const d of e.declarations)
    for (const o of d.orders) {
      if (o.kind === 'politics' || o.side === null) continue;
      const ok = o.result === 'moved' || o.result === 'jumped';
      if (!ok && !FAILED.has(o.result)) continue; // destroyed jumps come from `destructions`
      if (o.reason !== undefined && NO_ARROW_REASONS.has(o.reason)) continue;
      const cells = orderCells(board, o);
      if (!cells) continue;
      // An attacker that then advanced into the cell it attacked (R-ADV-2): the advance tells it.
      if (o.result === 'attacked' && advanced.has(`${board.name(cells[0])}>${board.name(cells[1])}`)) continue;
      arrows.push({ kind: o.kind, end: ok ? 'ok' : 'failed', side: o.side, from: cells[0], to: cells[1] });
    }
  const losses: MapLoss[] = [];
  for (const x of e.destructions) {
    const from = cell(x.from);
    const at = cell(x.at);
    if (at === null) continue;
    if (from !== null && from !== at) arrows.push({ kind: 'jump', end: 'destroyed', side: x.side, from, to: at });
    losses.push(from === null ? { kind: 'destroyed', side: x.side, at } : { kind: 'destroyed', side: x.side, at, from });
  }
  for (const x of e.eliminations) {
    const at = cell(x.at);
    if (at !== null) losses.push({ kind: 'eliminated', side: x.side, at });
  }
  const contested: Contest[] = [];
  for (const a of e.advances) {
    const from = cell(a.from);
    const to = cell(a.to);
    if (from === null || to === null) continue;
    arrows.push({ kind: 'advance', end: 'ok', side: a.side, from, to });
    if (a.contested) {
      const key = (t: string) => board.parseCell(t) ?? Number.MAX_SAFE_INTEGER;
      contested.push({ at: to, candidates: [...a.candidates].sort((p, q) => key(p) - key(q)) });
    }
  }
  const born = [...e.production.map((p) => p.at), e.election?.newUnit?.at ?? null, e.politics.troop?.at ?? null];
  const newUnits = [...new Set(born.flatMap((t) => (t === null ? [] : [cell(t)]).filter((i) => i !== null)))];
  return { arrows, losses, contested, newUnits: newUnits.sort((a, b) => a - b) };
}

export function mapView(board: Board, input: Edict | GameState): MapView {
  if (isEdict(input))
    return {
      kind: 'edict',
      gameId: input.gameId,
      turn: input.turn,
      factions: input.factions,
      chancellor: input.chancellor,
      electionNext: input.electionNextTurn && !input.gameOver, // a finished game has no next turn
      winners: input.winners,
      units: input.units,
      planets: input.planets,
      overlay: overlayOf(board, input),
    };
  return {
    kind: 'state',
    gameId: input.gameId,
    turn: input.turn,
    factions: input.factions,
    chancellor: input.chancellor,
    electionNext: false,
    winners: [],
    units: input.units,
    planets: null,
    overlay: null,
  };
}
