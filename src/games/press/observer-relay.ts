// Observers' copies of a message to everyone (docs/press.md §4.3): when the game's press setting
// `observers` is `broadcasts`, each active observer gets each broadcast by mail in their language,
// with a one-click unsubscribe (as their edicts have) and no Reply-To: an observer cannot write
// into the game, and a reply reaches the service's bare address, which applies nothing without a
// secret. An anonymous writer is named to nobody (D-PRESS-10); the copies are queued with the
// players' relays, so they share the message's random delay.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { Db } from '../../db/client.ts';
import type { Game } from '../../db/games.ts';
import { activeObservers, type Observer } from '../../db/observers.ts';
import type { OutboxInput } from '../../db/outbox.ts';
import { relayDedupeKey, type NewRecipient } from '../../db/press.ts';
import { pressTexts } from '../../text/press.ts';
import { gameMail, type MailAddressing } from '../game-mail.ts';
import { pressSettingsOf } from './settings.ts';

export interface ObserverRelayFacts {
  game: Game;
  board: Board;
  messageId: number;
  /** The writer's faction when signed; null when anonymous (never looked up again here). */
  writerFaction: string | null;
  /** A referee's message: signed "Referee". */
  byReferee?: boolean;
  text: string;
}

/**
 * One mail and one recipient row (kind `observer`) per active observer, or nothing when the game
 * does not send broadcasts to observers or there is no PUBLIC_URL for the unsubscribe link.
 */
export async function observerRelays(
  db: Db,
  deps: { mail: MailAddressing; publicUrl?: string | undefined },
  f: ObserverRelayFacts,
  /** The game's active observers when read already (a batch reads them once). */
  known?: readonly Observer[],
): Promise<Array<{ mail: OutboxInput; row: NewRecipient }>> {
  if (!deps.publicUrl || pressSettingsOf(f.game.pressSettings).observers !== 'broadcasts') return [];
  const base = deps.publicUrl.replace(/\/+$/, '');
  return (known ?? (await activeObservers(db, f.game.id))).map((o) => {
    const T = pressTexts[o.lang];
    const link = `${base}/unsubscribe/${o.token}`;
    const from = f.byReferee ? T.referee : f.writerFaction ? sideName(f.board, f.writerFaction, o.lang) : null;
    const m = T.observerBroadcast({
      game: f.game.id,
      gameName: f.game.name,
      from,
      text: f.text,
      turn: f.game.currentTurn,
      unsubscribe: link,
    });
    const recipient = { kind: 'observer' as const, id: o.id };
    return {
      mail: gameMail(deps.mail, {
        kind: 'press-observer',
        gameId: f.game.id,
        to: o.email,
        // No Reply-To: nothing an observer writes is relayed.
        replySecret: null,
        subject: m.subject,
        text: m.text,
        headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        dedupeKey: relayDedupeKey(f.messageId, recipient),
      }),
      row: { messageId: f.messageId, ...recipient, address: o.email, delivery: 'immediate' },
    };
  });
}
