// What becomes of stored mail: ignored (loops), refused (identity), answered (commands,
// unreadable, late) or stored as a new sheet version and acknowledged — the game's part decided
// by src/games/accept-sheet.ts, from facts this batch loaded. Everything it changes —
// the sheets, the replies in the outbox, the messages' outcomes — commits in one transaction that
// starts by locking the messages, so two instances never process one mail twice. Mail comes in
// batches (one IMAP fetch's worth) so that a batch costs a fixed number of queries, not a mail.
import type { Logger } from 'pino';
import type { Board } from '../../adjudicator/map.ts';
import { boardFor } from '../../games/index.ts';
import type { Db } from '../../db/client.ts';
import { inboundRaw, lockInboundMany, type InboundHead, type InboundOutcome } from '../../db/inbound.ts';
import type { BodyReader } from './body-reader.ts';
import { readMails, type ReadMail } from './read-mails.ts';
import { identifySender } from './identify-sender.ts';
import { answerPlayer, type PlayerMailContext } from './answer-player.ts';
import { answerPressReply, answerRefereeReply } from './answer-press-reply.ts';
import { IntakeStore } from './intake-store.ts';
import { bounceOf } from './bounces.ts';
import { REPLY_KINDS, type ReplyContext } from './outgoing.ts';
import { echoKey } from './echo-guard.ts';
import { refuseStranger } from './refuse-stranger.ts';
import { probeWatchFor } from './secret-probes.ts';
import type { FileDispute } from '../../games/press/relay.ts';

export interface IntakeDeps {
  db: Db;
  log: Logger;
  now: () => Date;
  mail: {
    domain: string;
    ordersLocalPart: string;
    maxBytes: number;
    replyRateLimitPerHour: number;
    /** Our own addresses: mail from them is never answered. */
    ourAddresses: string[];
  };
  /** The map a game is played on (R-BOARD-5). */
  boardFor?: (mapId: string) => Board;
  /**
   * Reads players' bodies in a worker with a time and memory budget (body-reader.ts). Without
   * one they are read in-process, as before (tests, `sf ingest`).
   */
  bodyReader?: BodyReader | null;
  /** Takes a player's dispute of an edict (src/games/disputes.ts; `intakeDeps` wires it). */
  fileDispute: FileDispute;
  /** Who hears of a reported message when a game has no referee (D-PRESS-17), and the console's public address. */
  operatorAddress?: string;
  publicUrl?: string;
}

export type IntakeResult = Pick<InboundOutcome, 'status' | 'outcome'> | { status: 'already'; outcome: string | null };

/** A stored message to process, with its bytes when the caller has them (spares reading them back). */
export interface StoredMail {
  id: number;
  raw?: Buffer;
}

/** One stored message: a batch of one. */
export async function processInbound(deps: IntakeDeps, id: number, justStored?: Buffer): Promise<IntakeResult> {
  const [result] = await processInboundBatch(deps, [{ id, ...(justStored ? { raw: justStored } : {}) }]);
  return result!;
}

/** A batch's mails read: the slow, pure part, done before (and apart from) its transaction. */
export interface ReadBatch {
  raws: Buffer[];
  mails: ReadMail[];
}

/** Reads stored messages (their bytes from the database when not given). Rejects if one does not exist. */
export async function readBatch(deps: IntakeDeps, items: StoredMail[]): Promise<ReadBatch> {
  const raws = new Map(items.flatMap((i) => (i.raw ? [[i.id, i.raw] as const] : [])));
  const missing = items.filter((i) => !i.raw).map((i) => i.id);
  for (const [id, raw] of await inboundRaw(deps.db, missing)) raws.set(id, raw);
  const unknown = items.find((i) => !raws.has(i.id));
  if (unknown) throw new Error(`inbound message ${unknown.id} does not exist`);
  const options = {
    maxBytes: deps.mail.maxBytes,
    ourDomain: deps.mail.domain,
    ordersLocalPart: deps.mail.ordersLocalPart,
    ourAddresses: deps.mail.ourAddresses,
  };
  const inOrder = items.map((i) => raws.get(i.id)!);
  return { raws: inOrder, mails: await readMails(deps.db, inOrder, options, deps.bodyReader ?? null) };
}

