// Who wrote, for which game (MAIL.md "Who is writing"). Both checks must pass for a sheet to be
// applied: the secret names the player, and the From address is that player's registered one.
// Whoever fails a check learns nothing about other players; an unknown sender hears nothing.
import type { Db } from '../../db/client.ts';
import { findGame, type Game } from '../../db/games.ts';
import { findByEmail, findBySecret, findPlayersByEmail, type Player } from '../../db/players.ts';

export type Identification =
  | { kind: 'player'; player: Player; game: Game }
  /** Nothing is applied. `answer` is a registered player who wrote (told why), `warn` the player whose secret was used. */
  | { kind: 'refused'; reason: RefusalReason; answer: Player | null; warn: Player | null; game: Game | null };

export type RefusalReason =
  | 'unknown-sender' // no reply at all
  | 'sender-mismatch' // right secret, wrong From: someone tried
  | 'unknown-code'
  | 'missing-code'
  | 'unknown-game'
  | 'no-game'; // a known player who named no game

export interface SenderClues {
  from: string | null;
  secret: string | null;
  gameTag: string | null;
}

export async function identifySender(db: Db, mail: SenderClues): Promise<Identification> {
  const from = mail.from?.trim().toLowerCase() ?? null;
  // The sender's other games matter only when we refuse: looked up then, not for every sheet.
  let knownOnce: Promise<Player[]> | null = null;
  const known = () => (knownOnce ??= from ? findPlayersByEmail(db, from) : Promise.resolve([]));
  const answerable = async (gameId?: string) => {
    const k = await known();
    return k.find((p) => p.gameId === gameId) ?? k[0] ?? null;
  };

  if (mail.secret) {
    const owner = await findBySecret(db, mail.secret);
    if (!owner) return refused('unknown-code', await answerable(), null, null);
    const game = await findGame(db, owner.gameId);
    if (owner.email !== from) {
      // The registered player is told; the sender only if we know them (never the owner's name).
      return refused('sender-mismatch', await answerable(owner.gameId), owner, game);
    }
    return game ? { kind: 'player', player: owner, game } : refused('unknown-game', owner, null, null);
  }
  if (mail.gameTag) {
    const game = await findGame(db, mail.gameTag.toLowerCase());
    if (!game) return refused('unknown-game', await answerable(), null, null);
    const player = from ? await findByEmail(db, game.id, from) : null;
    if (player) return refused('missing-code', player, null, game);
    return refused('unknown-sender', await answerable(), null, game);
  }
  return refused((await known()).length ? 'no-game' : 'unknown-sender', await answerable(), null, null);
}

function refused(reason: RefusalReason, answer: Player | null, warn: Player | null, game: Game | null): Identification {
  return { kind: 'refused', reason, answer, warn, game };
}
