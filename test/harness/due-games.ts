// Games whose turn 1 is already due, for tests of the service at a deadline: `count` games of 4 to
// 8 players (English and Italian alternating), created ten days ago in a PostgreSQL database (a
// URL) or an embedded one (`{ pgliteDir }`); with `votes`, every player but the first has a vote in.
import { reviewSheet } from '../../src/adjudicator/review.ts';
import { openDatabase } from '../../src/db/client.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { createGame } from '../../src/games/index.ts';
import { boardFor } from '../../src/games/input.ts';

export async function dueGames(
  where: string | { pgliteDir: string },
  o: { count: number; name: string; domain: string; votes?: boolean },
): Promise<{ players: number }> {
  const created = new Date(Date.now() - 10 * 24 * 3_600_000);
  let players = 0;
  const setup = await openDatabase({
    database: typeof where === 'string' ? { kind: 'postgres', url: where } : { kind: 'pglite', dataDir: where.pgliteDir },
  });
  try {
    for (let g = 0; g < o.count; g++) {
      const n = 4 + (g % 5);
      const {
        game,
        turn,
        players: ps,
      } = await createGame(
        setup.db,
        {
          name: `${o.name} ${g}`,
          players: Array.from({ length: n }, (_, i) => ({ email: `p${i}@g${g}.example`, lang: i % 2 ? 'it' : 'en' })),
          timeZone: 'Europe/Rome',
          weeklyDeadline: 'sun 20:00',
        },
        { actor: 'test', mail: { domain: o.domain, ordersLocalPart: 'orders' }, now: () => created },
      );
      players += n;
      if (!o.votes) continue;
      for (const p of ps.slice(1)) {
        const text = `V: ${ps[(g + p.id) % n]!.faction}`;
        const review = reviewSheet(boardFor('classic'), turn.state, p.faction, text);
        await addSheetVersion(setup.db, {
          gameId: game.id,
          turn: 1,
          faction: p.faction,
          text,
          parsed: {},
          status: review.status,
          receivedAt: created,
          inboundId: null,
        });
      }
    }
  } finally {
    await setup.close();
  }
  return { players };
}
