// A player's press choices (docs/press.md §1, D-PRESS-11): MUTE / UNMUTE a faction or every
// anonymous message, DIGEST / IMMEDIATE. Applied in the caller's transaction (intake's batch) and
// answered with where the choices stand now, in the player's language.
import type { Board } from '../../adjudicator/map.ts';
import { sideNameAsObject } from '../../adjudicator/render/vocabulary.ts';
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
  // In Italian with its article ("i Sith"): the texts put it after "di" and "silenziato".
  const name = (t: MuteTarget) => (t.kind === 'anonymous' ? T.anonymousMessages : sideNameAsObject(a.board, t.faction, a.lang));
  const factionsIn = (ts: MuteTarget[]) => ts.filter((t) => t.kind === 'faction');
  const c = a.command;
  let done: string;
  switch (c.kind) {
    case 'mute': {
      for (const t of c.targets) await mute(db, a.playerId, t);
      // One sentence for the factions, each named; one for anonymous messages.
      const factions = factionsIn(c.targets);
      done = [
        ...(factions.length ? [T.muted(T.list(factions.map(name)))] : []),
        ...(c.targets.some((t) => t.kind === 'anonymous') ? [T.mutedAnonymous] : []),
      ].join('\n');
      break;
    }
    case 'unmute': {
      const unmuted: MuteTarget[] = [];
      const notMuted: MuteTarget[] = [];
      for (const t of c.targets) ((await unmute(db, a.playerId, t)) ? unmuted : notMuted).push(t);
      const factions = factionsIn(unmuted);
      done = [
        ...(factions.length ? [T.unmuted(T.list(factions.map(name)))] : []),
        ...(unmuted.some((t) => t.kind === 'anonymous') ? [T.unmutedAnonymous] : []),
        ...(notMuted.length ? [T.notMuted(T.list(notMuted.map(name)))] : []),
      ].join('\n');
      break;
    }
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