/**
 * Processes stored messages in the order given, in one transaction: each mail is decided in
 * turn, seeing what the mails before it did (a second sheet from the same player in the batch
 * is version 2). A message already processed, by us or another instance, is left as it is.
 * Rejects if anything fails; then nothing of the batch is written and every message stays
 * pending (the caller may retry them one by one, so that one bad mail does not hold the rest).
 * `read`: the batch as readBatch read it, when the caller read it ahead.
 */
export async function processInboundBatch(deps: IntakeDeps, items: StoredMail[], read?: ReadBatch): Promise<IntakeResult[]> {
  const { db, log } = deps;
  // Parsing is slow and pure: done before the transaction, which then stays short.
  const { raws, mails } = read ?? (await readBatch(deps, items));
  const now = deps.now();
  const results = await db.transaction(async (tx) => {
    const rows = await lockInboundMany(
      tx,
      items.map((i) => i.id),
    );
    // Each mail's echo key (D-MAIL-24) once: looked up in bulk here, used by deciding.
    const echoes = mails.map((m) => echoKey(m.from, m.echoPrint, now));
    const store = await IntakeStore.load(
      tx,
      mails,
      REPLY_KINDS,
      new Date(now.getTime() - 3_600_000),
      echoes.flatMap((e) => e ?? []),
    );
    const decided = items.map((item, i): IntakeResult => {
      const row = rows.get(item.id);
      if (!row || row.status !== 'pending') return { status: 'already', outcome: row?.outcome ?? null };
      const outcome = { ...decide(deps, store, now, row, mails[i]!, echoes[i] ?? null, raws[i]!), at: now };
      row.status = outcome.status; // the same message twice in one batch is processed once
      row.outcome = outcome.outcome;
      store.record(item.id, outcome);
      return { status: outcome.status, outcome: outcome.outcome };
    });
    await store.flush(tx);
    return decided;
  });
  // Logged once committed: a batch that fails is processed again, mail by mail.
  for (const [i, r] of results.entries()) {
    if (r.status !== 'already')
      log.info({ inbound: items[i]!.id, from: mails[i]!.from, status: r.status, outcome: r.outcome }, 'mail processed');
  }
  return results;
}

function decide(
  deps: IntakeDeps,
  store: IntakeStore,
  now: Date,
  row: InboundHead,
  mail: ReadMail,
  echo: string | null,
  raw: Uint8Array,
): InboundOutcome {
  if (mail.automatic) {
    // Never answered; a bounce of our own mail is recorded against the address it failed for.
    const bounce = bounceOf(raw, mail.automaticReasons, deps.mail.domain);
    if (bounce?.severity === 'permanent') store.recordBounce(bounce);
    else if (bounce)
      deps.log.info(
        { inbound: row.id, severity: bounce.severity, reason: bounce.reason },
        'delivery report, not permanent: logged, no address marked',
      );
    return {
      status: 'ignored',
      outcome: 'automatic',
      detail: { reasons: mail.automaticReasons, ...(bounce ? { bounced: bounce.messageIds } : {}) },
    };
  }
  if (mail.messageId && store.isOwnMail(mail.messageId)) return { status: 'ignored', outcome: 'own-mail' };
  const replyCtx: ReplyContext = {
    domain: deps.mail.domain,
    ordersLocalPart: deps.mail.ordersLocalPart,
    replyRateLimitPerHour: deps.mail.replyRateLimitPerHour,
    now,
  };
  const thread = { messageId: mail.messageId, references: mail.references, subject: mail.subject };
  const who = identifySender(store, mail);
  if (who.kind === 'refused')
    return refuseStranger(
      { store, replyCtx, row, mail, echo, thread, probes: probeWatchFor(deps.db), log: deps.log, boardFor: deps.boardFor ?? boardFor },
      who,
    );
  const board = (deps.boardFor ?? boardFor)(who.game.map);
  if (who.kind === 'referee-reply')
    return answerRefereeReply({ store, row, mail, referee: who.referee, game: who.game, board, replyCtx, thread, token: who.token });
  const ctx: PlayerMailContext = {
    store,
    row,
    mail,
    echo,
    player: who.player,
    game: who.game,
    board,
    replyCtx,
    thread,
    fileDispute: deps.fileDispute,
    ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
  };
  if (who.kind === 'press-reply')
    return answerPressReply({
      ...ctx,
      token: who.token,
      ...(deps.operatorAddress ? { operatorAddress: deps.operatorAddress } : {}),
    });
  return answerPlayer(ctx);
}
