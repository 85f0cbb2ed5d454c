// Planet control (R-CTRL-1..3).
import type { TurnContext } from './turn-context.ts';
import { IMPERIAL } from './types.ts';

/**
 * Planets each faction in play controls, in the order of `ctx.factions`. For elections an
 * Imperial-held planet counts for the Chancellor in office; for production and victory it counts
 * for nobody (R-CTRL-3).
 */
export function planetsControlled(ctx: TurnContext, purpose: 'election' | 'production'): number[] {
  const { board } = ctx;
  const counts = new Array<number>(ctx.factions.length).fill(0);
  const imperial = board.sideNumber(IMPERIAL);
  for (const cell of board.planets) {
    const unit = ctx.unitAt(cell);
    let owner: number; // a side number
    if (unit) owner = unit.sideNo !== imperial ? unit.sideNo : purpose === 'election' ? ctx.chancellorNo : -1;
    else owner = board.homeOwnerNo[cell]!; // R-CTRL-2
    const i = owner < 0 ? -1 : ctx.factionIndex(owner);
    if (i >= 0) counts[i]!++;
  }
  return counts;
}
