// What becomes of each block a player's mail holds (docs/press.md): relayed to whom, signed or
// anonymous, or refused and why; and whether a dispute is taken. Pure: the caller (intake) gathers
// the facts — the game's settings, its open turn, who sits where, what the writer sent in the last
// hour — and stores and words what is decided here. Time is when our server received the mail
// (as for sheets, R-TURN-4), never the mail's Date: header.
import type { DisputePart, PressAudience, PressPart } from './read-press.ts';
import type { PressSettings } from './settings.ts';
import { disputeWindowEnd } from '../dispute-window.ts';

const HOUR = 3_600_000;

export interface PressFacts {
  settings: PressSettings;
  /** When our server received the mail. */
  receivedAt: Date;
  game: { status: 'active' | 'paused' | 'finished'; pausedAt: Date | null };
  /** The game's open turn, or null between turns. */
  turn: { number: number; deadline: Date; declarationDeadline: Date; hasChancellor: boolean } | null;
  writer: { faction: string };
  /** Factions with a seated player (D-SEAT-1: a vacant seat has none), the writer's included. */
  seated: ReadonlySet<string>;
  /**
   * When the writer's accepted messages between players were received, in the last hour (the
   * list may hold older ones too: only those less than an hour older than the message count).
   */
  sentLastHour: readonly Date[];
  /** The same for messages to the referees, which have a cap of their own (D-PRESS-4). */
  sentToRefereesLastHour: readonly Date[];
}

export type PressRefusal =
  | { reason: 'game-over' }
  | { reason: 'press-off' }
  | { reason: 'anonymous-not-allowed' }
  | { reason: 'signed-not-allowed' }
  | { reason: 'private-not-allowed' }
  /** Closed since `since` (a deadline, D-PRESS-5); open again when turn `reopensWith` opens. */
  | { reason: 'press-closed'; since: Date; reopensWith: number }
  /** Named factions with nobody in their seat (not in play, or vacant), in the order written. */
  | { reason: 'not-in-play'; factions: string[] }
  | { reason: 'only-yourself' }
  | { reason: 'too-long'; chars: number; max: number }
  /** The hourly cap is reached; the next message is possible at `nextAt`. */
  | { reason: 'too-many'; max: number; nextAt: Date };

export type PressDecision =
  | {
      kind: 'relay';
      /** Faction ids the message goes to (never the writer's), or the game's referees. */
      to: { kind: 'factions'; factions: string[]; everyone: boolean } | { kind: 'referees' };
      sign: 'signed' | 'anonymous';
      /** ANONYMOUS written on a message to the referees: sent signed, and the acknowledgement says so. */
      signedAnyway: boolean;
    }
  | ({ kind: 'refused' } & PressRefusal);

/**
 * Every press block of one mail, in order: each accepted one counts towards the hourly cap of the
 * next (a mail of three messages counts three, D-PRESS-12).
 */
export function decidePress(parts: readonly PressPart[], facts: PressFacts): PressDecision[] {
  const sent = [...facts.sentLastHour];
  const toReferees = [...facts.sentToRefereesLastHour];
  return parts.map((part) => {
    const d = decideOne(part, facts, part.audience.kind === 'referee' ? toReferees : sent);
    if (d.kind === 'relay') (d.to.kind === 'referees' ? toReferees : sent).push(facts.receivedAt);
    return d;
  });
}

function decideOne(part: PressPart, f: PressFacts, sent: readonly Date[]): PressDecision {
  const s = f.settings;
  const cap = (): PressDecision | null => {
    const now = f.receivedAt.getTime();
    const inHour = (t: Date) => now - t.getTime() < HOUR;
    // Counted first, sorted only at the cap: the times may span more than the hour (a batch's row).
    let count = 0;
    for (const t of sent) if (inHour(t)) count++;
    if (count < s.perHour) return null;
    const recent = sent.filter(inHour).sort((a, b) => a.getTime() - b.getTime());
    // The next is possible when the oldest message that keeps the count at the cap is an hour old.
    const nextAt = new Date(recent[recent.length - s.perHour]!.getTime() + HOUR);
    return { kind: 'refused', reason: 'too-many', max: s.perHour, nextAt };
  };
  const length = (): PressDecision | null => {
    const chars = codePoints(part.text);
    return chars > s.maxChars ? { kind: 'refused', reason: 'too-long', chars, max: s.maxChars } : null;
  };

  // D-PRESS-4: the referees can always be reached, signed, whatever the game's press.
  if (part.audience.kind === 'referee') {
    return length() ?? cap() ?? { kind: 'relay', to: { kind: 'referees' }, sign: 'signed', signedAnyway: part.sign === 'anonymous' };
  }
  if (f.game.status === 'finished') return { kind: 'refused', reason: 'game-over' };
  if (s.mode === 'off') return { kind: 'refused', reason: 'press-off' };
  // D-PRESS-3: never silently changed.
  if (s.mode === 'signed' && part.sign === 'anonymous') return { kind: 'refused', reason: 'anonymous-not-allowed' };
  if (s.mode === 'anonymous' && part.sign === 'signed') return { kind: 'refused', reason: 'signed-not-allowed' };
  const sign = s.mode === 'anonymous' ? 'anonymous' : s.mode === 'signed' ? 'signed' : (part.sign ?? 'signed');
  if (!s.private && part.audience.kind === 'factions') return { kind: 'refused', reason: 'private-not-allowed' };
  const closed = closedSince(f);
  if (closed) return { kind: 'refused', reason: 'press-closed', since: closed, reopensWith: f.turn!.number + 1 };
  const to = recipients(part.audience, f);
  if ('reason' in to) return { kind: 'refused', ...to };
  return length() ?? cap() ?? { kind: 'relay', to, sign, signedAnyway: false };
}

