// Planet control (R-CTRL-1..3).
import type { TurnContext } from './turn-context.ts';
import { IMPERIAL, type FactionId } from './types.ts';

/**
 * Planets each faction in play controls. For elections an Imperial-held planet counts for the
 * Chancellor in office; for production and victory it counts for nobody (R-CTRL-3).
 */
export function planetsControlled(ctx: TurnContext, purpose: 'election' | 'production'): Map<FactionId, number> {
  const { board } = ctx;
  const counts = new Map<FactionId, number>();
  for (const f of board.factionIds) if (ctx.inPlay.has(f)) counts.set(f, 0);
  for (const cell of board.planets) {
    const unit = ctx.unitAt(cell);
    let owner: FactionId | null = null;
    if (unit) {
      owner = unit.side === IMPERIAL ? (purpose === 'election' ? ctx.chancellor : null) : unit.side;
    } else {
      const f = board.planetOwner[cell];
      if (f !== undefined && board.homeCell.get(f) === cell && ctx.inPlay.has(f)) owner = f; // R-CTRL-2
    }
    if (owner !== null && counts.has(owner)) counts.set(owner, counts.get(owner)! + 1);
  }
  return counts;
}
