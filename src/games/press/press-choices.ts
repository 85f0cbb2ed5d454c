// A player's press choices (docs/press.md §1, D-PRESS-11): MUTE / UNMUTE a faction or every
// anonymous message, DIGEST / IMMEDIATE. Applied in the caller's transaction (intake's batch) and
// answered with where the choices stand now, in the player's language.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { Lang } from '../../adjudicator/types.ts';
import type { Db } from '../../db/client.ts';
import { deliveryOf, mute, mutedBy, setDelivery, unmute, type MuteTarget } from '../../db/press.ts';
import { pressTexts } from '../../text/press.ts';
import type { PressCommand } from './press-commands.ts';

/** Words a player may use for the referees: they cannot be muted (D-PRESS-11), and are told so by name. */
const REFEREES = new Set(['referee', 'referees', 'arbitro', 'arbitri', 'the referee', 'the referees', "l'arbitro", 'gli arbitri']);

/** Applies the command for this player and returns the answer's text. */
export async function applyPressCommand(
  db: Db,
  a: { playerId: number; lang: Lang; board: Board; command: PressCommand; at: Date; timeZone: string; reminders: boolean },
): Promise<string> {
  const T = pressTexts[a.lang];
  const name = (t: MuteTarget) => (t.kind === 'anonymous' ? T.anonymousMessages : sideName(a.board, t.faction, a.lang));
  const c = a.command;
  let done: string;
  switch (c.kind) {
    case 'mute':
      await mute(db, a.playerId, c.target);
      done = c.target.kind === 'anonymous' ? T.mutedAnonymous : T.muted(name(c.target));
      break;
    case 'unmute':
      if (!(await unmute(db, a.playerId, c.target))) done = T.notMuted(name(c.target));
      else done = c.target.kind === 'anonymous' ? T.unmutedAnonymous : T.unmuted(name(c.target));
      break;
    case 'delivery':
      await setDelivery(db, a.playerId, c.delivery, a.at);
      done = c.delivery === 'digest' ? T.nowDigest : T.nowImmediate;
      break;
    case 'unknown-target':
      done = REFEREES.has(c.text) ? T.refereesNotMuted : T.unknownMuteTarget(c.text);
      break;
  }
  const muted = (await mutedBy(db, [a.playerId])).get(a.playerId) ?? [];
  const delivery = (await deliveryOf(db, [a.playerId])).get(a.playerId) ?? 'immediate';
  return T.pressChoices({
    done,
    muted: muted.flatMap((t) => (t.kind === 'faction' ? [name(t)] : [])),
    anonymous: muted.some((t) => t.kind === 'anonymous'),
    delivery,
    timeZone: a.timeZone,
    reminders: a.reminders,
  });
}
