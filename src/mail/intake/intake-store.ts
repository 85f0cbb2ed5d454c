// What deciding a batch of mail reads and writes, gathered in a constant number of queries: the
// reads are loaded up front for the whole batch (with the turn rows locked, so no sheet version
// can collide), the decisions are taken in memory one mail after the other — each one seeing the
// sheets and replies of the mails before it — and the writes go out in bulk at the end, in the
// same transaction. A batch of one is exactly the old one-mail-at-a-time path.
import { refereeAddressesOf, refereesOfGames } from '../../db/referee-addresses.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit, type AuditInput } from '../../db/audit.ts';
import { findGames, type Game } from '../../db/games.ts';
import { codeMisuseOf, markProcessedMany, type CodeMisuse, type InboundOutcome } from '../../db/inbound.ts';
import { countSentSince, enqueueMany, ownMessageIds, takenDedupeKeys, type OutboxInput } from '../../db/outbox.ts';
import { recordBounce } from '../../db/bounces.ts';
import { findTokens, type FoundToken } from '../../db/press.ts';
import type { Bounce } from './bounces.ts';
import { playersForMail, type PlayerWithAddresses } from '../../db/players.ts';
import { insertSheets, latestSheetsOf, type Sheet, type SheetInput } from '../../db/sheets.ts';
import { lockTurns, type Turn } from '../../db/turns.ts';

/** What identifies a mail's sender and game, read from the mail before the transaction. */
export interface MailClues {
  messageId: string | null;
  from: string | null;
  secret: string | null;
  gameTag: string | null;
  /** A press conversation's reply token, when the mail was sent to one. */
  pressToken?: string | null;
}

/** The newest sheet of a faction as the batch sees it (stored, or added earlier in this batch). */
export type SheetSummary = Pick<Sheet, 'version' | 'receivedAt' | 'text' | 'status' | 'inboundId'>;

export type AddedSheet = { ok: true; version: number; previousReceivedAt: Date | null } | { ok: false; reason: 'no-turn' | 'turn-closed' };

const bare = (messageId: string) => messageId.replace(/^<|>$/g, '');
const turnKey = (gameId: string, turn: number) => `${gameId}\u0000${turn}`;
const sheetKey = (gameId: string, turn: number, faction: string) => `${turnKey(gameId, turn)}\u0000${faction}`;

type Many = (tx: Db, inputs: unknown[]) => Promise<unknown[]>;
type LaterWork = { one: (tx: Db) => Promise<void> } | { many: Many; input: unknown; then: (r: unknown) => void };

export class IntakeStore {
  private readonly sheetsToAdd: Array<SheetInput & { version: number }> = [];
  private readonly mailToSend: OutboxInput[] = [];
  private readonly queuedKeys = new Set<string>();
  private readonly outcomes: Array<{ id: number; outcome: InboundOutcome }> = [];
  private readonly audits: AuditInput[] = [];
  private readonly laterWork: Array<LaterWork> = [];

  private constructor(
    private readonly own: Set<string>,
    private readonly playerList: PlayerWithAddresses[],
    private readonly gamesById: Map<string, Game>,
    private readonly turns: Map<string, Turn>,
    private readonly latest: Map<string, SheetSummary>,
    private readonly replies: Map<string, number>,
    private readonly misuse: Map<number, CodeMisuse>,
    private readonly answeredEchoes: Set<string>,
    private readonly referees: Map<string, string[]>,
    private readonly tokens: Map<string, FoundToken>,
    private readonly tokenReferees: Array<{ gameId: string; id: number; email: string }>,
  ) {}

  /** The addresses of a game's referees, for mail that tells a player to reach them. */
  refereesOf(gameId: string): string[] {
    return this.referees.get(gameId) ?? [];
  }

