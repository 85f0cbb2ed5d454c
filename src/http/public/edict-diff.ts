// What an amendment changed (R-EDICT-3: "what changed and why"): the final units, planets, the
// Chancellor and the winners of one edict version against the version before it. Pure.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { Edict, Lang } from '../../adjudicator/types.ts';
import { webTexts } from '../../text/web.ts';

/** One line per difference, in words; empty when the outcome is the same. */
export function edictChanges(board: Board, before: Edict, after: Edict, lang: Lang): string[] {
  const T = webTexts[lang];
  const name = (s: string | null) => (s ? sideName(board, s, lang) : T.nobody);
  const key = (u: { side: string; at: string }) => `${u.side}@${u.at}`;
  const was = new Set(before.units.map(key));
  const now = new Set(after.units.map(key));
  const out: string[] = [];
  for (const u of before.units) if (!now.has(key(u))) out.push(T.noLongerIn(name(u.side), u.at));
  for (const u of after.units) if (!was.has(key(u))) out.push(T.nowIn(name(u.side), u.at));
  for (const f of board.factionIds) {
    const a = before.planets[f];
    const b = after.planets[f];
    if (a !== b && (a !== undefined || b !== undefined)) out.push(T.planetsChanged(name(f), a ?? 0, b ?? 0));
  }
  if (before.chancellor !== after.chancellor) out.push(T.chancellorChanged(name(before.chancellor), name(after.chancellor)));
  if (before.winners.join() !== after.winners.join()) {
    out.push(T.winnersChanged(before.winners.map(name).join(', ') || '—', after.winners.map(name).join(', ') || '—'));
  }
  return out;
}
