// The referee's actions: each with a reason, audited and mailed in one transaction; the preview
// stores nothing.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../../src/db/audit.ts';
import { enqueue, findOutbox, listOutbox, markFailed } from '../../src/db/outbox.ts';
import { edicts } from '../../src/db/schema.ts';
import { addSheetVersion } from '../../src/db/sheets.ts';
import { findTurn } from '../../src/db/turns.ts';
import { findGame } from '../../src/db/games.ts';
import { closeTurn } from '../../src/games/close-turn.ts';
import { dropMail, extendDeadline, resendEdict, resendWelcome, retryMail } from '../../src/games/referee-actions.ts';
import { previewTurn } from '../../src/games/preview.ts';
import { databasePerFile } from '../harness/pglite.ts';
import { gameWithReferee, MAIL, NOW } from '../referee/world.ts';

const dbs = databasePerFile();
const ctx = { actor: 'referee:ref@x.org', mail: MAIL, now: () => NOW };
const PLAYERS = ['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org'];

describe('extending a deadline', () => {
  it('moves the deadline and the declaration deadline, audits the reason and tells every player', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', PLAYERS, 'ref@x.org');
    const before = (await findTurn(db, gameId, 1))!;
    const r = await extendDeadline(db, gameId, 24 * 60, '  mail server\n down  ', ctx);
    const after = (await findTurn(db, gameId, 1))!;
    expect(after.deadline.getTime() - before.deadline.getTime()).toBe(86_400_000);
    expect(after.declarationDeadline.getTime() - before.declarationDeadline.getTime()).toBe(86_400_000);
    expect(r.previous).toEqual(before.deadline);
    const [audit] = await listAudit(db, { gameId, action: 'turn.extend' });
    expect(audit).toMatchObject({ actor: 'referee:ref@x.org', detail: { turn: 1, minutes: 1440, reason: 'mail server down' } });
    const mails = await listOutbox(db, { gameId, kind: 'deadline-extended' });
    expect(mails.map((m) => m.toAddress).sort()).toEqual(PLAYERS);
    expect(mails[0]!.bodyText).toContain('Reason: mail server down');
    expect(mails[0]!.subject).toMatch(/^\[SF andromeda\] Turn 1: the deadline is now /);
  });

  it('refuses without a reason, beyond 7 days at once or 28 days ahead, and changes nothing', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', PLAYERS, 'ref@x.org');
    const before = (await findTurn(db, gameId, 1))!.deadline;
    await expect(extendDeadline(db, gameId, 60, '   ', ctx)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(extendDeadline(db, gameId, 7 * 24 * 60 + 1, 'why', ctx)).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(extendDeadline(db, gameId, 0, 'why', ctx)).rejects.toMatchObject({ code: 'invalid-input' });
    for (let i = 0; i < 3; i++) await extendDeadline(db, gameId, 7 * 24 * 60, `week ${i}`, ctx);
    await expect(extendDeadline(db, gameId, 7 * 24 * 60, 'one more', ctx)).rejects.toMatchObject({ code: 'invalid-input' });
    expect((await findTurn(db, gameId, 1))!.deadline.getTime() - before.getTime()).toBe(3 * 7 * 86_400_000);
    expect(await listAudit(db, { gameId, action: 'turn.extend' })).toHaveLength(3);
  });
});

