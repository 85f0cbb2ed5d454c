// Who wrote, for which game (MAIL.md "Who is writing"). Both checks must pass for a sheet to be
// applied: the secret names the player, and the From address is one of that player's registered
// ones (a player may have several, D-SEAT-3). A removed player is nobody (D-SEAT-2).
// Whoever fails a check learns nothing about other players; an unknown sender hears nothing.
import type { Game } from '../../db/games.ts';
import type { Player } from '../../db/players.ts';
import type { FoundToken } from '../../db/press.ts';
import type { IntakeStore } from './intake-store.ts';

export type Identification =
  | { kind: 'player'; player: Player; game: Game }
  /** A reply to a relayed message: its token is live and the From is its owner's (two factors, D-PRESS-9). */
  | { kind: 'press-reply'; player: Player; game: Game; token: FoundToken }
  /** A referee's reply in a player's conversation with the referees (D-PRESS-4), from their account's address. */
  | { kind: 'referee-reply'; referee: { id: number; email: string }; game: Game; token: FoundToken }
  /**
   * Nothing is applied. `answer` is a registered player who wrote (told why), `warn` the player
   * whose secret was used; `viaToken`: it was a press conversation's reply address, not the secret.
   */
  | {
      kind: 'refused';
      reason: RefusalReason;
      answer: Player | null;
      warn: Player | null;
      game: Game | null;
      viaToken?: FoundToken['thread'];
    };

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
  pressToken?: string | null;
}

export function identifySender(store: IntakeStore, mail: SenderClues): Identification {
  const from = mail.from?.trim().toLowerCase() ?? null;
  const known = from ? store.playersByEmail(from) : [];
  const answerable = (gameId?: string) => known.find((p) => p.gameId === gameId) ?? known[0] ?? null;

  // A token first: a mail sent to one is press, never a sheet, whatever its secret-shaped lines.
  if (mail.pressToken) {
    const token = store.pressToken(mail.pressToken);
    if (token?.ownerKind === 'referee') {
      const referee = store.refereeInGame(token.thread.gameId, token.ownerId);
      const game = store.game(token.thread.gameId);
      // A referee is no player to warn: a wrong From is refused as an unknown code, as a stranger's.
      return referee && game && from === referee.email.toLowerCase()
        ? { kind: 'referee-reply', referee, game, token }
        : refused('unknown-code', answerable(), null, null);
    }
    // A seat that changed hands revoked its tokens; a removed player is nobody.
    const owner = token?.ownerKind === 'player' ? store.playerById(token.ownerId) : null;
    if (!token || !owner || owner.gameId !== token.thread.gameId) return refused('unknown-code', answerable(), null, null);
    const game = store.game(owner.gameId);
    if (from === null || !owner.addresses.includes(from))
      return { ...refused('sender-mismatch', answerable(owner.gameId), owner, game), viaToken: token.thread };
    return game ? { kind: 'press-reply', player: owner, game, token } : refused('unknown-game', owner, null, null);
  }
  if (mail.secret) {
    const owner = store.playerBySecret(mail.secret);
    if (!owner) return refused('unknown-code', answerable(), null, null);
    const game = store.game(owner.gameId);
    if (from === null || !owner.addresses.includes(from)) {
      // The registered player is told; the sender only if we know them, and exactly as for an
      // unknown code (never the owner's name, nor that the code is anyone's).
      return refused('sender-mismatch', answerable(owner.gameId), owner, game);
    }
    return game ? { kind: 'player', player: owner, game } : refused('unknown-game', owner, null, null);
  }
  if (mail.gameTag) {
    const game = store.game(mail.gameTag.toLowerCase());
    if (!game) return refused('unknown-game', answerable(), null, null);
    const player = from ? store.playerInGame(game.id, from) : null;
    if (player) return refused('missing-code', player, null, game);
    return refused('unknown-sender', answerable(), null, game);
  }
  return refused(known.length ? 'no-game' : 'unknown-sender', answerable(), null, null);
}

function refused(
  reason: RefusalReason,
  answer: Player | null,
  warn: Player | null,
  game: Game | null,
): Extract<Identification, { kind: 'refused' }> {
  return { kind: 'refused', reason, answer, warn, game };
}