/**
 * When press between players closed for the open turn (D-PRESS-5), or null while it is open. A
 * paused game is judged as at its pause: its deadlines wait, and so does press. Turn 1 has no
 * Chancellor, so `until-declaration` closes at the orders deadline then.
 */
export function closedSince(f: Pick<PressFacts, 'settings' | 'receivedAt' | 'game' | 'turn'>): Date | null {
  if (f.settings.open === 'always' || !f.turn) return null;
  const at = f.game.status === 'paused' && f.game.pausedAt ? f.game.pausedAt : f.receivedAt;
  const closes = f.settings.open === 'until-declaration' && f.turn.hasChancellor ? f.turn.declarationDeadline : f.turn.deadline;
  return at >= closes ? closes : null;
}

function recipients(audience: PressAudience, f: PressFacts): { kind: 'factions'; factions: string[]; everyone: boolean } | PressRefusal {
  if (audience.kind === 'referee') throw new Error('the referees are no factions');
  if (audience.kind === 'all') {
    const factions = [...f.seated].filter((x) => x !== f.writer.faction);
    return factions.length ? { kind: 'factions', factions, everyone: true } : { reason: 'only-yourself' };
  }
  // D-PRESS-13: a group message goes to all it names or to none, so that nobody reads it believing
  // someone else did too.
  const missing = audience.factions.filter((x) => !f.seated.has(x));
  if (missing.length) return { reason: 'not-in-play', factions: missing };
  const factions = audience.factions.filter((x) => x !== f.writer.faction);
  return factions.length ? { kind: 'factions', factions, everyone: false } : { reason: 'only-yourself' };
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export interface DisputeFacts {
  receivedAt: Date;
  /** The game's latest edict: its turn, version and when that version was published; null before the first. */
  latestEdict: { turn: number; version: number; publishedAt: Date } | null;
  disputeWindowMinutes: number;
  /** Whether the turn after the edict's is still open: amending is refused once it closed. */
  nextTurnOpen: boolean;
  /** Disputes this player already made about that turn. */
  earlier: number;
  maxChars: number;
}

export const MAX_DISPUTES_PER_TURN = 3;

export type DisputeDecision =
  | { kind: 'taken'; turn: number; version: number }
  | { kind: 'refused'; reason: 'no-edict' }
  | { kind: 'refused'; reason: 'window-closed'; turn: number; endedAt: Date }
  /** The turn after the edict's has closed: it can no longer be amended (a window longer than a turn). */
  | { kind: 'refused'; reason: 'edict-final'; turn: number }
  | { kind: 'refused'; reason: 'too-many-disputes'; max: number }
  | { kind: 'refused'; reason: 'too-long'; chars: number; max: number };

/**
 * A dispute is about the game's latest edict, within the dispute window from the publication of
 * its latest version, while it can still be amended (D-PRESS-14).
 */
export function decideDispute(part: DisputePart, f: DisputeFacts): DisputeDecision {
  const e = f.latestEdict;
  if (!e) return { kind: 'refused', reason: 'no-edict' };
  const endedAt = disputeWindowEnd(f, e.publishedAt);
  if (f.receivedAt > endedAt) return { kind: 'refused', reason: 'window-closed', turn: e.turn, endedAt };
  if (!f.nextTurnOpen) return { kind: 'refused', reason: 'edict-final', turn: e.turn };
  if (f.earlier >= MAX_DISPUTES_PER_TURN) return { kind: 'refused', reason: 'too-many-disputes', max: MAX_DISPUTES_PER_TURN };
  const chars = codePoints(part.text);
  if (chars > f.maxChars) return { kind: 'refused', reason: 'too-long', chars, max: f.maxChars };
  return { kind: 'taken', turn: e.turn, version: e.version };
}
