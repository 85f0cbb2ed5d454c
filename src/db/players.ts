// Players: who plays which faction, how to write to them, and the secret that names them.
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { players } from './schema.ts';

export type Player = typeof players.$inferSelect;
export type NewPlayer = typeof players.$inferInsert;

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

export async function insertPlayer(db: Db, player: NewPlayer): Promise<Player> {
  const [row] = await db
    .insert(players)
    .values({ ...player, email: player.email.toLowerCase() })
    .returning();
  return row!;
}

/** Case-insensitive, as the unique index `players_secret_lower` is. */
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

export async function findByEmail(db: Db, gameId: string, email: string): Promise<Player | null> {
  const [row] = await db
    .select()
    .from(players)
    .where(and(eq(players.gameId, gameId), eq(players.email, email.trim().toLowerCase())));
  return row ?? null;
}

/**
 * Everyone a batch of mail may concern: the owners of these secrets, whoever writes from these
 * addresses (in any game), and every player of the secrets' games (the Chancellor's sheet goes
 * to all of them).
 */
export async function playersForMail(db: Db, clues: { secrets: string[]; emails: string[] }): Promise<Player[]> {
  const secrets = [...new Set(clues.secrets.map((s) => s.trim().toLowerCase()))];
  const emails = [...new Set(clues.emails.map((e) => e.trim().toLowerCase()))];
  if (secrets.length === 0 && emails.length === 0) return [];
  const bySecret = inArray(sql`lower(${players.secret})`, secrets.length ? secrets : ['']);
  const gamesOfSecrets = db.select({ gameId: players.gameId }).from(players).where(bySecret);
  return db
    .select()
    .from(players)
    .where(or(bySecret, emails.length ? inArray(players.email, emails) : undefined, inArray(players.gameId, gamesOfSecrets)))
    .orderBy(asc(players.id));
}

export async function findPlayer(db: Db, id: number): Promise<Player | null> {
  const [row] = await db.select().from(players).where(eq(players.id, id));
  return row ?? null;
}

/** Players of a game in the order they joined (R-SETUP-1 order, since factions are taken in it). */
export async function listPlayers(db: Db, gameId: string): Promise<Player[]> {
  return db.select().from(players).where(eq(players.gameId, gameId)).orderBy(asc(players.id));
}

/** Which of these addresses are a player's, in any game (lower case): whose mail is worth reading. */
export async function registeredAddresses(db: Db, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  if (wanted.length === 0) return new Set();
  const rows = await db.selectDistinct({ email: players.email }).from(players).where(inArray(players.email, wanted));
  return new Set(rows.map((r) => r.email));
}
