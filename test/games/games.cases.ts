// The games service, run on PGlite (games.test.ts) and on PostgreSQL (games.int.test.ts).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/db/audit.ts';
import type { Database } from '../../src/db/client.ts';
import { findGame } from '../../src/db/games.ts';
import { listOutbox } from '../../src/db/outbox.ts';
import { findBySecret, listPlayers } from '../../src/db/players.ts';
import { auditLog, games, outbox, players, turns } from '../../src/db/schema.ts';
import { findTurn } from '../../src/db/turns.ts';
import { createGame, GameError, joinGame, type CreateGameInput, type GamesContext } from '../../src/games/index.ts';

// Thursday 20 March 2025, 11:00 in Rome: the first Sunday 20:00 a day or more away is the 23rd.
const NOW = new Date('2025-03-20T10:00:00Z');
export const ctx: GamesContext = { actor: 'cli:test', mail: { domain: 'sf.test', ordersLocalPart: 'orders' }, now: () => NOW };

export const gameInput = (name: string, n = 4): CreateGameInput => ({
  name,
  players: Array.from({ length: n }, (_, i) => ({ email: `P${i + 1}@Example.com`, lang: i === 1 ? 'en' : 'it' })),
  timeZone: 'Europe/Rome',
  weeklyDeadline: 'sun 20:00',
});

const SECRET = /^[2-9a-hj-km-np-zA-HJ-KM-NP-Z]{4}-[2-9a-hj-km-np-zA-HJ-KM-NP-Z]{4}$/;

async function count(db: Database['db'], gameId: string) {
  return {
    games: (await db.select().from(games).where(eq(games.id, gameId))).length,
    players: (await db.select().from(players).where(eq(players.gameId, gameId))).length,
    turns: (await db.select().from(turns).where(eq(turns.gameId, gameId))).length,
    outbox: (await db.select().from(outbox).where(eq(outbox.gameId, gameId))).length,
    audit: (await db.select().from(auditLog).where(eq(auditLog.gameId, gameId))).length,
  };
}

