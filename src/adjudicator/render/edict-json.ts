// The canonical JSON form of an Imperial Edict, for the archive and for diffing an amended edict
// against the original (R-EDICT-3). Same edict, same bytes (R-EDICT-2): keys come out in the order
// types.ts declares them, whatever order the engine built the objects in; maps keyed by faction
// (tally, planets) are sorted by key; array order is meaning (board order, order written) and kept.
import type { Edict } from '../types.ts';

type Shape =
  { kind: 'object'; keys: readonly string[]; fields: Readonly<Record<string, Shape>> } | { kind: 'array'; of: Shape } | { kind: 'any' };

const ANY: Shape = { kind: 'any' };
const obj = (keys: readonly string[], fields: Record<string, Shape> = {}): Shape => ({ kind: 'object', keys, fields });
const arr = (of: Shape): Shape => ({ kind: 'array', of });

const UNIT = obj(['side', 'at']);
// A problem is public as its line and kind (R-EDICT-4): no message, no text of the line.
const PROBLEM = obj(['line', 'code', 'rule']);
const OUTCOME = obj(['faction', 'side', 'order', 'kind', 'line', 'result', 'rule', 'reason', 'with']);
const DECLARATION = obj(['faction', 'isChancellor', 'submitted', 'hostility', 'hostilitySource', 'vote', 'orders', 'problems'], {
  orders: arr(OUTCOME),
  problems: arr(PROBLEM),
});
const ELECTION = obj(['ballots', 'tally', 'outgoing', 'elected', 'how', 'lot', 'newUnit'], {
  ballots: arr(obj(['voter', 'votes', 'for', 'note'])),
  lot: obj(['candidates', 'seed', 'hash', 'index']),
  newUnit: obj(['at', 'removed', 'rule'], { removed: UNIT }),
});

/** The Edict's shape, in the order of types.ts. */
const EDICT = obj(
  [
    'gameId',
    'map',
    'turn',
    'electionTurn',
    'chancellorAtStart',
    'factions',
    'victoryPlanets',
    'declarations',
    'eliminations',
    'destructions',
    'advances',
    'politics',
    'election',
    'production',
    'units',
    'planets',
    'chancellor',
    'electionNextTurn',
    'electionReasons',
    'winners',
    'winRule',
    'lastTurn',
    'gameOver',
    'joiningNextTurn',
  ],
  {
    declarations: arr(DECLARATION),
    eliminations: arr(obj(['side', 'at', 'rule', 'by'], { by: arr(UNIT) })),
    destructions: arr(obj(['side', 'from', 'at', 'rule', 'reason', 'with'])),
    advances: arr(obj(['side', 'from', 'to', 'rule', 'contested', 'candidates'])),
    politics: obj(['completed', 'troop', 'troopRefused', 'electionsCalledBy'], {
      completed: arr(UNIT),
      troop: obj(['at', 'by', 'rule']),
      electionsCalledBy: arr(UNIT),
    }),
    election: ELECTION,
    production: arr(obj(['faction', 'planets', 'units', 'at'])),
    units: arr(UNIT),
  },
);

/** Code-unit order, independent of the host's locale. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A copy with keys in canonical order: the shape's keys first, then any key the shape does not know
 * (a field the engine added before this file learnt it) in sorted order, so nothing is dropped.
 */
function canonical(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) return value.map((v) => canonical(v, shape.kind === 'array' ? shape.of : ANY));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const known = shape.kind === 'object' ? shape.keys : [];
  const rest = Object.keys(record)
    .filter((k) => !known.includes(k))
    .sort(byCodeUnit);
  const out: Record<string, unknown> = {};
  for (const k of [...known, ...rest]) {
    if (record[k] === undefined) continue;
    out[k] = canonical(record[k], shape.kind === 'object' ? (shape.fields[k] ?? ANY) : ANY);
  }
  return out;
}

/** The edict as canonical JSON: fixed key order, 2-space indent, one trailing newline. */
export function edictToJson(edict: Edict): string {
  return `${JSON.stringify(canonical(edict, EDICT), null, 2)}\n`;
}
