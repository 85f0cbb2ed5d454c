// What the games service needs from around it: who is acting, mail addressing, a clock, and
// (for tests) where secrets come from.
import { newSecret, secretTaken } from '../db/players.ts';
import type { Db } from '../db/client.ts';
import type { MailAddressing } from './welcome.ts';

export interface GamesContext {
  /** Who makes the change, for the audit log: `cli:<user>`, `referee:<name>`. */
  actor: string;
  mail: MailAddressing;
  now?: () => Date;
  newSecret?: () => string;
  /** PUBLIC_URL: links in mail (an observer's unsubscribe link). */
  publicUrl?: string;
  /** OPERATOR_ADDRESS: where a game with no referee sends its disputes (D-PRESS-17); unset: they wait for the first referee. */
  operatorAddress?: string;
  /** LATE_CLOSE_MARGIN_MINUTES: a turn closed later than this after its deadline is closed late. */
  lateCloseMarginMs?: number;
}

/** A secret no player anywhere has yet (the unique index is the last word; this avoids tripping it). */
export async function freshSecret(tx: Db, ctx: GamesContext, alsoTaken: ReadonlySet<string> = new Set()): Promise<string> {
  const make = ctx.newSecret ?? newSecret;
  for (let i = 0; i < 5; i++) {
    const s = make();
    if (!alsoTaken.has(s.toLowerCase()) && !(await secretTaken(tx, s))) return s;
  }
  throw new Error('could not find an unused secret in 5 tries');
}
