// Production (R-PROD-1) and victory (R-WIN-1), at the end of the turn.
import { planetsControlled } from './control.ts';
import type { TurnContext } from './turn-context.ts';
import type { FactionId, ProductionEntry } from './types.ts';

export function produce(ctx: TurnContext, factions: readonly FactionId[]): ProductionEntry[] {
  // Counted after the election step, so a new Chancellor's unit counts (R-PROD-1).
  const planets = planetsControlled(ctx, 'production');
  const units = new Map<FactionId, number>();
  for (const u of ctx.units) if (u.alive) units.set(u.side, (units.get(u.side) ?? 0) + 1);
  const out: ProductionEntry[] = [];
  for (const f of factions) {
    const p = planets.get(f) ?? 0;
    const n = units.get(f) ?? 0;
    if (p <= n) continue;
    const home = ctx.board.homeCell.get(f)!;
    const free = ctx.occupant[home] === -1;
    if (free) ctx.create(f, home);
    out.push({ faction: f, planets: p, units: n, at: free ? ctx.cellName(home) : null });
  }
  return out;
}

/** R-WIN-1: at least the threshold; several, the most planets; still tied, they share. */
export function winners(planets: ReadonlyMap<FactionId, number>, threshold: number): FactionId[] {
  const qualified = [...planets].filter(([, n]) => n >= threshold);
  if (!qualified.length) return [];
  const best = Math.max(...qualified.map(([, n]) => n));
  return qualified.filter(([, n]) => n === best).map(([f]) => f);
}
