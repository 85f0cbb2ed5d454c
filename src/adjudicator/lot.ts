// The published lot that settles a tie with no outgoing Chancellor (R-ELEC-4): anyone can check it.
import { hash as digest } from 'node:crypto';
import type { FactionId } from './types.ts';

export function drawLot(gameId: string, turn: number, tied: readonly FactionId[]) {
  const candidates = [...tied].sort();
  const seed = `${gameId}:${turn}`;
  const hash = digest('sha256', seed, 'hex');
  const index = Number(BigInt(`0x${hash}`) % BigInt(candidates.length));
  return { candidates, seed, hash, index, winner: candidates[index]! };
}
