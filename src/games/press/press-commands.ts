// The press commands a player sends alone in a mail, as STATUS (docs/press.md §1):
// MUTE / SILENZIA <factions> | ANONYMOUS, UNMUTE / RIATTIVA, DIGEST / RIEPILOGO, IMMEDIATE / SUBITO.
// MUTE takes a list as a press audience does (`MUTE Sith, Hutt and Knights`).
// Pure; src/games/player-commands.ts is to ask it for a mail's only line (D-PARSE-13's `Code:` aside).
import { foldName } from '../../adjudicator/faction-names.ts';
import type { MuteTarget } from '../../db/press.ts';
import { splitNameList, type PressFaction } from './read-press.ts';

/** What a mute names: a faction id, or every anonymous message (D-PRESS-11); the data layer's type. */
export type { MuteTarget };

export type PressCommand =
  /** Each target once, in the order written. */
  | { kind: 'mute'; targets: MuteTarget[] }
  | { kind: 'unmute'; targets: MuteTarget[] }
  | { kind: 'delivery'; delivery: 'digest' | 'immediate' }
  /** MUTE / UNMUTE naming something that is no faction (the whole list refused): `text` quotes it, folded and cut short. */
  | { kind: 'unknown-target'; text: string };

const MUTE = new Set(['mute', 'silenzia', 'silence']);
const UNMUTE = new Set(['unmute', 'riattiva']);
const DELIVERY = new Map<string, 'digest' | 'immediate'>([
  ['digest', 'digest'],
  ['riepilogo', 'digest'],
  ['immediate', 'immediate'],
  ['subito', 'immediate'],
]);
const ARTICLE = /^(?:the|i|gli|le|il|lo|la) (?=\S)/;
const ANONYMOUS = new Set(['anonymous', 'anonimi', 'anonimo', 'anonime', 'grey', 'gray']);

/** The command a line gives, or null when it is none (then it is a sheet, or chatter). */
export function readPressCommand(line: string, factions: readonly PressFaction[]): PressCommand | null {
  if (line.length > 200) return null;
  // Invisible format characters (a BOM, a zero-width space, a direction mark) are no part of a command.
  const folded = foldName(line.replace(/\p{Cf}/gu, ''))
    .replace(/[.!]$/, '')
    .trim();
  const space = folded.indexOf(' ');
  const word = space < 0 ? folded : folded.slice(0, space);
  // `MUTE the Sith`, `SILENZIA i Sith`, `SILENZIA gli anonimi`: an article is no part of the name.
  const rest =
    space < 0
      ? ''
      : folded
          .slice(space + 1)
          .replace(ARTICLE, '')
          .trim();
  const delivery = DELIVERY.get(word);
  if (delivery) return rest === '' ? { kind: 'delivery', delivery } : null;
  const mute = MUTE.has(word) ? 'mute' : UNMUTE.has(word) ? 'unmute' : null;
  if (!mute || rest === '') return null;
  const targetOf = (name: string): MuteTarget | null => {
    if (ANONYMOUS.has(name)) return { kind: 'anonymous' };
    const faction = factions.find((f) => [f.id, ...f.names].some((n) => foldName(n) === name));
    return faction ? { kind: 'faction', faction: faction.id } : null;
  };
  const targets: MuteTarget[] = [];
  // `MUTE Sith, Hutt e i Cavalieri`: each name may bring its own article.
  for (const name of splitNameList(rest, (piece) => targetOf(piece) !== null)) {
    const bare = name.replace(ARTICLE, '').trim();
    const target = targetOf(bare);
    // One name that is no faction refuses the whole command: a mute list half applied would surprise.
    if (!target) return { kind: 'unknown-target', text: bare.length > 60 ? `${bare.slice(0, 59)}…` : bare };
    if (!targets.some((t) => muteKey(t) === muteKey(target))) targets.push(target);
  }
  return targets.length ? { kind: mute, targets } : { kind: 'unknown-target', text: rest.length > 60 ? `${rest.slice(0, 59)}…` : rest };
}

const muteKey = (t: MuteTarget): string => (t.kind === 'anonymous' ? '*' : t.faction);