export function gamesCases(open: () => Promise<Database>): void {
  let database: Database;
  let db: Database['db'];
  beforeAll(async () => {
    database = await open();
    db = database.db;
  }, 60_000); // starting PGlite takes seconds, more on a busy machine
  afterAll(async () => {
    await database?.close();
  });

  describe('createGame', () => {
    it('creates the game, its players in R-SETUP-1 order, turn 1 and a welcome mail each', async () => {
      const { game, turn, players: ps } = await createGame(db, { ...gameInput('Andròmeda 2025!'), declarationLeadMinutes: 60 }, ctx);
      expect(game).toMatchObject({ id: 'andromeda-2025', name: 'Andròmeda 2025!', map: 'classic', status: 'active', currentTurn: 1 });
      expect(game).toMatchObject({
        victoryPlanets: 12,
        lastTurn: null,
        nmrHostility: 'keep',
        reminderMinutes: [1440, 120],
        weeklyDeadline: 'sun 20:00',
      });
      expect(ps.map((p) => [p.faction, p.email, p.lang, p.joinedTurn])).toEqual([
        ['hutt', 'p1@example.com', 'it', 1],
        ['aristocrats', 'p2@example.com', 'en', 1],
        ['sith', 'p3@example.com', 'it', 1],
        ['knights', 'p4@example.com', 'it', 1],
      ]);

      // R-TURN-1, R-SETUP-2: an election with no Chancellor, 3 units per faction.
      expect(turn).toMatchObject({ number: 1, election: true, status: 'open' });
      expect(turn.deadline).toEqual(new Date('2025-03-23T19:00:00Z'));
      expect(turn.declarationDeadline).toEqual(new Date('2025-03-23T18:00:00Z'));
      const stored = await findTurn(db, game.id, 1);
      expect(stored?.state).toMatchObject({ gameId: game.id, turn: 1, chancellor: null, election: true, joining: [] });
      expect(stored?.state.factions).toEqual(['hutt', 'aristocrats', 'sith', 'knights']);
      expect(stored?.state.units).toHaveLength(12);
      expect(stored?.state.units.filter((u) => u.side === 'hutt').map((u) => u.at)).toEqual(['B2', 'B1', 'A2']);
      expect(stored?.state.settings).toEqual({ victoryPlanets: 12, nmrHostility: 'keep', lastTurn: null });

      const mails = await listOutbox(db, { gameId: game.id, kind: 'welcome' });
      expect(mails.map((m) => m.toAddress)).toEqual(ps.map((p) => p.email));
      expect(mails.map((m) => m.dedupeKey)).toEqual(ps.map((p) => `welcome:${p.id}`));
      expect(mails.every((m) => m.status === 'pending' && m.messageId.endsWith('@sf.test'))).toBe(true);

      const [audit] = await listAudit(db, { gameId: game.id, action: 'game.create' });
      expect(audit).toMatchObject({ actor: 'cli:test', detail: { name: 'Andròmeda 2025!', timeZone: 'Europe/Rome' } });
      for (const p of ps) expect(JSON.stringify(audit?.detail)).not.toContain(p.secret);
    });

    it('gives every player a unique secret shaped like k7Q2-x9Pm', async () => {
      const { players: ps } = await createGame(db, gameInput('Secrets', 8), ctx);
      expect(ps.every((p) => SECRET.test(p.secret))).toBe(true);
      expect(new Set(ps.map((p) => p.secret.toLowerCase())).size).toBe(8);
      expect((await findBySecret(db, ps[7]!.secret))?.faction).toBe('founders');
    });

    it('writes the welcome mail in the player’s language, with their address and deadline', async () => {
      const { game, players: ps } = await createGame(db, gameInput('Welcome'), ctx);
      const [it1, en2] = await listOutbox(db, { gameId: game.id, kind: 'welcome' });
      const [hutt, aristocrats] = ps;
      expect(it1!.subject).toBe('[SF welcome] Welcome: la tua fazione è Hutt');
      expect(it1!.replyTo).toBe(`orders+${hutt!.secret}@sf.test`);
      expect(it1!.bodyText).toContain(`orders+${hutt!.secret}@sf.test`);
      expect(it1!.bodyText).toContain(`Code: ${hutt!.secret}`);
      expect(it1!.bodyText).toContain('Tatooine (B2), con i pianeti di sistema B1, A2');
      expect(it1!.bodyText).toContain('domenica 23 marzo 2025 alle ore 20:00 CET (Europe/Rome)');
      expect(it1!.bodyText).toContain('ogni domenica alle 20:00 (Europe/Rome)');
      expect(en2!.subject).toBe('[SF welcome] Welcome to Welcome: you are the Aristocrats');
      expect(en2!.bodyText).toContain('Naboo (G7), with the system planets G6, F7');
      expect(en2!.bodyText).toContain('Sunday, 23 March 2025 at 20:00 CET (Europe/Rome)');
      expect(en2!.bodyText).toContain(`Code: ${aristocrats!.secret}`);
      expect(en2!.bodyText).not.toMatch(/\{\{/);
      // Every command a player may send, and (turn 1) that it is only the election.
      for (const command of ['STATUS', 'HELP', 'ABSENCE 1/4 10/4']) expect(en2!.bodyText).toContain(`\n  ${command} `);
      for (const command of ['STATO', 'AIUTO', 'ASSENZA 1/4 10/4']) expect(it1!.bodyText).toContain(`\n  ${command} `);
      expect(en2!.bodyText).toContain('Turn 1 is only the election of the first Chancellor');
      // No PUBLIC_URL known: no link to the game's page.
      expect(en2!.bodyText).not.toContain('/games/');
    });

    it('links to the game’s page when PUBLIC_URL is known', async () => {
      const { game } = await createGame(db, gameInput('Linked'), { ...ctx, publicUrl: 'https://sf.example.org/' });
      const [it1, en2] = await listOutbox(db, { gameId: game.id, kind: 'welcome' });
      expect(it1!.bodyText).toContain('LA PAGINA DELLA PARTITA\n  https://sf.example.org/games/linked\n');
      expect(en2!.bodyText).toContain("THE GAME'S PAGE\n  https://sf.example.org/games/linked\n");
    });

    it('shows a player’s deadline in their own time zone', async () => {
      const input = gameInput('Zones');
      input.players[1] = { email: 'ny@example.com', lang: 'en', timeZone: 'America/New_York' };
      const { game } = await createGame(db, input, ctx);
      const [, ny] = await listOutbox(db, { gameId: game.id, kind: 'welcome' });
      // 23 March: New York is already on summer time, Rome not yet.
      expect(ny!.bodyText).toContain('Sunday, 23 March 2025 at 15:00 GMT-4 (America/New_York)');
      // The weekly deadline on the same clock, not the game's: no second zone to convert from.
      expect(ny!.bodyText).toContain('every Sunday at 15:00 (America/New_York)');
      expect(ny!.bodyText).not.toContain('at 20:00 (Europe/Rome)');
      expect(ny!.bodyText).toContain('The game keeps the clock of Europe/Rome');
    });

    it('leaves nothing behind when it fails half-way', async () => {
      const stuck = { ...ctx, newSecret: () => 'aaaa-aaaa' }; // the second player can get no secret
      await expect(createGame(db, gameInput('Half Way'), stuck)).rejects.toThrow(/secret/);
      expect(await count(db, 'half-way')).toEqual({ games: 0, players: 0, turns: 0, outbox: 0, audit: 0 });
      expect(await findGame(db, 'half-way')).toBeNull();
    });

    it('refuses a name that is taken, too few or too many players, and bad settings', async () => {
      await createGame(db, gameInput('Taken'), ctx);
      const refused = async (input: CreateGameInput) => {
        const err = await createGame(db, input, ctx).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(GameError);
        return err as GameError;
      };
      expect((await refused(gameInput('taken'))).code).toBe('game-exists');
      expect((await refused(gameInput('Three', 3))).message).toMatch(/R-SETUP-5/);
      expect((await refused(gameInput('Nine', 9))).message).toMatch(/at most 8/);
      expect((await refused({ ...gameInput('Zone'), timeZone: 'Mars/Olympus' })).field).toBe('timeZone');
      expect((await refused({ ...gameInput('Day'), weeklyDeadline: 'someday 20:00' })).field).toBe('weeklyDeadline');
      const twice = gameInput('Twice');
      twice.players[3] = { email: 'p1@example.com' };
      expect((await refused(twice)).message).toMatch(/listed twice/);
      expect((await refused({ ...gameInput('!!!') })).field).toBe('name');
      expect(await count(db, 'three')).toMatchObject({ games: 0 });
    });
  });

  describe('joinGame (R-SETUP-4)', () => {
    it('gives the 5th player the Merchants, entering next turn, listed in the open turn’s `joining`', async () => {
      const { game } = await createGame(db, gameInput('Late'), ctx);
      const { player, firstDeadline } = await joinGame(db, { gameId: game.id, email: 'Late@Example.com', lang: 'en' }, ctx);
      expect(player).toMatchObject({ faction: 'merchants', email: 'late@example.com', lang: 'en', joinedTurn: 2 });
      expect(firstDeadline).toEqual(new Date('2025-03-30T18:00:00Z')); // a week on, summer time
      const turn = await findTurn(db, game.id, 1);
      expect(turn?.state.joining).toEqual(['merchants']);
      expect(turn?.state.factions).toEqual(['hutt', 'aristocrats', 'sith', 'knights']);
      const welcome = (await listOutbox(db, { gameId: game.id, kind: 'welcome' })).at(-1)!;
      expect(welcome.toAddress).toBe('late@example.com');
      expect(welcome.bodyText).toContain('Your first turn is turn 2');
      expect(welcome.bodyText).toContain('Siwenna (T12)');
      expect(welcome.bodyText).toContain('Sunday, 30 March 2025 at 20:00 CEST (Europe/Rome)');
      expect(welcome.bodyText).not.toContain('Turn 1 is only'); // a late joiner never plays turn 1
      const [audit] = await listAudit(db, { gameId: game.id, action: 'game.join' });
      expect(audit).toMatchObject({ actor: 'cli:test', detail: { faction: 'merchants', joinedTurn: 2 } });

      const sixth = await joinGame(db, { gameId: game.id, email: 'six@example.com' }, ctx);
      expect(sixth.player.faction).toBe('corellians');
      expect((await findTurn(db, game.id, 1))?.state.joining).toEqual(['merchants', 'corellians']);
    });

    it('refuses a full game, a player already in it and a game that does not exist', async () => {
      const { game } = await createGame(db, gameInput('Full', 8), ctx);
      const code = (p: Promise<unknown>) =>
        p.then(
          () => 'joined',
          (e: GameError) => e.code,
        );
      expect(await code(joinGame(db, { gameId: game.id, email: 'ninth@example.com' }, ctx))).toBe('game-full');
      expect(await code(joinGame(db, { gameId: 'late', email: 'P1@example.com' }, ctx))).toBe('already-playing');
      expect(await code(joinGame(db, { gameId: 'nowhere', email: 'x@example.com' }, ctx))).toBe('no-game');
      expect((await listPlayers(db, game.id)).length).toBe(8);
    });
  });
}
