// The public status of a game: turn, deadline and who has sent orders — never what they sent
// (sheets stay secret until the deadline).
import type { FastifyInstance } from 'fastify';
import { sideName } from '../adjudicator/render/vocabulary.ts';
import { findGame } from '../db/games.ts';
import { findTurn } from '../db/turns.ts';
import { boardFor, ordersReceivedByFaction } from '../games/index.ts';
import { escapeHtml, page } from './html.ts';

const GAME_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;

export async function statusRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { game: string } }>('/games/:game/status', async (req, reply) => {
    // Game ids are slugs: anything else names no game, and is not worth a query.
    if (!GAME_ID.test(req.params.game)) return reply.code(404).send({ error: 'no such game' });
    const game = await findGame(app.db, req.params.game);
    if (!game) return reply.code(404).send({ error: 'no such game' });
    const turn = await findTurn(app.db, game.id, game.currentTurn);
    const factions = turn?.state.factions ?? [];
    const received = turn ? await ordersReceivedByFaction(app.db, game.id, turn.number, factions) : {};
    const data = {
      game: game.id,
      name: game.name,
      turn: game.currentTurn,
      deadline: turn?.deadline.toISOString() ?? null,
      chancellor: turn?.state.chancellor ?? null,
      election: turn ? turn.number === 1 || turn.state.election : false,
      ordersReceived: received,
    };
    if (!req.headers.accept?.includes('text/html')) return reply.send(data);
    const board = boardFor(game.map);
    const rows = Object.entries(received)
      .map(([f, s]) => `<tr><td>${escapeHtml(sideName(board, f, 'en'))}</td><td>${escapeHtml(s)}</td></tr>`)
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          `${game.name} — turn ${data.turn}`,
          `<h1>${escapeHtml(game.name)}</h1><p>Turn ${data.turn}; deadline ${escapeHtml(data.deadline ?? '—')}</p>` +
            `<table><tr><th>Faction</th><th>Orders</th></tr>${rows}</table>`,
        ),
      );
  });
}
