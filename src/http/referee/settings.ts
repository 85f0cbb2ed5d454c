// What the console's routes share, apart from the plugin that registers them: a leaf, so that
// the routes do not import their own plugin.
import type { MailAddressing } from '../../games/welcome.ts';
import type { HashingQueue } from '../../referee/hashing-queue.ts';
import type { ThrottlePolicy } from '../../referee/throttle.ts';

export interface ConsoleSettings {
  mail: MailAddressing;
  publicUrl?: string;
  cookie: { path: string; httpOnly: true; sameSite: 'strict'; secure: boolean | 'auto' };
  throttle: ThrottlePolicy;
  hashing: HashingQueue;
  /** How long a login refused before hashing (429, 503) is held before its answer (0: answered at once). */
  refusalDelayMs: number;
}

export const SESSION_COOKIE = 'sf_referee';
