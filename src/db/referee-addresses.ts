// The addresses of games' referees: what players' mail names as the referee to tell.
// Apart from src/referee (accounts, passwords) so that intake reads them without loading argon2.
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from './client.ts';
import { gameReferees, referees } from './schema.ts';

export async function refereeAddressesOf(db: Db, gameIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (gameIds.length === 0) return out;
  const rows = await db
    .select({ gameId: gameReferees.gameId, email: referees.email })
    .from(gameReferees)
    .innerJoin(referees, eq(referees.id, gameReferees.refereeId))
    .where(inArray(gameReferees.gameId, [...new Set(gameIds)]))
    .orderBy(asc(referees.email));
  for (const r of rows) out.set(r.gameId, [...(out.get(r.gameId) ?? []), r.email]);
  return out;
}

/** The referees of these games, with their ids: who may answer a press conversation by token. */
export async function refereesOfGames(db: Db, gameIds: readonly string[]): Promise<Array<{ gameId: string; id: number; email: string }>> {
  if (gameIds.length === 0) return [];
  return db
    .select({ gameId: gameReferees.gameId, id: referees.id, email: referees.email })
    .from(gameReferees)
    .innerJoin(referees, eq(referees.id, gameReferees.refereeId))
    .where(inArray(gameReferees.gameId, [...new Set(gameIds)]))
    .orderBy(asc(referees.id));
}
