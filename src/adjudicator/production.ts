// Production (R-PROD-1) and victory (R-WIN-1), at the end of the turn.
import { planetsControlled } from './control.ts';
import type { TurnContext } from './turn-context.ts';
import type { FactionId, ProductionEntry } from './types.ts';

export function produce(ctx: TurnContext): ProductionEntry[] {
  const { factions } = ctx;
  // Counted after the election step, so a new Chancellor's unit counts (R-PROD-1).
  const planets = planetsControlled(ctx, 'production');
  const units = new Array<number>(factions.length).fill(0);
  for (const u of ctx.units) {
    const i = ctx.factionIndex(u.sideNo);
    if (u.alive && i >= 0) units[i]!++;
  }
  const out: ProductionEntry[] = [];
  for (let i = 0; i < factions.length; i++) {
    const f = factions[i]!;
    const p = planets[i]!;
    const n = units[i]!;
    if (p <= n) continue;
    const home = ctx.board.homeCell.get(f)!;
    const free = ctx.isEmpty(home);
    if (free) ctx.create(f, home);
    out.push({ faction: f, planets: p, units: n, at: free ? ctx.cellName(home) : null });
  }
  return out;
}

export interface Victory {
  winners: FactionId[];
  rule: 'R-WIN-1' | 'R-WIN-2' | null;
}

/**
 * R-WIN-1: at least the threshold; several, the most planets; still tied, they share. On the game's
 * last turn with nobody at the threshold, R-WIN-2: the most planets, tied ones share. `planets` of
 * each of `factions` (planetsControlled).
 */
export function victory(factions: readonly FactionId[], planets: readonly number[], threshold: number, lastTurn: boolean): Victory {
  const byThreshold = atLeast(factions, planets, threshold);
  if (byThreshold.length) return { winners: byThreshold, rule: 'R-WIN-1' };
  if (lastTurn && factions.length) return { winners: atLeast(factions, planets, 0), rule: 'R-WIN-2' };
  return { winners: [], rule: null };
}

/** The factions with the most planets, provided that is at least `floor`. */
function atLeast(factions: readonly FactionId[], planets: readonly number[], floor: number): FactionId[] {
  const best = Math.max(floor, ...planets);
  return factions.filter((_, i) => planets[i]! >= best);
}
