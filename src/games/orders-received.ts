// "Orders received" for each player and turn, one model for acknowledgements, STATUS, reminders
// and the status page: none / received with problems / valid (the newest version decides, R-TURN-4).
import { latestSheet, latestSheets, type Sheet } from '../db/sheets.ts';
import type { Db } from '../db/client.ts';

// The type is named beside its words (src/text/web.ts), which every layer above may read.
import type { OrdersReceived } from '../text/web.ts';

export type { OrdersReceived };

export function ordersReceivedOf(sheet: Pick<Sheet, 'status'> | null): OrdersReceived {
  return sheet === null ? 'none' : sheet.status;
}

export async function ordersReceived(db: Db, gameId: string, turn: number, faction: string): Promise<OrdersReceived> {
  return ordersReceivedOf(await latestSheet(db, gameId, turn, faction));
}

/** Every faction of a turn; factions that sent nothing are 'none'. */
export async function ordersReceivedByFaction(
  db: Db,
  gameId: string,
  turn: number,
  factions: readonly string[],
): Promise<Record<string, OrdersReceived>> {
  const latest = new Map((await latestSheets(db, gameId, turn)).map((s) => [s.faction, s]));
  return Object.fromEntries(factions.map((f) => [f, ordersReceivedOf(latest.get(f) ?? null)]));
}