  /**
   * Loads what these mails may need, locking the current turn of every game a secret names.
   * `replyKinds` and `since`: the replies counted towards the hourly limit.
   */
  static async load(
    tx: Db,
    clues: MailClues[],
    replyKinds: readonly string[],
    since: Date,
    echoKeys: readonly string[] = [],
  ): Promise<IntakeStore> {
    // A week back is far enough to tell a player how often their code was tried since the last warning.
    const misuseSince = new Date(since.getTime() - 7 * 86_400_000);
    const secrets = clues.flatMap((c) => (c.secret ? [c.secret] : []));
    const emails = clues.flatMap((c) => (c.from ? [c.from] : []));
    const messageIds = clues.flatMap((c) => (c.messageId ? [bare(c.messageId)] : []));
    // One after the other: a transaction is one connection, which runs one query at a time anyway
    // (node-postgres deprecates queueing them on it).
    const own = await ownMessageIds(tx, messageIds);
    // A reply by token concerns its conversation's game: every seated player there may receive it.
    const tokens = await findTokens(
      tx,
      clues.flatMap((c) => (c.pressToken ? [c.pressToken] : [])),
    );
    const tokenGames = [...new Set([...tokens.values()].map((t) => t.thread.gameId))];
    const players = await playersForMail(tx, { secrets, emails, gameIds: tokenGames });
    const tags = clues.flatMap((c) => (c.gameTag ? [c.gameTag.toLowerCase()] : []));
    const gameList = await findGames(tx, [...players.map((p) => p.gameId), ...tags, ...tokenGames]);
    const gamesById = new Map(gameList.map((g) => [g.id, g]));
    // Only the games of secret owners can receive a sheet: their turns are the ones to lock.
    const secretSet = new Set(secrets.map((s) => s.trim().toLowerCase()));
    // Press replies read the turn too (whether press is open), so their games' turns are locked alike.
    const sheetGames = [
      ...new Set([...players.filter((p) => secretSet.has(p.secret.toLowerCase())).map((p) => p.gameId), ...tokenGames]),
    ].sort();
    const wanted = sheetGames.flatMap((id) => {
      const g = gamesById.get(id);
      return g ? [{ gameId: g.id, number: g.currentTurn }] : [];
    });
    const turnList = await lockTurns(tx, wanted);
    const tokenOwners = new Set([...tokens.values()].flatMap((t) => (t.ownerKind === 'player' ? [t.ownerId] : [])));
    const owners = players.filter((p) => secretSet.has(p.secret.toLowerCase()) || tokenOwners.has(p.id));
    const sheets = await latestSheetsOf(
      tx,
      turnList.flatMap((t) =>
        players.filter((p) => p.gameId === t.gameId).map((p) => ({ gameId: t.gameId, turn: t.number, faction: p.faction })),
      ),
    );
    // Replies go to a player's primary address (D-SEAT-3), so that is the one counted.
    const replies = await countSentSince(tx, [...new Set(players.map((p) => p.email))], replyKinds, since);
    const misuse = await codeMisuseOf(tx, owners, misuseSince);
    const echoes = await takenDedupeKeys(tx, echoKeys);
    const refereeAddresses = await refereeAddressesOf(
      tx,
      owners.map((p) => p.gameId),
    );
    return new IntakeStore(
      own,
      players,
      gamesById,
      new Map(turnList.map((t) => [turnKey(t.gameId, t.number), t])),
      new Map(sheets.map((s) => [sheetKey(s.gameId, s.turn, s.faction), s])),
      replies,
      misuse,
      echoes,
      refereeAddresses,
      tokens,
      [...tokens.values()].some((t) => t.ownerKind === 'referee') ? await refereesOfGames(tx, tokenGames) : [],
    );
  }

  // ---- reads --------------------------------------------------------------------------------

  isOwnMail(messageId: string): boolean {
    return this.own.has(bare(messageId));
  }

  /** Case-insensitive, as the unique index on secrets is. */
  playerBySecret(secret: string): PlayerWithAddresses | null {
    const s = secret.trim().toLowerCase();
    return this.playerList.find((p) => p.secret.toLowerCase() === s) ?? null;
  }

  /** Every game an address plays in, by game id: it may be any of a player's addresses. */
  playersByEmail(email: string): PlayerWithAddresses[] {
    const e = email.trim().toLowerCase();
    return this.playerList.filter((p) => p.addresses.includes(e)).sort((a, b) => (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0));
  }

  playerInGame(gameId: string, email: string): PlayerWithAddresses | null {
    const e = email.trim().toLowerCase();
    return this.playerList.find((p) => p.gameId === gameId && p.addresses.includes(e)) ?? null;
  }

  /** Players of a game in the order they joined. Complete only for games a secret named. */
  playersOf(gameId: string): PlayerWithAddresses[] {
    return this.playerList.filter((p) => p.gameId === gameId);
  }

  /** A live press token loaded for this batch (lower-cased), with its conversation. */
  pressToken(token: string): FoundToken | null {
    return this.tokens.get(token.trim().toLowerCase()) ?? null;
  }

  /** A referee still assigned to a game whose press token this batch loaded. */
  refereeInGame(gameId: string, id: number): { id: number; email: string } | null {
    return this.tokenReferees.find((r) => r.gameId === gameId && r.id === id) ?? null;
  }

  /** A seated player of a game this batch loaded, by id. */
  playerById(id: number): PlayerWithAddresses | null {
    return this.playerList.find((p) => p.id === id) ?? null;
  }

  game(id: string): Game | null {
    return this.gamesById.get(id) ?? null;
  }

  /** The turn, locked for this transaction; null unless a secret of that game was in the batch. */
  turn(gameId: string, number: number): Turn | null {
    return this.turns.get(turnKey(gameId, number)) ?? null;
  }

  latestSheet(gameId: string, turn: number, faction: string): SheetSummary | null {
    return this.latest.get(sheetKey(gameId, turn, faction)) ?? null;
  }

  /** Replies counted against the hourly limit, this batch's included. */
  repliesTo(address: string): number {
    return this.replies.get(address) ?? 0;
  }

