// R-TURN-2 step 5, D-PRESS-14: an edict version's dispute window, when it opens and when it ends, in
// one place. A player's dispute (disputes.ts, decide-press.ts), the referee's amendment
// (amend-turn.ts) and the edict's mail (edict-mail.ts, referee-actions.ts) all measure it here, so
// none of them can open it at another instant.

/**
 * When an edict version was published, which opens its window: version 1 when its turn closed
 * (the closing clock: turns.adjudicated_at); an amended version when it was stored, and it opens a
 * fresh window (D-PRESS-14).
 */
export function editionPublishedAt(edict: { version: number; createdAt: Date }, turnClosedAt: Date | null | undefined): Date {
  return edict.version === 1 && turnClosedAt ? turnClosedAt : edict.createdAt;
}

/** The end of the window opened at `publishedAt`. A game with no window (0 minutes) closes it as it opens. */
export function disputeWindowEnd(game: { disputeWindowMinutes: number }, publishedAt: Date): Date {
  return new Date(publishedAt.getTime() + game.disputeWindowMinutes * 60_000);
}
