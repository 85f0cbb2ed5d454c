// Players: who plays which faction, how to write to them, and the secret that names them. A
// player writes from any of their addresses (player_addresses) and is written to at the primary
// one, players.email (D-SEAT-3). A removed player's row stays as the vacant seat (D-SEAT-1) with
// no address, and neither the secret nor an address names anyone any more.
import { randomInt } from 'node:crypto';
import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { playerAddresses, players, referees, seatHistory } from './schema.ts';

export type Player = typeof players.$inferSelect;
export type NewPlayer = typeof players.$inferInsert;
export type SeatHistoryEntry = typeof seatHistory.$inferSelect;
/** A player with every address they may write from, the primary (players.email) first. */
export type PlayerWithAddresses = Player & { addresses: string[] };

const seated = isNull(players.removedAt);
const lower = (email: string) => email.trim().toLowerCase();

// No 0/o, 1/i/l: a secret is read from a screen and sometimes typed by hand. Letters appear in both
// cases for the look (`k7Q2-x9Pm`) but matching ignores case, because mail servers may fold it.
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

/** A fresh secret like `k7Q2-x9Pm`: 8 characters from the alphabet above, about 40 bits. */
export function newSecret(): string {
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === 4) out += '-';
    const ch = ALPHABET[randomInt(ALPHABET.length)]!;
    out += randomInt(2) ? ch.toUpperCase() : ch;
  }
  return out;
}

/** A new player and their primary address, together. */
export async function insertPlayer(db: Db, player: NewPlayer): Promise<Player> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(players)
      .values({ ...player, email: player.email.toLowerCase() })
      .returning();
    await tx.insert(playerAddresses).values({ gameId: row!.gameId, playerId: row!.id, email: row!.email });
    return row!;
  });
}

/** Case-insensitive, as the unique index `players_secret_lower` is. Removed players too: a secret is never given twice. */
export async function findBySecret(db: Db, secret: string): Promise<Player | null> {
  const [row] = await db
    .select()
    .from(players)
    .where(eq(sql`lower(${players.secret})`, secret.trim().toLowerCase()));
  return row ?? null;
}

export async function secretTaken(db: Db, secret: string): Promise<boolean> {
  return (await findBySecret(db, secret)) !== null;
}

/** The player of a game who writes from this address (any of theirs). */
export async function findByEmail(db: Db, gameId: string, email: string): Promise<Player | null> {
  const [row] = await db
    .select(getTableColumns(players))
    .from(players)
    .innerJoin(playerAddresses, eq(playerAddresses.playerId, players.id))
    .where(and(eq(playerAddresses.gameId, gameId), eq(playerAddresses.email, lower(email)), seated));
  return row ?? null;
}

/**
 * Every address of a player, the primary first: all of them in one array, so a batch load stays one
 * query. Spelled out because Drizzle leaves column names unqualified in a one-table select, and
 * `players.id` would then mean the subquery's own id.
 */
const addressesColumn = sql<
  string[]
>`array(select pa.email from player_addresses pa where pa.player_id = "players"."id" order by pa.email <> "players"."email", pa.id)`;

/**
 * Everyone a batch of mail may concern, with their addresses: the owners of these secrets,
 * whoever writes from these addresses (in any game), and every player of the secrets' games (the
 * Chancellor's sheet goes to all of them). Removed players are nobody (D-SEAT-2).
 */
export async function playersForMail(
  db: Db,
  clues: { secrets: string[]; emails: string[]; gameIds?: string[] },
): Promise<PlayerWithAddresses[]> {
  const secrets = [...new Set(clues.secrets.map((s) => s.trim().toLowerCase()))];
  const emails = [...new Set(clues.emails.map(lower))];
  const gameIds = [...new Set(clues.gameIds ?? [])];
  if (secrets.length === 0 && emails.length === 0 && gameIds.length === 0) return [];
  const bySecret = and(seated, inArray(sql`lower(${players.secret})`, secrets.length ? secrets : ['']));
  const gamesOfSecrets = db.select({ gameId: players.gameId }).from(players).where(bySecret);
  const writers = db
    .select({ id: playerAddresses.playerId })
    .from(playerAddresses)
    .where(inArray(playerAddresses.email, emails.length ? emails : ['']));
  const rows = await db
    .select({ ...getTableColumns(players), addresses: addressesColumn })
    .from(players)
    .where(
      and(
        seated,
        or(
          bySecret,
          emails.length ? inArray(players.id, writers) : undefined,
          inArray(players.gameId, gamesOfSecrets),
          gameIds.length ? inArray(players.gameId, gameIds) : undefined,
        ),
      ),
    )
    .orderBy(asc(players.id));
  return rows;
}

export async function findPlayer(db: Db, id: number): Promise<Player | null> {
  const [row] = await db.select().from(players).where(eq(players.id, id));
  return row ?? null;
}

/**
 * The players of a game in the order they joined (R-SETUP-1 order, since factions are taken in
 * it): those still seated, who get the game's mail. Vacant seats are in listSeats.
 */
export async function listPlayers(db: Db, gameId: string): Promise<Player[]> {
  return db
    .select()
    .from(players)
    .where(and(eq(players.gameId, gameId), seated))
    .orderBy(asc(players.id));
}