  /** Whether an answer with this key (echo-guard.ts) was written already, earlier or in this batch. */
  answered(dedupeKey: string): boolean {
    return this.answeredEchoes.has(dedupeKey) || this.queuedKeys.has(dedupeKey);
  }

  /** Misuse of a player's code seen so far (this batch's included). */
  codeMisuse(playerId: number): CodeMisuse {
    return this.misuse.get(playerId) ?? { lastWarnedAt: null, unreported: 0, firstUnreportedAt: null };
  }

  // ---- writes (buffered until flush) --------------------------------------------------------

  /** One more use of a player's code from another address; `warned`: the player was told of it and all before. */
  noteCodeMisuse(playerId: number, at: Date, warned: boolean): void {
    const m = this.codeMisuse(playerId);
    this.misuse.set(
      playerId,
      warned
        ? { lastWarnedAt: at, unreported: 0, firstUnreportedAt: null }
        : { lastWarnedAt: m.lastWarnedAt, unreported: m.unreported + 1, firstUnreportedAt: m.firstUnreportedAt ?? at },
    );
  }

  /** The next version of a faction's sheet (R-TURN-4), if its turn is locked here and open. */
  addSheet(input: SheetInput): AddedSheet {
    const turn = this.turn(input.gameId, input.turn);
    if (!turn) return { ok: false, reason: 'no-turn' };
    if (turn.status !== 'open') return { ok: false, reason: 'turn-closed' };
    const key = sheetKey(input.gameId, input.turn, input.faction);
    const previous = this.latest.get(key) ?? null;
    const version = (previous?.version ?? 0) + 1;
    this.sheetsToAdd.push({ ...input, version });
    this.latest.set(key, { version, receivedAt: input.receivedAt, text: input.text, status: input.status, inboundId: input.inboundId });
    return { ok: true, version, previousReceivedAt: previous?.receivedAt ?? null };
  }

  /** Queues a mail unless its dedupe key is queued already; `countsAsReply` counts it for the limit. */
  enqueue(mail: OutboxInput, countsAsReply: boolean): void {
    if (this.queuedKeys.has(mail.dedupeKey)) return;
    this.queuedKeys.add(mail.dedupeKey);
    this.mailToSend.push(mail);
    if (countsAsReply) this.replies.set(mail.toAddress, this.repliesTo(mail.toAddress) + 1);
  }

  /**
   * Work that needs the transaction (press: threads, messages and tokens take ids), run at flush
   * in the order the mails were decided, before the queued mail is written; it may enqueue more.
   */
  later(work: (tx: Db) => Promise<void>): void {
    this.laterWork.push({ one: work });
  }

  /**
   * `later` for work done in bulk: `input`s given in a row to the same `many` are handed to it
   * together (one call, in order, instead of one each), and each answer to its `then`, in order.
   * Other work between them splits the row, so every piece still sees what came before it.
   */
  laterMany<I, R>(many: (tx: Db, inputs: I[]) => Promise<R[]>, input: I, then: (r: R) => void): void {
    this.laterWork.push({ many: many as Many, input, then: then as (r: unknown) => void });
  }

  /** An entry for the audit log (an alert for the referee), written with the batch. */
  audit(entry: AuditInput): void {
    this.audits.push(entry);
  }

  /** What became of a message; a sheet's outcome gets the new sheet's id at flush. */
  record(id: number, outcome: InboundOutcome): void {
    this.outcomes.push({ id, outcome });
  }

  /** Writes everything decided, in three statements (and one per alert). */
  private readonly bounces: Bounce[] = [];

  /** Our mail that bounced: marked failed, with the report's reason, when the batch is written. */
  recordBounce(bounce: Bounce): void {
    this.bounces.push(bounce);
  }

  async flush(tx: Db): Promise<void> {
    for (let i = 0; i < this.laterWork.length;) {
      const work = this.laterWork[i]!;
      if ('one' in work) {
        await work.one(tx);
        i++;
        continue;
      }
      const row: Array<Extract<LaterWork, { many: Many }>> = [];
      for (let w = this.laterWork[i]; w && 'many' in w && w.many === work.many; w = this.laterWork[++i]) row.push(w);
      const answers = await work.many(
        tx,
        row.map((w) => w.input),
      );
      row.forEach((w, k) => w.then(answers[k]));
    }
    const sheetIds = await insertSheets(tx, this.sheetsToAdd);
    for (const { id, outcome } of this.outcomes) {
      const sheetId = sheetIds.get(id);
      if (sheetId !== undefined && outcome.detail && typeof outcome.detail === 'object')
        (outcome.detail as { sheetId?: number }).sheetId = sheetId;
    }
    await enqueueMany(tx, this.mailToSend);
    await markProcessedMany(tx, this.outcomes);
    for (const entry of this.audits) await recordAudit(tx, entry); // rare: an alert a day at most per sender or game
    for (const b of this.bounces) await recordBounce(tx, b); // rare; each bounded in src/db/bounces.ts
  }
}
