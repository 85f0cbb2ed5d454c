// A conversation as its owner names it ("Hutt and Sith", "gli Hutt e i Sith", "everyone", "the referees"): how the warning
// of a forged reply says which one it was (D-PRESS-9) without naming an anonymous writer (D-PRESS-10).
import type { Board } from '../../adjudicator/map.ts';
import { sideNameAsObject } from '../../adjudicator/render/vocabulary.ts';
import type { Lang } from '../../adjudicator/types.ts';
import type { PressThread } from '../../db/press.ts';
import { pressTexts } from '../../text/press.ts';

export function conversationName(
  thread: Pick<PressThread, 'kind' | 'participants' | 'anonymous' | 'hiddenWriterPlayerId'>,
  owner: { id: number; faction: string; lang: Lang },
  board: Board,
): string {
  const T = pressTexts[owner.lang];
  if (thread.kind === 'referee') return T.referees;
  if (thread.kind === 'all') return T.everyone;
  const others = thread.participants.filter((x) => x !== owner.faction).map((x) => sideNameAsObject(board, x, owner.lang));
  // An anonymous conversation's writer is "anonymous" to all but themselves: never named.
  const hidden = thread.anonymous && thread.hiddenWriterPlayerId !== owner.id ? [T.anonymous.toLowerCase()] : [];
  return T.list([...hidden, ...others]);
}