/** Every seat of a game, vacant ones (removed players, D-SEAT-1) included: the factions taken. */
export async function listSeats(db: Db, gameId: string): Promise<Player[]> {
  return db.select().from(players).where(eq(players.gameId, gameId)).orderBy(asc(players.id));
}

/** Which of these addresses are a player's, in any game (lower case): whose mail is worth reading. */
export async function registeredAddresses(db: Db, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map(lower))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ email: playerAddresses.email })
    .from(playerAddresses)
    .where(inArray(playerAddresses.email, wanted));
  return new Set(rows.map((r) => r.email));
}

/**
 * Which of these addresses (lower case) are a player's or a referee's: whose mail intake reads
 * whole (a referee answers a player's message to the referees by replying to it). One query.
 */
export async function readableSenders(db: Db, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map(lower))];
  if (wanted.length === 0) return new Set();
  const refereeEmail = sql<string>`lower(${referees.email})`;
  const rows = await db
    .selectDistinct({ email: playerAddresses.email })
    .from(playerAddresses)
    .where(inArray(playerAddresses.email, wanted))
    .union(db.selectDistinct({ email: refereeEmail }).from(referees).where(inArray(refereeEmail, wanted)));
  return new Set(rows.map((r) => r.email));
}

/** Every address of every player of a game, by player id, the primary first. */
export async function addressesOfGame(db: Db, gameId: string): Promise<Map<number, string[]>> {
  const rows = await db
    .select({
      playerId: playerAddresses.playerId,
      email: playerAddresses.email,
      primary: sql<boolean>`${playerAddresses.email} = ${players.email}`,
    })
    .from(playerAddresses)
    .innerJoin(players, eq(players.id, playerAddresses.playerId))
    .where(eq(playerAddresses.gameId, gameId))
    .orderBy(asc(playerAddresses.id));
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(r.playerId) ?? [];
    if (r.primary) list.unshift(r.email);
    else list.push(r.email);
    out.set(r.playerId, list);
  }
  return out;
}

/** Another address for a player; null when someone in the game already writes from it. */
export async function addAddress(db: Db, player: Pick<Player, 'id' | 'gameId'>, email: string): Promise<string | null> {
  const [row] = await db
    .insert(playerAddresses)
    .values({ gameId: player.gameId, playerId: player.id, email: lower(email) })
    .onConflictDoNothing({ target: [playerAddresses.gameId, playerAddresses.email] })
    .returning();
  return row?.email ?? null;
}

/** Forgets one of a player's addresses; false when it was not theirs. */
export async function removeAddress(db: Db, playerId: number, email: string): Promise<boolean> {
  const rows = await db
    .delete(playerAddresses)
    .where(and(eq(playerAddresses.playerId, playerId), eq(playerAddresses.email, lower(email))))
    .returning({ id: playerAddresses.id });
  return rows.length > 0;
}

/** Forgets every address of a player (removed or replaced): none of them names anyone in the game any more. */
export async function releaseAddresses(db: Db, playerId: number): Promise<string[]> {
  const rows = await db.delete(playerAddresses).where(eq(playerAddresses.playerId, playerId)).returning({ email: playerAddresses.email });
  return rows.map((r) => r.email);
}

/** Who sat in a seat for which turns, written as they leave it (removed or replaced). */
export async function recordSeatHistory(db: Db, entry: typeof seatHistory.$inferInsert): Promise<void> {
  await db.insert(seatHistory).values(entry);
}

export async function seatHistoryOf(db: Db, gameId: string): Promise<SeatHistoryEntry[]> {
  return db.select().from(seatHistory).where(eq(seatHistory.gameId, gameId));
}

/** A substitute takes the seat (the row keeps its faction, units and sheets): their address, language and secret. */
export async function seatPlayer(
  db: Db,
  playerId: number,
  who: Pick<Player, 'email' | 'displayName' | 'lang' | 'timeZone' | 'secret' | 'joinedTurn'>,
): Promise<Player> {
  const [row] = await db
    .update(players)
    .set({ ...who, removedAt: null })
    .where(eq(players.id, playerId))
    .returning();
  return row!;
}

/** The seat stays, vacant since `at` (D-SEAT-1). */
export async function vacateSeat(db: Db, playerId: number, at: Date): Promise<Player> {
  const [row] = await db.update(players).set({ removedAt: at }).where(eq(players.id, playerId)).returning();
  return row!;
}

/** The address every mail to the player goes to (D-SEAT-3); it must be one of theirs already. */
export async function setPrimaryAddress(db: Db, playerId: number, email: string): Promise<Player> {
  const [row] = await db.update(players).set({ email }).where(eq(players.id, playerId)).returning();
  return row!;
}

/** The turn these factions' players joined, moved (a roll-back removes the turn they were to enter with). */
export async function setJoinedTurn(db: Db, gameId: string, factions: readonly string[], turn: number): Promise<void> {
  await db
    .update(players)
    .set({ joinedTurn: turn })
    .where(and(eq(players.gameId, gameId), inArray(players.faction, [...factions])));
}