describe('resending mail', () => {
  it('resends a welcome and an edict, each as a new mail with the reason audited', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', PLAYERS, 'ref@x.org');
    const players = await listOutbox(db, { gameId, kind: 'welcome' });
    const first = players[0]!;
    const welcome = await resendWelcome(db, gameId, 1, 'lost it', ctx);
    expect(welcome.id).not.toBe(first.id);
    expect(welcome.toAddress).toBe(first.toAddress);
    expect(welcome.bodyText).toContain('orders+');
    await expect(resendWelcome(db, gameId, 999, 'lost it', ctx)).rejects.toMatchObject({ code: 'no-player' });
    await expect(resendEdict(db, gameId, 1, null, 'why', ctx)).rejects.toMatchObject({ code: 'no-edict' });
    const closed = await closeTurn(db, gameId, 1, { actor: 'test', mail: MAIL, now: () => NOW }, { force: true });
    expect(closed.closed).toBe(true);
    expect(await resendEdict(db, gameId, 1, null, 'their server lost it', ctx)).toBe(4);
    expect(await listOutbox(db, { gameId, kind: 'edict' })).toHaveLength(8);
    const mailActions = (await listAudit(db, { gameId })).filter((e) => e.action.startsWith('mail.'));
    expect(mailActions.map((e) => [e.action, (e.detail as { reason: string }).reason])).toEqual([
      ['mail.resend-edict', 'their server lost it'],
      ['mail.resend-welcome', 'lost it'],
    ]);
  });

  it('retries a failed mail and drops a failing one, only in the game they belong to', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', PLAYERS, 'ref@x.org');
    await gameWithReferee(db, 'Other', ['e@x.org', 'f@x.org', 'g@x.org', 'h@x.org'], 'two@x.org');
    const { mail } = await enqueue(db, {
      kind: 'ack',
      gameId,
      toAddress: 'a@x.org',
      subject: 's',
      messageId: 'm1@sf.example',
      bodyText: 'b',
      dedupeKey: 't1',
    });
    await expect(retryMail(db, gameId, mail.id, 'why', ctx)).rejects.toMatchObject({ code: 'not-allowed' });
    await markFailed(db, mail.id, '550 gone', { permanent: true });
    await expect(retryMail(db, 'other', mail.id, 'why', ctx)).rejects.toMatchObject({ code: 'no-mail' });
    const retried = await retryMail(db, gameId, mail.id, 'address fixed', ctx);
    expect(retried).toMatchObject({ status: 'pending', attempts: 0 });
    const dropped = await dropMail(db, gameId, mail.id, 'player left', ctx);
    expect(dropped.status).toBe('failed');
    expect(dropped.lastError).toContain('player left');
    expect((await findOutbox(db, mail.id))!.status).toBe('failed');
    expect((await listAudit(db, { gameId })).slice(0, 2).map((e) => e.action)).toEqual(['mail.drop', 'mail.retry']);
  });
});

describe('preview', () => {
  it('adjudicates the standing sheets as closing would, and stores nothing', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', PLAYERS, 'ref@x.org');
    await addSheetVersion(db, {
      gameId,
      turn: 1,
      faction: 'sith',
      text: 'V: Hutt',
      parsed: {},
      status: 'valid',
      receivedAt: new Date('2026-03-02T11:00:00Z'),
      inboundId: null,
    });
    await addSheetVersion(db, {
      gameId,
      turn: 1,
      faction: 'sith',
      text: 'V: Sith',
      parsed: {},
      status: 'valid',
      receivedAt: new Date('2026-03-02T12:00:00Z'),
      inboundId: null,
    });
    const game = (await findGame(db, gameId))!;
    const outboxBefore = (await listOutbox(db)).length;
    const p = await previewTurn(db, game, new Date('2026-03-03T00:00:00Z'));
    expect(p.standing).toEqual({ sith: 2 });
    expect(p.edict.turn).toBe(1);
    expect(p.textEn.length).toBeGreaterThan(0);
    expect(p.svg.trim().startsWith('<svg') && p.svg.trim().endsWith('</svg>')).toBe(true);
    // The same edict closing the turn makes, from the same sheets.
    const closed = await closeTurn(
      db,
      gameId,
      1,
      { actor: 'test', mail: MAIL, now: () => new Date('2026-03-03T00:00:00Z') },
      { force: true },
    );
    expect(closed.closed && closed.edict).toEqual(p.edict);
    const later = (await findGame(db, gameId))!;
    await expect(previewTurn(db, { ...later, currentTurn: 1 })).rejects.toMatchObject({ code: 'no-turn' });
    expect((await listOutbox(db)).length).toBeGreaterThan(outboxBefore); // closing mailed; the preview did not (below)
  });

  it('leaves no edict, no mail and an open turn behind', async () => {
    const { db } = await dbs.fresh();
    const { gameId } = await gameWithReferee(db, 'Andromeda', PLAYERS, 'ref@x.org');
    const game = (await findGame(db, gameId))!;
    const outboxBefore = await listOutbox(db);
    const auditBefore = await listAudit(db);
    await previewTurn(db, game);
    expect(await db.select().from(edicts).where(eq(edicts.gameId, gameId))).toEqual([]);
    expect(await listOutbox(db)).toEqual(outboxBefore);
    expect(await listAudit(db)).toEqual(auditBefore);
    expect((await findTurn(db, gameId, 1))!.status).toBe('open');
  });
});
