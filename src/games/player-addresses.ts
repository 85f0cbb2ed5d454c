// A player may write from several addresses: the referee adds and removes them, and
// chooses the primary one, where every mail to the player goes (D-SEAT-3). Intake knows the
// player by any of them. Each change is audited and told to the player at the primary address
// (and at the old primary when it changes), so an address added in their name is noticed.
import { recordAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { lockGame, type Game } from '../db/games.ts';
import { enqueueMany, type OutboxInput } from '../db/outbox.ts';
import { addAddress, addressesOfGame, listPlayers, removeAddress, setPrimaryAddress, type Player } from '../db/players.ts';
import { refereeTexts } from '../text/referee-mail.ts';
import type { GamesContext } from './context.ts';
import { GameError } from './errors.ts';
import { parseInput, playerInput } from './input.ts';
import { noSuchGame } from '../errors.ts';
import { gameMail } from './game-mail.ts';

/** D-SEAT-3: enough for home, work and a phone; a bound on what a mistake or a prank can add. */
export const MAX_ADDRESSES = 5;

export type AddressChange = 'add' | 'remove' | 'primary';

export interface PlayerAddresses {
  player: Player;
  /** The primary first. */
  addresses: string[];
}

const emailOnly = playerInput.pick({ email: true });

export async function changePlayerAddress(
  db: Db,
  gameId: string,
  faction: string,
  change: AddressChange,
  rawEmail: string,
  reason: string,
  ctx: GamesContext,
): Promise<PlayerAddresses> {
  const why = reason.trim();
  if (!why) throw new GameError('invalid-input', 'a change of address needs a reason', 'reason');
  const { email } = parseInput(emailOnly, { email: rawEmail });
  return db.transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!game) throw new GameError('no-game', noSuchGame(gameId));
    if (game.status === 'finished') throw new GameError('game-finished', `game ${game.id} is over`);
    const player = (await listPlayers(tx, game.id)).find((p) => p.faction === faction);
    if (!player) throw new GameError('invalid-input', `game ${game.id} has no player for ${faction}`, 'faction');
    const before = (await addressesOfGame(tx, game.id)).get(player.id) ?? [player.email];
    let updated = player;
    if (change === 'add') {
      if (before.includes(email)) throw new GameError('invalid-input', `${email} is already an address of the ${faction}`, 'email');
      if (before.length >= MAX_ADDRESSES) throw new GameError('invalid-input', `a player has at most ${MAX_ADDRESSES} addresses`, 'email');
      if (!(await addAddress(tx, player, email))) throw new GameError('already-playing', `${email} already plays in ${game.id}`);
    } else {
      if (!before.includes(email)) throw new GameError('invalid-input', `${email} is not an address of the ${faction}`, 'email');
      if (change === 'remove') {
        if (email === player.email)
          throw new GameError('invalid-input', `${email} is the primary address: make another one primary first`, 'email');
        await removeAddress(tx, player.id, email);
      } else if (email !== player.email) {
        updated = await setPrimaryAddress(tx, player.id, email);
      }
    }
    const after = (await addressesOfGame(tx, game.id)).get(player.id) ?? [];
    const audit = await recordAudit(tx, {
      actor: ctx.actor,
      gameId: game.id,
      action: `player.address-${change}`,
      detail: { faction, email, before, after, reason: why },
    });
    // The old primary hears of a change of primary too: it is the address the player reads.
    const to = [...new Set([updated.email, player.email])];
    await enqueueMany(
      tx,
      to.map((address) => notice(game, updated, address, after, why, audit.id, ctx)),
    );
    return { player: updated, addresses: after };
  });
}

function notice(game: Game, p: Player, to: string, addresses: string[], reason: string, auditId: number, ctx: GamesContext): OutboxInput {
  const r = refereeTexts[p.lang].addressesChanged({
    game: game.id,
    gameName: game.name,
    primary: p.email,
    addresses: addresses.join(', '),
    reason,
  });
  return gameMail(ctx.mail, {
    kind: 'addresses-changed',
    gameId: game.id,
    to,
    replySecret: p.secret,
    ...r,
    dedupeKey: `addresses-changed:${auditId}:${to}`,
  });
}
