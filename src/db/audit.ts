// The audit log: every change a person made, written by the same transaction as the change.
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { auditLog } from './schema.ts';

export type AuditEntry = typeof auditLog.$inferSelect;

export interface AuditInput {
  /** Who: `cli:<user>`, `referee:<name>`, … */
  actor: string;
  gameId: string | null;
  /** Dotted verb: `game.create`, `game.join`, `edict.amend`, … */
  action: string;
  detail: Record<string, unknown>;
}

export async function recordAudit(db: Db, entry: AuditInput): Promise<AuditEntry> {
  const [row] = await db.insert(auditLog).values(entry).returning();
  return row!;
}

/** Newest first. */
export async function listAudit(db: Db, filter: { gameId?: string; action?: string; limit?: number } = {}): Promise<AuditEntry[]> {
  const where: SQL[] = [];
  if (filter.gameId !== undefined) where.push(eq(auditLog.gameId, filter.gameId));
  if (filter.action !== undefined) where.push(eq(auditLog.action, filter.action));
  return db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(filter.limit ?? 100);
}

/** How many of a game's audit entries are one of `actions` (e.g. every time its deadlines moved). */
export async function countAudit(db: Db, gameId: string, actions: readonly string[]): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.gameId, gameId), inArray(auditLog.action, [...actions])));
  return row?.n ?? 0;
}
